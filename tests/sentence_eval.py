"""Run the sentence-criteria labelled set (tests/guardrail_sentence_cases.py) through
`check`, either as the user wrote the criteria (sentence only) or with the form `remember`
drafts stored as is. Used by tests/test_guardrail_sentences.py and for the report."""

from __future__ import annotations

from tests.guardrail_sentence_cases import CASES, CRITERIA
from tests.test_guardrail_labelled import make_proposal


def build(base, *, drafted: bool):
    from lorestack.guardrail.drafting import draft_rules
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec
    from lorestack.memory_layers.operations import CriterionNotDecidable, remember

    repo = base / "repo"
    repo.mkdir(parents=True)
    home = base / "home"
    Memory.init(repo)
    Memory.init(repo, global_=True, home=home)
    mem = Memory.open(repo, home=home)
    ids = {}
    for key, raw in CRITERIA.items():
        spec = CriterionSpec(
            applies_to=AppliesTo(
                keywords=[raw["keyword"]] if raw.get("keyword") else [],
                paths=[raw["path"]] if raw.get("path") else [],
            ),
            verdict=raw["verdict"],
            rationale=raw.get("rationale", ""),
        )
        drafted_spec = draft_rules(raw["text"], spec).spec
        if drafted:  # the person accepted the draft as `remember` showed it
            spec = drafted_spec.model_copy(update={"drafted": ""})
        elif spec.applies_to.is_empty():  # a bare sentence can only be stored with scope
            spec.applies_to = drafted_spec.applies_to
        try:
            ids[key] = remember(mem, raw["text"], "criterion", criterion=spec).item.id
        except CriterionNotDecidable:  # stored by nobody: every case of it answers pass
            ids[key] = None
    return mem, ids


def verdict_for(mem, ids, key, raw) -> str:
    from lorestack.guardrail.check import check

    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    target = ids[key]
    for f in result.violations + result.undecided:
        if f.id == target:
            return f.verdict
    return "pass"


def score(mem, ids, cases=CASES, *, guessed: bool = False) -> dict:
    """`guessed`: the criteria are stored as sentences nobody confirmed, so the exact answer
    to a violation is "applies, undecided" (a warn) — a guessed rule never blocks."""
    rows = []
    for case_id, key, raw, expected in cases:
        got = verdict_for(mem, ids, key, raw)
        want = CRITERIA[key]["verdict"] if expected == "violation" else "pass"
        if guessed and want == "block":
            want = "warn"
        rows.append((case_id, expected, want, got))
    violations = [r for r in rows if r[1] == "violation"]
    lookalikes = [r for r in rows if r[1] == "pass"]
    return {
        "cases": len(rows),
        "violations_flagged": sum(r[3] != "pass" for r in violations) / max(1, len(violations)),
        "lookalikes_flagged": sum(r[3] != "pass" for r in lookalikes) / max(1, len(lookalikes)),
        "exact": sum(r[2] == r[3] for r in rows) / max(1, len(rows)),
        "wrong": [r for r in rows if r[2] != r[3]],
    }
