"""How long the pre-tool hook takes to hand a file's anchored memory (issue 25's note: ≤ 60 ms
p50 through the resident service at 10k items).

    python -m lorestack.bench.anchors_latency [--items 10000] [--anchored 50] [--runs 30] [--json]

Builds a temporary git repository with `--items` memory items (the hooks bench's store) and
`--anchored` caveats anchored to its source files, starts the resident service in a private
runtime folder, and times `lorestack hook pre-tool --client claude-code` as a whole process,
the way Claude Code runs it before a Read or an Edit, after one session start (which builds
the loader's cache the look-up reads): each run is a new session, so the memory is handed out
every time (half the runs name a file with anchored memory, half one without).
Also reports the service's resident memory. Nothing touches your memory; the service stops.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from lorestack.bench.hooks import _percentiles, build_store
from lorestack.bench.service import _timed


def build(root: Path, items: int, anchored: int) -> Path:
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember

    repo = build_store(root, items)
    src = repo / "src"
    src.mkdir()
    for n in range(anchored * 2):
        (src / f"mod{n:03d}.py").write_text(f"def handler_{n}(event):\n    return {n}\n")
    git = ["git", "-C", str(repo), "-c", "user.email=b@e", "-c", "user.name=bench"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "src"], check=True)
    subprocess.run([*git, "commit", "-qm", "src"], check=True)
    mem = Memory.open(repo)
    for n in range(anchored):
        remember(mem, f"handler_{n} must stay idempotent: the queue redelivers", "caveat",
                 about=[f"src/mod{n:03d}.py:handler_{n}"], force=True)
    # a user's store is indexed: timing while the service builds a cold index measures that
    from lorestack.retrieval.index import MemoryIndex

    index = MemoryIndex(mem)
    try:
        index.sync()
    finally:
        index.close()
    return repo


def run(items: int, anchored: int, runs: int, seed: int = 3) -> dict:
    from lorestack.bench.private_service import private_service, proc_mb

    rng = random.Random(seed)
    root = Path(tempfile.mkdtemp(prefix="anchors-bench-"))
    home = root / "home"
    home.mkdir()
    # the index is built as the service sees it: this process uses the same home meanwhile
    with private_service(home / ".lorestack", prefix="ab-", set_home=True) as svc:
        env = svc.env
        try:
            repo = build(root, items, anchored)

            def hook(n: int, session: str) -> tuple[float, str]:
                path = repo / "src" / f"mod{n:03d}.py"
                payload = {"session_id": session, "cwd": str(repo), "tool_name": "Read",
                           "hook_event_name": "PreToolUse",
                           "tool_input": {"file_path": str(path)}}
                return _timed(["hook", "pre-tool", "--client", "claude-code"], env, repo,
                              json.dumps(payload))

            hook(0, "warm-0")
            if not svc.wait_up():
                return {"error": "the service did not start"}
            # a session starts before its first Read: the session-start hook builds the
            # loader's cache (one parse of every item file, ~6 s at 10k) that the file
            # look-up then reads
            payload = {"session_id": "start", "cwd": str(repo), "source": "startup"}
            for _ in range(3):
                _timed(["hook", "session-start", "--client", "claude-code"], env, repo,
                       json.dumps(payload))
                if "hookSpecificOutput" in _timed(["hook", "session-start", "--client",
                                                   "claude-code"], env, repo,
                                                  json.dumps(payload))[1]:
                    break
            for n in range(3):
                hook(n, f"warm-{n + 1}")
            svc.wait_prepared()  # the service's warm-up renders every item's hit block once
            with_memory, without, answered = [], [], 0
            for r in range(runs):
                n = rng.randrange(anchored)
                ms, out = hook(n, f"s{r}")
                with_memory.append(ms)
                answered += f"handler_{n} must stay idempotent" in out
                ms, out = hook(anchored + rng.randrange(anchored), f"t{r}")
                without.append(ms)
            return {"items": items, "anchored": anchored, "runs": runs,
                    "anchored_file_ms": _percentiles(with_memory),
                    "other_file_ms": _percentiles(without),
                    "answered_with_the_caveat": f"{answered}/{runs}",
                    "service_rss_mb": proc_mb(svc.pid()),
                    "load_average": os.getloadavg()}
        finally:
            shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=10000)
    parser.add_argument("--anchored", type=int, default=50)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.items, args.anchored, args.runs)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0 if "error" not in result else 1


if __name__ == "__main__":
    sys.exit(main())
