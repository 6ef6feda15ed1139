"""`claude -p` wall time with lorestack's hooks vs without, interleaved runs (not a test).

    python -m tests.real_client_timing --runs 5

Uses the clients cached by tests/test_real_clients.py (`$LORESTACK_NPM_CACHE`), a throwaway
HOME per arm (one with `lorestack install claude-code`, one without), one repository with a
small `.memory/`, the shipped hook settings, and the fake model server. Prints each run and
the medians as JSON on the last line.

The resident service is on by default (as shipped), in a private runtime folder of its own
(never the user's), started and warmed before the runs and stopped at the end; `--service off`
runs the hooks in-process instead. The JSON says how many hook calls fell back in-process.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.fake_model_server import FakeModelServer
from tests.test_real_clients import npm_cache


def _lorestack(*args: str, cwd: Path, env: dict) -> None:
    subprocess.run(
        [sys.executable, "-m", "lorestack.cli", *args],
        cwd=cwd,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--service", choices=("on", "off"), default="on")
    args = parser.parse_args()
    bin_dir = npm_cache() / "node_modules" / ".bin"
    if not (bin_dir / "claude").exists():
        sys.exit(f"no claude in {bin_dir}; run tests/test_real_clients.py (or .ci/run) first")
    with tempfile.TemporaryDirectory(prefix="lorestack-timing-") as tmp:
        base = Path(tmp)
        repo, with_home, without_home = base / "repo", base / "with", base / "without"
        for folder in (repo, with_home, without_home):
            folder.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
        env["LORESTACK_HOME"] = str(base / "lorestack-home")
        run_dir = Path(tempfile.mkdtemp(prefix="ms-", dir="/tmp")) / "run"  # short socket path
        env["LORESTACK_SERVICE__ENABLED"] = "true" if args.service == "on" else "false"
        env["LORESTACK_SERVICE__RUNTIME_DIR"] = str(run_dir)
        try:
            result = _runs(args, repo, with_home, without_home, env, bin_dir)
        finally:
            if args.service == "on":
                subprocess.run(
                    [sys.executable, "-m", "lorestack.cli", "serve", "--stop"],
                    env={**env, "HOME": str(with_home)},
                    capture_output=True,
                    timeout=60,
                )
            shutil.rmtree(run_dir.parent, ignore_errors=True)
        print(json.dumps(result))


def _runs(args, repo: Path, with_home: Path, without_home: Path, env: dict, bin_dir: Path) -> dict:
    with_env = {**env, "HOME": str(with_home)}
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    _lorestack("init", cwd=repo, env=with_env)
    for text, kind in (
        ("Never run database migrations on Fridays", "caveat"),
        ("Invoice PDFs embed the Tilda Sans font", "decision"),
    ):
        _lorestack("remember", text, "--type", kind, cwd=repo, env=with_env)
    _lorestack("reindex", cwd=repo, env=with_env)
    _lorestack("install", "claude-code", cwd=repo, env=with_env)
    if args.service == "on":  # running and warm, as after a user's first session of the day
        _lorestack("serve", cwd=repo, env=with_env)
        for _ in range(2):
            subprocess.run(
                [sys.executable, "-m", "lorestack.cli", "hook", "prompt"],
                input=json.dumps({"session_id": "warm", "prompt": "invoice font"}),
                cwd=repo,
                env=with_env,
                capture_output=True,
                text=True,
                timeout=120,
            )
    log = repo / ".memory" / ".index" / "hooks.log"
    log_before = log.read_text() if log.exists() else ""
    times: dict[str, list[float]] = {"with": [], "without": []}
    with FakeModelServer(reply="Noted.", max_seconds=60 * args.runs + 120) as server:
        client_env = {
            **env,
            "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
            "ANTHROPIC_BASE_URL": server.url,
            "ANTHROPIC_API_KEY": "dummy",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }
        for i in range(args.runs):
            order = ("with", "without") if i % 2 == 0 else ("without", "with")
            for arm in order:
                home = with_home if arm == "with" else without_home
                started = time.perf_counter()
                subprocess.run(
                    ["claude", "-p", "Which font do invoice PDFs embed?"],
                    cwd=repo,
                    env={**client_env, "HOME": str(home)},
                    capture_output=True,
                    timeout=180,
                    stdin=subprocess.DEVNULL,
                    check=True,
                )
                times[arm].append(time.perf_counter() - started)
                print(f"run {i} {arm:<7} {times[arm][-1]:.2f} s", flush=True)
    result: dict = {
        arm: {"median_s": round(statistics.median(v), 2), "runs": [round(x, 2) for x in v]}
        for arm, v in times.items()
    }
    result["overhead_s"] = round(result["with"]["median_s"] - result["without"]["median_s"], 2)
    result["service"] = args.service
    new_log = (log.read_text() if log.exists() else "")[len(log_before) :]
    result["in_process_fallbacks"] = new_log.count("service did not answer")
    if args.service == "on":  # hook calls the service answered (warm-up included)
        status = subprocess.run(
            [sys.executable, "-m", "lorestack.cli", "serve", "--status", "--json"],
            env=with_env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        result["service_answered"] = json.loads(status.stdout or "{}").get("answered")
    result["load"] = os.getloadavg()[0]
    return result


if __name__ == "__main__":
    main()
