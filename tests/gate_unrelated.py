"""How many "applies, undecided" answers the calibrated gate (lorestack/guardrail/gate.py)
adds per check on the latency bench's store (issue 22, twenty-sixth session): 100 criteria
typed as sentences (lorestack.bench.guardrail_latency.build), the bench's proposals and
its pre-tool `pip install` calls, each checked with the gate on and off.

    python -m tests.gate_unrelated [--criteria 100] [--runs 60] [-v]
"""

from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile
from pathlib import Path


def measure(n: int = 100, runs: int = 60, verbose: bool = False) -> dict:
    from lorestack.bench.guardrail_latency import _AREAS, _PROPOSALS, _TECH, build
    from lorestack.guardrail import gate
    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import from_hook_payload, from_text

    root = Path(tempfile.mkdtemp(prefix="gate-unrelated-"))
    os.environ["LORESTACK_HOME"] = str(root / "home")
    rng = random.Random(9)
    out = {"checks": 0, "asked": 0, "checks_with_ask": 0, "reader_undecided": 0, "max": 0}
    try:
        repo, mem = build(root, n)
        for i in range(runs):
            if i % 2 == 0:
                text = rng.choice(_PROPOSALS).format(t=rng.choice(_TECH), a=rng.choice(_AREAS))
                proposal = from_text(text)
            else:
                text = f"pip install {rng.choice(_TECH).lower()}"
                proposal = from_hook_payload({"tool_name": "Bash", "cwd": str(repo),
                                              "tool_input": {"command": text}})
            gate.ENABLED = True
            on = check(mem, proposal, retrieval=False, llm=False)
            asked = [f for f in on.undecided if "calibrated gate" in f.reason]
            out["checks"] += 1
            out["asked"] += len(asked)
            out["checks_with_ask"] += bool(asked)
            out["max"] = max(out["max"], len(asked))
            out["reader_undecided"] += len(on.undecided) - len(asked)
            if verbose and asked:
                print(f"  {text!r}: " + " | ".join(f.text[:60] for f in asked))
    finally:
        gate.ENABLED = True
        shutil.rmtree(root, ignore_errors=True)
    return out


def main(argv: list[str]) -> None:
    n = int(argv[argv.index("--criteria") + 1]) if "--criteria" in argv else 100
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 60
    r = measure(n, runs, "-v" in argv)
    print(f"{n} criteria, {r['checks']} checks: the gate asked {r['asked']} times "
          f"({r['asked'] / r['checks']:.2f} per check, {r['checks_with_ask']} checks with one or "
          f"more, at most {r['max']}); the reader's own undecided "
          f"{r['reader_undecided'] / r['checks']:.2f} per check")


if __name__ == "__main__":
    main(sys.argv[1:])
