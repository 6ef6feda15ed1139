"""Print the by-meaning similarities on the TUNING data only (issue 22): for each case, the
best (criterion clause, proposal line) cosine with its own criterion, and with every other
criterion of its set (pairs that should not apply). `python -m tests.calibrate_meaning`.

`--sweep`: the labelled curve on the tuning set (tests/guardrail_tuning_cases.py, through
the whole check) over the by-meaning threshold and the forbidden-act similarity under which
a guess that applied by meaning only passes (judging.FORBIDDEN_SIMILARITY; 0 = off)."""

from __future__ import annotations

import os


def pairs():
    from tests import guardrail_sentence_cases as S
    from tests import guardrail_tuning_cases as T
    from tests.test_guardrail_labelled import make_proposal

    sets = [
        ({k: (v[0], v[1]) for k, v in T.CRITERIA.items()}, T.CASES),
        ({k: (v["text"], v["verdict"]) for k, v in S.CRITERIA.items()}, S.CASES),
        ({k: (v["text"], v["verdict"]) for k, v in S.FRESH_CRITERIA.items()}, S.FRESH_CASES),
    ]
    from pathlib import Path

    repo = Path("/tmp/calib-repo")
    repo.mkdir(exist_ok=True)
    for criteria, cases in sets:
        for case_id, key, raw, expected in cases:
            yield criteria, case_id, key, make_proposal(raw, repo), expected


def main() -> None:
    import numpy as np

    from lorestack.core.settings import Settings
    from lorestack.guardrail.meaning import MeaningJudge

    os.environ.setdefault("LORESTACK_EMBEDDING__MODEL_DIR", os.environ.get("LORESTACK_TEST_MODEL_DIR", ""))
    settings = Settings()
    own_v, own_p, cross = [], [], []
    for criteria, case_id, key, proposal, expected in pairs():
        judge = MeaningJudge(settings, proposal)
        for other, (text, _) in criteria.items():
            hit = judge.best(text)
            sim = hit.similarity if hit else 0.0
            if other == key:
                (own_v if expected == "violation" else own_p).append((sim, case_id))
            else:
                cross.append(sim)
    cross_a = np.array(cross)
    print("own violations, lowest:", sorted(own_v)[:12])
    print("own look-alikes, lowest:", sorted(own_p)[:6])
    for t in (0.30, 0.33, 0.35, 0.38, 0.40, 0.42, 0.45, 0.50):
        print(
            f"threshold {t:.2f}: violations below {sum(s < t for s, _ in own_v)}/{len(own_v)}, "
            f"unrelated pairs at/above {(cross_a >= t).mean():.3f} of {len(cross_a)}"
        )


CLAUSE_SETTINGS = ((False, False), (True, True))
THRESHOLDS = (0.30, 0.35, 0.40)
FORBIDDEN = (0.35, 0.40, 0.45, 0.50)


def sweep(which: str = "tuning-1-9") -> None:
    """The first nine tuning batches by default (the tenth was held out from the tenth
    session's reader changes) (`--set tuning` for the first three only); also over
    the proposal's clause units (meaning.CLAUSES) and recommended clauses as alternatives
    (judging.RECOMMENDED_CLAUSES)."""
    import tempfile
    from pathlib import Path

    from lorestack.guardrail import judging, meaning
    from tests.heldout_eval import build, score, tuning_set

    criteria, cases = tuning_set(which)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["HOME"] = os.environ["LORESTACK_HOME"] = str(Path(tmp) / "home")
        mem, ids = build(Path(tmp), criteria)
        print(
            "clauses recommended threshold forbidden | exact wrong-blocks silent-passes "
            "look-alikes-pass other-criteria-flagged"
        )
        for clauses, recommended in CLAUSE_SETTINGS:
            meaning.CLAUSES, judging.RECOMMENDED_CLAUSES = clauses, recommended
            meaning._CACHE.clear()
            meaning._STACKS.clear()
            for t in THRESHOLDS:
                mem.settings.guardrail.meaning_threshold = t
                for fs in FORBIDDEN:
                    judging.FORBIDDEN_SIMILARITY = fs
                    s = score(mem, ids, criteria, cases)
                    print(
                        f"{clauses!s:5} {recommended!s:5} {t:.2f} {fs:.2f} | "
                        f"{s['exact']}/{s['cases']} {s['wrong_blocks']} "
                        f"{s['silent_passes']}/{s['violations']} "
                        f"{s['lookalike_pass']}/{s['lookalikes']} {s['other_criteria_flagged']}",
                        flush=True,
                    )


if __name__ == "__main__":
    import sys

    os.environ.setdefault(
        "LORESTACK_EMBEDDING__MODEL_DIR", os.environ.get("LORESTACK_TEST_MODEL_DIR", "")
    )
    which = sys.argv[sys.argv.index("--set") + 1] if "--set" in sys.argv else "tuning-1-9"
    sweep(which) if "--sweep" in sys.argv else main()
