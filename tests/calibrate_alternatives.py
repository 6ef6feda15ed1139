"""Similarity of each TUNING case to its criterion's recommended alternative vs to what it
forbids (the calibration of ALTERNATIVE_SIMILARITY / ALTERNATIVE_MARGIN in
lorestack/guardrail/check.py). `python -m tests.calibrate_alternatives`."""

from __future__ import annotations

import os


def main() -> None:
    os.environ.setdefault(
        "LORESTACK_EMBEDDING__MODEL_DIR", os.environ.get("LORESTACK_TEST_MODEL_DIR", "")
    )
    from lorestack.core.settings import Settings
    from lorestack.guardrail.meaning import MeaningJudge
    from lorestack.guardrail.rules import sentence_spec
    from lorestack.guardrail.terms import gate_of
    from lorestack.memory_layers.models import CriterionSpec
    from tests.calibrate_meaning import pairs

    settings = Settings()
    for criteria, case_id, key, proposal, expected in pairs():
        spec = sentence_spec(CriterionSpec(), criteria[key][0])[0]
        alts = [gate_of(a)[1] for a in spec.alternatives]
        forbidden = [gate_of(f)[1] for e in spec.forbid for f in e.split("|")]
        if not alts or not forbidden:
            continue
        judge = MeaningJudge(settings, proposal)
        a, b = judge.closest(alts), judge.closest(forbidden)
        if a is None or b is None:
            continue
        print(f"{case_id:22s} {expected:9s} alternative {a.similarity:.2f} "
              f"forbidden {b.similarity:.2f} {a.part!r}")


if __name__ == "__main__":
    main()
