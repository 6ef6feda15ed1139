"""How long a guardrail check takes with many criteria typed as sentences (issue 22's note:
≤ 100 ms p50 through the service at 100 criteria).

    python -m lorestack.bench.guardrail_latency [--criteria 100] [--runs 30] [--floor] [--json]

Builds a temporary project whose criteria are sentences stored the way `remember --type
criterion` stores them (drafted, not confirmed: every one of them may apply by meaning, so
the sentence model runs), then times
- `check` in-process (the library, warm: what the service does per request),
- `lorestack check --no-retrieval TEXT` and `lorestack check --hook pre-tool` as whole
  processes with the resident service on (the thin client forwards to it).
Nothing touches your memory; the service runs in a private runtime folder and is stopped.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from lorestack.bench.hooks import _AREAS, _TECH, _percentiles

_TEMPLATES = (
    "Do not add {t} to the {a} service without an ADR",
    "Never edit the generated files under {a}/gen/ by hand",
    "Every change to the {a} service needs a review note",
    "Use {t} instead of {u} in the {a} code",
    "Tests of the {a} service must never hit the real network",
    "No new storage component for {a} this quarter; {t} covers the load",
    "Don't call the {a} API from the frontend; go through the backend proxy",
    "Avoid global state in the {a} module",
    "Only the {a} team changes the {t} configuration",
    "Keep the {a} service on {t}; do not introduce another framework",
)
_PROPOSALS = (
    "add {t} to the {a} service",
    "rename the {a} handler and update its tests",
    "switch the {a} cache to {t}",
    "fix the typo in the {a} README",
    "call the {a} API from the checkout page",
)


def _criteria(n: int, rng: random.Random) -> list[str]:
    out: list[str] = []
    while len(out) < n:
        t, u = rng.sample(_TECH, 2)
        text = rng.choice(_TEMPLATES).format(t=t, u=u, a=rng.choice(_AREAS))
        if text not in out:
            out.append(text)
    return out


def build(root: Path, n: int, seed: int = 5):
    from lorestack.guardrail.drafting import draft_criterion
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import CriterionSpec
    from lorestack.memory_layers.operations import remember

    repo = root / "repo"
    repo.mkdir(parents=True)
    Memory.init(repo)
    mem = Memory.open(repo)
    for text in _criteria(n, random.Random(seed)):
        spec = draft_criterion(mem.settings, text, CriterionSpec(verdict="block"), llm=False).spec
        remember(mem, text, "criterion", criterion=spec, force=True)
    return repo, mem


def in_process(mem, runs: int, rng: random.Random) -> dict:
    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import from_text
    from lorestack.memory_layers import parse_cache

    parse_cache.enable(True)  # as in the resident service: unchanged files are not re-parsed

    def one() -> float:
        text = rng.choice(_PROPOSALS).format(t=rng.choice(_TECH), a=rng.choice(_AREAS))
        started = time.perf_counter()
        check(mem, from_text(text), retrieval=False, llm=False)
        return (time.perf_counter() - started) * 1000

    first = one()  # loads the model and embeds every criterion once
    return {"first_ms": round(first, 1), "warm_ms": _percentiles([one() for _ in range(runs)])}


def through_service(repo: Path, home: Path, runs: int, rng: random.Random) -> dict:
    from lorestack.bench.private_service import private_service
    from lorestack.bench.service import _timed

    with private_service(home, prefix="gl-bench-") as svc:
        env = svc.env
        _timed(["check", "--no-retrieval", "warm up"], env, repo)
        if not svc.wait_up():
            return {"error": "the service did not start"}
        for _ in range(3):  # model load, criteria vectors
            _timed(["check", "--no-retrieval", "add redis to the billing service"], env, repo)
        svc.wait_prepared()  # the project's warm-up (hit blocks) ends before the timings
        texts, hooks = [], []
        for _ in range(runs):
            text = rng.choice(_PROPOSALS).format(t=rng.choice(_TECH), a=rng.choice(_AREAS))
            texts.append(_timed(["check", "--no-retrieval", text], env, repo)[0])
            payload = {"tool_name": "Bash", "cwd": str(repo),
                       "tool_input": {"command": f"pip install {rng.choice(_TECH).lower()}"}}
            hooks.append(
                _timed(["check", "--hook", "pre-tool"], env, repo, json.dumps(payload))[0]
            )
        return {"check_ms": _percentiles(texts), "pre_tool_ms": _percentiles(hooks)}


def _measure(n: int, runs: int) -> dict:
    root = Path(tempfile.mkdtemp(prefix="gl-store-"))
    home = root / "home"
    os.environ["LORESTACK_HOME"] = str(home)
    try:
        repo, mem = build(root, n)
        rng = random.Random(9)
        return {"criteria": n, "runs": runs, "load_avg": round(os.getloadavg()[0], 2),
                "in_process": in_process(mem, runs, rng),
                "service": through_service(repo, home, runs, rng),
                "load_avg_after": round(os.getloadavg()[0], 2)}
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main(argv: list[str]) -> dict:
    """`--floor` also times the same with 1 criterion, right after: what the thin client's
    process start and the service round trip cost without the criteria."""
    n = int(argv[argv.index("--criteria") + 1]) if "--criteria" in argv else 100
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 30
    result = _measure(n, runs)
    if "--floor" in argv:
        result["floor_1_criterion"] = _measure(1, runs)
    print(json.dumps(result, indent=None if "--json" in argv else 2))
    return result


if __name__ == "__main__":
    main(sys.argv[1:])
