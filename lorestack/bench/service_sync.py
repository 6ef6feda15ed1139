"""The resident service's memory and CPU around index syncs, as whole processes.

    python -m lorestack.bench.service_sync --pristine DIR --run DIR [--outputs FILE]

`--pristine` is a store built by `lorestack.bench.service --keep` at the path `--run` (so its
catalog's absolute paths are those of the run: a sync then re-reads only what changed); it
is copied to `--run` afresh (no service may be running on `--run`). Then a private service
answers a boot prompt, 3 warm prompts and 20 prompts (RSS quiet after); three hand edits of
one fact file each (the service's CPU until it is quiet again is that sync's), 5 prompts and
RSS quiet after each; 40 `lorestack remember` of 150-300-word items, 10 prompts, RSS quiet
and peak. `--outputs` saves every prompt's output, to compare two codes on the same store.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from lorestack.bench.hooks import _AREAS, _PROMPTS, _TECH
from lorestack.bench.private_service import private_service, proc_mb
from lorestack.bench.service import _cpu_seconds, _hook_command, _prompt_payload, _timed

_WORDS = ("the billing service retries payments with exponential backoff and the ledger keeps "
          "every attempt so support can see why a charge failed").split()


def _settle(pid: int, quiet_s: float = 2.0, limit_s: float = 300.0) -> float:
    """Wait until the process's CPU stops growing; its CPU seconds then."""
    started = time.monotonic()
    last = _cpu_seconds(pid) or 0.0
    while time.monotonic() - started < limit_s:
        time.sleep(quiet_s)
        now = _cpu_seconds(pid) or 0.0
        if now - last < 0.02:
            return now
        last = now
    return last


def sync_run(pristine: Path, run: Path, outputs: dict[str, str]) -> dict:
    shutil.rmtree(run, ignore_errors=True)
    shutil.copytree(pristine, run, symlinks=True)
    repo, home = run / "repo", run / "home"
    rng = random.Random(11)
    texts = [rng.choice(_PROMPTS).format(a=rng.choice(_AREAS), t=rng.choice(_TECH))
             for _ in range(40)]
    hook = _hook_command()
    res: dict = {}
    with private_service(home, prefix="sync-bench-") as svc:
        env = svc.env

        def prompt(n: int, session: str) -> float:
            ms, out = _timed(["hook", "prompt", "--client", "claude-code"], env, repo,
                             _prompt_payload(repo, texts[n % len(texts)], session), hook)
            outputs[f"{session}:{n}"] = out
            return ms

        prompt(0, "boot")
        if not svc.wait_up():
            return {"error": "the service did not start"}
        for n in range(3):
            prompt(n, "warm")
        svc.wait_prepared()
        times = sorted(prompt(n, "a") for n in range(20))
        res["prompt_p50_ms"] = round((times[9] + times[10]) / 2, 1)
        pid = svc.pid()
        _settle(pid)
        time.sleep(3)
        res["rss_quiet_mb"], res["load"] = proc_mb(pid, "VmRSS"), os.getloadavg()[0]
        facts = sorted((repo / ".memory" / "facts").glob("*.md"))
        for e, path in enumerate(facts[100:103]):
            before = _cpu_seconds(pid) or 0.0
            with open(path, "a", encoding="utf-8") as fh:
                fh.write(f"\nAlso: edited by hand, round {e}.\n")
            res[f"edit{e}_sync_cpu_s"] = round(_settle(pid) - before, 2)
            for n in range(5):
                prompt(n, f"e{e}")
            time.sleep(3)
            res[f"edit{e}_rss_quiet_mb"] = proc_mb(pid, "VmRSS")
        before = _cpu_seconds(pid) or 0.0
        for i in range(40):
            body = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(150, 300)))
            subprocess.run([sys.executable, "-m", "lorestack.cli", "remember", "--type", "fact",
                            f"Long note {i}: {body}"], cwd=repo, env=env, capture_output=True,
                           check=False)
        res["items40_cpu_s"] = round(_settle(pid) - before, 2)
        for n in range(10):
            prompt(n, "r")
        time.sleep(3)
        res["items40_rss_quiet_mb"] = proc_mb(pid, "VmRSS")
        res["peak_mb"] = proc_mb(pid, "VmHWM")
        res["load_end"] = os.getloadavg()[0]
    for _ in range(60):  # the service gone before anyone copies the store again
        if not Path(f"/proc/{pid}").exists():
            break
        time.sleep(1)
    return res


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="The service's memory and CPU around syncs.")
    parser.add_argument("--pristine", required=True)
    parser.add_argument("--run", required=True)
    parser.add_argument("--outputs", help="file for every prompt's output (JSON)")
    args = parser.parse_args(argv)
    outputs: dict[str, str] = {}
    result = sync_run(Path(args.pristine), Path(args.run), outputs)
    if args.outputs:
        Path(args.outputs).write_text(json.dumps(outputs, indent=1), "utf-8")
    print(json.dumps(result))
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    sys.exit(main())
