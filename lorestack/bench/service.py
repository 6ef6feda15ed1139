"""Whole-process figures with the resident service off and on, on one kept store.

    python -m lorestack.bench.service [--items 10000] [--runs 20] [--keep DIR] [--json]

runs the prompt-hook figures of issue 23 (`prompt_latency`): a store of `--items` items (the
hooks bench's, indexed; kept and reused in `--keep`), a private service, then `--runs` prompt
hooks one after another, one alone and 8 at once, `search` through the service, and the
service's resident and peak memory; and the CPU each prompt costs (the client's processes and
the service, from getrusage of the children and /proc) alone and with 8 at once, with the least
time 8 prompts can take on this machine's cores (`eight_cpu_floor_ms`). Those reuse prompts
already timed, whose query vectors the service keeps; `fresh` is the same for prompts it has
not seen, as a user's are (5 rounds of 3 alone and 8 at once, medians).

`service_latency(repo, home, runs)` times the commands as a client runs them (the `lorestack`
console script, a fresh process each time): first with the service disabled, then the very
first prompt after "boot" (no service yet: answered in-process, and it starts the service),
then with the warm service — session-start, prompt (the full default pipeline), `search`,
`check` and `check --hook pre-tool` — and finally the service's resident memory and its CPU
while idle. The service runs in a private temporary runtime folder and is stopped at the end.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lorestack.bench.hooks import _AREAS, _PROMPTS, _TECH, _percentiles
from lorestack.bench.private_service import private_service, proc_mb


def _command() -> list[str]:
    script = Path(sys.executable).parent / "lorestack"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "lorestack.launcher"]


def _hook_command() -> list[str]:
    """The prompt hook as `lorestack install` writes it (this Python without `site` on the
    thin entry), as a client runs it: through `sh -c`."""
    from lorestack.integrations.installers import hook_command

    return ["/bin/sh", "-c", hook_command() + ' "$@"', "hook"]


def _timed(args: list[str], env: dict, cwd: Path, stdin: str | None = None,
           command: list[str] | None = None) -> tuple[float, str]:
    started = time.perf_counter()
    proc = subprocess.run(
        [*(command or _command()), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
        check=False,
    )
    return (time.perf_counter() - started) * 1000, proc.stdout


def _cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class _CpuMeter:
    """CPU spent from now on by the client processes this bench ran (children it waited for:
    the hook's `sh` and Python) and by the service process, per prompt, in ms."""

    def __init__(self, service_pid: int):
        import resource

        self.pid = service_pid
        self.children = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.service = _cpu_seconds(service_pid)

    def per_prompt(self, prompts: int) -> dict:
        import resource

        now = resource.getrusage(resource.RUSAGE_CHILDREN)
        client = (now.ru_utime - self.children.ru_utime) + (now.ru_stime - self.children.ru_stime)
        after = _cpu_seconds(self.pid)
        service = (after - self.service) if after is not None and self.service is not None else 0.0
        n = max(1, prompts)
        return {"client": round(1000 * client / n, 1), "service": round(1000 * service / n, 1),
                "total": round(1000 * (client + service) / n, 1)}


def _round(samples: list[float]) -> dict:
    return _percentiles(samples) if samples else {}


def _suite(env: dict, repo: Path, runs: int, seed: int, tag: str) -> dict:
    """session-start, prompt, search, check, check --hook pre-tool: `runs` fresh processes each."""
    rng = random.Random(seed)
    starts, prompts, searches, checks, pretool, recalled = [], [], [], [], [], 0
    for i in range(runs):
        ms, _ = _timed(
            ["hook", "session-start"],
            env,
            repo,
            json.dumps(
                {"cwd": str(repo), "session_id": f"{tag}-s{i}", "hook_event_name": "SessionStart"}
            ),
        )
        starts.append(ms)
        text = rng.choice(_PROMPTS).format(a=rng.choice(_AREAS), t=rng.choice(_TECH))
        ms, out = _timed(
            ["hook", "prompt"],
            env,
            repo,
            json.dumps(
                {
                    "cwd": str(repo),
                    "session_id": f"{tag}-p{i}",
                    "hook_event_name": "UserPromptSubmit",
                    "prompt": text,
                }
            ),
        )
        prompts.append(ms)
        recalled += bool(out.strip())
        ms, _ = _timed(["search", text], env, repo)
        searches.append(ms)
        ms, _ = _timed(
            ["check", f"add {rng.choice(_TECH)} to the {rng.choice(_AREAS)} service"], env, repo
        )
        checks.append(ms)
        ms, _ = _timed(
            ["check", "--hook", "pre-tool"],
            env,
            repo,
            json.dumps(
                {"tool_name": "Bash", "tool_input": {"command": "ls -la"}, "cwd": str(repo)}
            ),
        )
        pretool.append(ms)
    return {
        "session_start_ms": _round(starts),
        "prompt_ms": _round(prompts),
        "search_ms": _round(searches),
        "check_ms": _round(checks),
        "pre_tool_ms": _round(pretool),
        "prompt_recalled": f"{recalled}/{runs}",
    }


def service_latency(
    repo: Path, home: Path, runs: int, *, seed: int = 11, idle_s: float = 5.0
) -> dict:
    """Service off vs on on the store at `repo` (already indexed); see the module docstring."""
    with private_service(home, prefix="ms-bench-") as svc:
        off = {**svc.base, "LORESTACK_SERVICE__ENABLED": "false"}
        on = svc.env
        result: dict = {"off": _suite(off, repo, runs, seed, "off")}
        # first call after boot: no service; the default deadline applies
        ms, out = _timed(
            ["hook", "prompt"],
            on,
            repo,
            json.dumps(
                {
                    "cwd": str(repo),
                    "session_id": "boot",
                    "prompt": "how do we deploy billing changes?",
                }
            ),
        )
        result["first_prompt_ms"] = round(ms, 1)
        result["first_prompt_recalled"] = bool(out.strip())
        up = svc.wait_up()
        result["service_started_by_first_call"] = up
        if not up:
            return result
        _suite(on, repo, 2, seed + 1, "warm")  # warm-up: first sync, model load, caches
        result["on"] = _suite(on, repo, runs, seed, "on")
        status = svc.status()
        result["service_rss_mb"] = status.get("rss_mb")
        pid = int(status["pid"])
        before = _cpu_seconds(pid)
        time.sleep(idle_s)
        after = _cpu_seconds(pid)
        if before is not None and after is not None:
            result["service_idle_cpu_pct"] = round(100 * (after - before) / idle_s, 2)
        return result


def _prompt_payload(repo: Path, text: str, session: str) -> str:
    return json.dumps({"cwd": str(repo), "session_id": session,
                       "hook_event_name": "UserPromptSubmit", "prompt": text})


def prompt_latency(repo: Path, home: Path, runs: int, *, seed: int = 11,
                   installed: bool = True) -> dict:
    """The prompt hook (and `search`) through a warm service, as whole processes: the hook
    command `lorestack install` writes (`installed`), else the `lorestack` console script."""
    from concurrent.futures import ThreadPoolExecutor

    hook_command = _hook_command() if installed else None
    rng = random.Random(seed)
    texts = [rng.choice(_PROMPTS).format(a=rng.choice(_AREAS), t=rng.choice(_TECH))
             for _ in range(max(runs, 8))]
    with private_service(home, prefix="ms-bench-") as svc:
        env = svc.env

        # sessions of their own: on a kept store a session id used by an earlier run has been
        # shown most of the top hits already, and its prompts then draw far deeper
        run_id = f"{os.getpid()}-{time.time_ns()}-"

        def prompt(n: int | str, tag: str) -> tuple[float, str]:
            text = n if isinstance(n, str) else texts[n % len(texts)]  # or a text of its own
            return _timed(["hook", "prompt", "--client", "claude-code"], env, repo,
                          _prompt_payload(repo, text, _session_id(run_id, tag, n)), hook_command)

        prompt(0, "boot")
        if not svc.wait_up():
            return {"error": "the service did not start"}
        for n in range(3):  # first look at the store: loader cache, index handles, model
            prompt(n, "warm")
        prepared = svc.wait_prepared()  # the service renders every item's hit block once
        times, answered = [], 0
        spent = _CpuMeter(svc.pid())
        for n in range(runs):
            ms, out = prompt(n, "p")
            times.append(ms)
            answered += bool(out.strip())
        cpu_alone = spent.per_prompt(runs)
        load_prompts = os.getloadavg()
        alone = sorted(prompt(n, "one")[0] for n in range(3))[1]
        spent = _CpuMeter(svc.pid())
        started = time.perf_counter()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda n: prompt(n, "eight"), range(8)))
        eight = (time.perf_counter() - started) * 1000
        cpu_eight = spent.per_prompt(8)
        load_eight = os.getloadavg()
        fresh = _fresh_rounds(prompt, texts, rng, svc.pid)
        searches = [_timed(["search", texts[n]], env, repo)[0] for n in range(min(runs, 10))]
        pid = svc.pid()
        busy_mb = proc_mb(pid, "VmRSS")
        time.sleep(2.0)  # quiet: the service hands freed heap back
        pid = svc.pid()
        return {"runs": runs, "hook": " ".join(hook_command or _command()),
                "prepared": prepared, "prompt_ms": _percentiles(times),
                "prompt_answered": f"{answered}/{runs}", "load_during_prompts": load_prompts,
                "one_prompt_ms": round(alone, 1), "eight_at_once_ms": round(eight, 1),
                "eight_over_one": round(eight / alone, 2),
                "cpu_ms_per_prompt": cpu_alone, "cpu_ms_per_prompt_eight": cpu_eight,
                # what 8 prompts cost at least on this machine's cores, however well they overlap
                "eight_cpu_floor_ms": round(8 * cpu_eight["total"] / (os.cpu_count() or 1), 1),
                "cores": os.cpu_count(), "load_during_eight": load_eight,
                "fresh": fresh, "search_ms": _percentiles(searches),
                "service_rss_busy_mb": busy_mb, "service_rss_mb": proc_mb(pid, "VmRSS"),
                "service_peak_mb": proc_mb(pid, "VmHWM"),
                "load_average": os.getloadavg()}


def _session_id(run_id: str, tag: str, n: int | str) -> str:
    """A prompt's session: the run, its tag and its number; a prompt given as text has a tag
    of its own (the text is not appended: lorestack keeps 80 characters of a session id in its
    file name, and texts sharing their first words would share a session)."""
    return f"{run_id}{tag}" if isinstance(n, str) else f"{run_id}{tag}{n}"


def _fresh_rounds(prompt, asked: list[str], rng: random.Random, pid, rounds: int = 5) -> dict:
    """One alone and 8 at once with prompts the service has not seen (the figures above reuse
    the timed prompts, whose query vectors the service keeps): `rounds` rounds of 3 alone and
    8 at once, each prompt new; medians of the rounds, CPU per prompt over all of them."""
    from concurrent.futures import ThreadPoolExecutor

    unseen = sorted({p.format(a=a, t=t) for p in _PROMPTS for a in _AREAS for t in _TECH}
                    - set(asked))
    rng.shuffle(unseen)
    alone, eight, ratios = [], [], []
    cpu_alone = cpu_eight = None
    for r in range(rounds):
        batch, unseen = unseen[:11], unseen[11:]
        spent = _CpuMeter(pid())
        ones = sorted(prompt(text, f"fresh{r}-one{i}")[0] for i, text in enumerate(batch[:3]))
        cpu = spent.per_prompt(3)
        spent = _CpuMeter(pid())
        started = time.perf_counter()
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(lambda job: prompt(*job),
                          [(text, f"fresh{r}-eight{i}") for i, text in enumerate(batch[3:])]))
        ms = (time.perf_counter() - started) * 1000
        cpu8 = spent.per_prompt(8)
        alone.append(ones[1])
        eight.append(ms)
        ratios.append(ms / ones[1])
        cpu_alone = _add(cpu_alone, cpu, r)
        cpu_eight = _add(cpu_eight, cpu8, r)
    return {"rounds": rounds, "one_prompt_ms": round(_median(alone), 1),
            "eight_at_once_ms": round(_median(eight), 1),
            "eight_over_one": round(_median(ratios), 2),
            "cpu_ms_per_prompt": cpu_alone, "cpu_ms_per_prompt_eight": cpu_eight,
            "load_average": os.getloadavg()}


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def _add(mean: dict | None, new: dict, seen: int) -> dict:
    """The running mean of per-prompt CPU figures over rounds of equal size."""
    if mean is None:
        return new
    return {k: round((mean[k] * seen + new[k]) / (seen + 1), 1) for k in new}


def kept_store(folder: Path, items: int) -> tuple[Path, Path, dict]:
    """(repo, home, build figures): the hooks bench's store of `items` items, indexed, built
    in `folder` unless it is already there."""
    from lorestack.bench.hooks import build_store
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    repo, home = folder / "repo", folder / "home"
    figures: dict = {}
    if not (repo / ".memory").is_dir():
        started = time.perf_counter()
        build_store(folder, items)
        figures["store_build_s"] = round(time.perf_counter() - started, 1)
        saved = os.environ.get("LORESTACK_HOME")
        os.environ["LORESTACK_HOME"] = str(home)  # indexed as the service will see it
        try:
            mem = Memory.open(repo, home=home)
            started = time.perf_counter()
            index = MemoryIndex(mem, warn=lambda _m: None)
            try:
                index.sync()
            finally:
                index.close()
            figures["index_build_s"] = round(time.perf_counter() - started, 1)
            figures["index_load_average"] = os.getloadavg()
        finally:
            if saved is None:
                os.environ.pop("LORESTACK_HOME", None)
            else:
                os.environ["LORESTACK_HOME"] = saved
    return repo, home, figures


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="The prompt hook through the service.")
    parser.add_argument("--items", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--keep", help="folder for the store (reused when already built)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--console-script", action="store_true",
                        help="time the `lorestack` console script instead of the installed hook")
    args = parser.parse_args(argv)
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="svc-bench-"))
    try:
        repo, home, built = kept_store(folder, args.items)
        result = {"items": args.items, **built, **prompt_latency(repo, home, args.runs,
                                                            installed=not args.console_script)}
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    sys.exit(main())
