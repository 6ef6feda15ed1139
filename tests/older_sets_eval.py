"""The older guardrail sets for the report (issue 22): the labelled set with terms
(tests/guardrail_cases.py), the sentence set in both modes (sentence as typed with its one
keyword or path; the drafted form accepted as is), and the 18 former "fresh" cases (tuning
cases now). `python -m tests.older_sets_eval [-v]`."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path


def _short(s: dict) -> dict:
    return {
        k: round(v, 3) if isinstance(v, float) else len(v) if isinstance(v, list) else v
        for k, v in s.items()
    }


def main(argv: list[str]) -> None:
    tmp = Path(tempfile.mkdtemp())
    os.environ["HOME"] = os.environ["LORESTACK_HOME"] = str(tmp / "home")
    model = os.environ.get("LORESTACK_TEST_MODEL_DIR")
    if model:
        os.environ.setdefault("LORESTACK_EMBEDDING__MODEL_DIR", model)
    from tests import guardrail_sentence_cases as C
    from tests import sentence_eval as E
    from tests.guardrail_cases import CASES
    from tests.test_guardrail_labelled import build_memory, run_case

    mem, _ = build_memory(tmp / "lab")
    wrong = [(c[0], c[2], run_case(mem, c[1]).verdict) for c in CASES]
    wrong = [w for w in wrong if w[1] != w[2]]
    print(f"labelled set (terms given): {len(CASES) - len(wrong)} / {len(CASES)}", wrong)
    for drafted in (False, True):
        mem, ids = E.build(tmp / f"s{drafted}", drafted=drafted)
        for part in ("tune", "held"):
            s = E.score(mem, ids, C.split(part), guessed=not drafted)
            mode = "drafted+accepted" if drafted else "sentence"
            print(f"sentence set {mode} {part}", _short(s))
            if "-v" in argv and part == "tune":
                for row in s["wrong"]:
                    print("   wrong", row)
    E.CRITERIA = C.FRESH_CRITERIA
    mem, ids = E.build(tmp / "fresh", drafted=False)
    s = E.score(mem, ids, C.FRESH_CASES, guessed=True)
    print("former fresh (tuning)", _short(s))
    if "-v" in argv:
        for row in s["wrong"]:
            print("   wrong", row)


if __name__ == "__main__":
    main(sys.argv[1:])
