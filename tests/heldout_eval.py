"""Score a labelled set of plain-sentence criteria (tests/guardrail_heldout_cases.py, or the
tuning set) the way a person would meet it: each criterion typed as a sentence with a
verdict and nothing else, stored through the same path as `remember --type criterion`
(drafted when `[guardrail] draft` is on), then every case run through `check` without
retrieval and without an LLM. Used by tests/test_guardrail_heldout.py and for the report:

    python -m tests.heldout_eval [heldout|everyday|review28|review29|review30|review31|tuning|batch4|...|batch27|tuning-1-4|...|tuning-1-26|tuning-all] [--confirmed]

`tuning` is the first three tuning batches (tests/guardrail_tuning_cases.py), `batch4` the
fourth (tests/guardrail_tuning_batch4.py), `batch5` the fifth
(tests/guardrail_tuning_batch5.py), `batch6` the sixth (tests/guardrail_tuning_batch6.py),
`batch7` the seventh (tests/guardrail_tuning_batch7.py), `batch8` the eighth
(tests/guardrail_tuning_batch8.py), `batch9` the ninth (tests/guardrail_tuning_batch9.py),
`batch10` the tenth (tests/guardrail_tuning_batch10.py), `batch11` the eleventh
(tests/guardrail_tuning_batch11.py), `batch12` the twelfth
(tests/guardrail_tuning_batch12.py), `batch13` the thirteenth
(tests/guardrail_tuning_batch13.py), `batch14` the fourteenth
(tests/guardrail_tuning_batch14.py), `batch15` the fifteenth
(tests/guardrail_tuning_batch15.py), `batch16` the sixteenth
(tests/guardrail_tuning_batch16.py), `batch17` the seventeenth
(tests/guardrail_tuning_batch17.py), `batch18` the eighteenth
(tests/guardrail_tuning_batch18.py), `batch19` the nineteenth
(tests/guardrail_tuning_batch19.py), `batch20` the twentieth
(tests/guardrail_tuning_batch20.py), `tuning-1-4` the first four, `tuning-1-5` the first
five, `tuning-1-6` the first six, `tuning-1-7` the first seven, `tuning-1-8` the first
eight, `tuning-1-9` the first nine, `tuning-1-10` the first ten, `tuning-1-11` the first
eleven, `tuning-1-12` the first twelve, `tuning-1-13` the first thirteen, `tuning-1-14` the first
fourteen, `tuning-1-15` the first fifteen, `tuning-1-16` the first sixteen, `tuning-1-17` the first
seventeen, `tuning-1-18` the first eighteen, `tuning-1-19` the first nineteen, `tuning-1-20` the first twenty,
`batch21` the twenty-first (tests/guardrail_tuning_batch21.py), `tuning-1-21` the first twenty-one,
`batch22` the twenty-second (tests/guardrail_tuning_batch22.py), `tuning-1-22` the first twenty-two,
`batch23` the twenty-third (tests/guardrail_tuning_batch23.py), `tuning-1-23` the first twenty-three,
`batch24` the twenty-fourth (tests/guardrail_tuning_batch24.py), `tuning-1-24` the first twenty-four,
`batch25` the twenty-fifth (tests/guardrail_tuning_batch25.py), `tuning-1-25` the first twenty-five,
`batch26` the twenty-sixth (tests/guardrail_tuning_batch26.py), `tuning-1-26` the first twenty-six,
`batch27` the twenty-seventh (tests/guardrail_tuning_batch27.py), `tuning-all` all twenty-seven.
`everyday` is the reviewers' everyday cases of sessions 24-26 (tests/guardrail_everyday_cases.py),
a regression set kept apart from `tuning-all`; `review28` the twenty-eighth session's review
(tests/guardrail_review28_cases.py), scored first on that session's start; `review29` the
twenty-ninth's (tests/guardrail_review29_cases.py), the same way; `review30` the thirtieth's
(tests/guardrail_review30_cases.py); `review31` the thirty-first's (tests/guardrail_review31_cases.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def build(base: Path, criteria: dict[str, tuple[str, str]], *, confirmed: bool = False):
    """A memory holding `criteria` as typed; returns (mem, key -> id or None if refused).
    `confirmed`: the person accepted the draft as shown (`criteria confirm`)."""
    from lorestack.guardrail.drafting import draft_criterion
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import CriterionSpec
    from lorestack.memory_layers.operations import CriterionNotDecidable, remember

    repo = base / "repo"
    repo.mkdir(parents=True)
    home = base / "home"
    Memory.init(repo)
    Memory.init(repo, global_=True, home=home)
    mem = Memory.open(repo, home=home)
    ids: dict[str, str | None] = {}
    for key, (text, verdict) in criteria.items():
        spec = CriterionSpec(verdict=verdict)  # type: ignore[arg-type]
        if mem.settings.guardrail.draft:
            spec = draft_criterion(mem.settings, text, spec, llm=False).spec
        try:
            ids[key] = remember(mem, text, "criterion", criterion=spec, force=True).item.id
        except CriterionNotDecidable:
            ids[key] = None
    if confirmed:
        _confirm_all(mem, [i for i in ids.values() if i])
    return mem, ids


def _confirm_all(mem, ids: list[str]) -> None:
    from lorestack.core.errors import LorestackError
    from lorestack.guardrail.authoring import confirm_criterion

    for item_id in ids:
        try:
            confirm_criterion(mem, item_id)
        except LorestackError:  # nothing the rules read: it stays a sentence (undecided)
            continue


def answer(result, target: str | None) -> str:
    """What `check` answered for one criterion: block / warn / undecided / pass."""
    if target is None:
        return "pass"
    for f in result.violations:
        if f.id == target:
            return f.verdict
    for f in result.undecided:
        if f.id == target:
            return "undecided"
    return "pass"


def answers_through_check(mem, ids, cases, *, expect: bool) -> dict[str, str]:
    """Each case through `check` as the CLI runs it (no retrieval, no LLM): its answer for
    the case's criterion, which a guessed reading never makes a block; with `expect`, each
    answer must be the case's label."""
    from lorestack.guardrail.check import check
    from tests.test_guardrail_labelled import make_proposal

    answers = {}
    for case_id, key, raw, expected in cases:
        result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
        answers[case_id] = answer(result, ids[key])
        assert answers[case_id] != "block", (case_id, answers[case_id])
        if expect:
            assert answers[case_id] == expected, (case_id, answers[case_id])
    return answers


def exact(expected: str, got: str, verdict: str, confirmed: bool) -> bool:
    if expected == "pass":
        return got == "pass"
    if confirmed:  # an accepted rule answers with the criterion's own verdict
        return got == verdict
    # a violation of a rule typed as a sentence: flagged, never harsher than asked
    return got != "pass" and not (got == "block" and verdict == "warn")


def score(mem, ids, criteria, cases, *, confirmed: bool = False) -> dict:
    """Every case through `check` as the resident service runs it: criteria parsed once while
    their files are unchanged (the parse cache), so only the proposal is new per case."""
    from lorestack.memory_layers import parse_cache

    was = parse_cache.enabled()
    parse_cache.enable(True)
    try:
        return _score(mem, ids, criteria, cases, confirmed=confirmed)
    finally:
        parse_cache.enable(was)


def _score(mem, ids, criteria, cases, *, confirmed: bool) -> dict:
    from lorestack.guardrail.check import check
    from tests.test_guardrail_labelled import make_proposal

    rows = []
    other_blocks = others_flagged = 0
    for case_id, key, raw, expected in cases:
        result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
        got = answer(result, ids[key])
        verdict = criteria[key][1]
        other_blocks += any(
            f.verdict == "block" and f.id != ids[key] for f in result.violations
        ) and expected == "pass"
        others_flagged += sum(f.id != ids[key] for f in result.violations + result.undecided)
        rows.append((case_id, expected, verdict, got, exact(expected, got, verdict, confirmed)))
    violations = [r for r in rows if r[1] == "violation"]
    lookalikes = [r for r in rows if r[1] == "pass"]
    return {
        "criteria": len(criteria),
        "refused": sum(v is None for v in ids.values()),
        "cases": len(rows),
        "violations": len(violations),
        "lookalikes": len(lookalikes),
        "exact": sum(r[4] for r in rows),
        "wrong_blocks": sum(r[3] == "block" for r in lookalikes),
        "silent_passes": sum(r[3] == "pass" for r in violations),
        "lookalike_pass": sum(r[3] == "pass" for r in lookalikes),
        "violation_answers": {
            a: sum(r[3] == a for r in violations) for a in ("block", "warn", "undecided", "pass")
        },
        "lookalike_answers": {
            a: sum(r[3] == a for r in lookalikes) for a in ("block", "warn", "undecided", "pass")
        },
        "other_criteria_blocked_lookalike": other_blocks,
        "other_criteria_flagged": others_flagged,
        "wrong": [r[:4] for r in rows if not r[4]],
    }


def summary(s: dict) -> str:
    return (
        f"{s['criteria']} criteria ({s['refused']} refused), {s['cases']} cases: "
        f"exact {s['exact']}/{s['cases']}, wrong blocks {s['wrong_blocks']}, "
        f"silent passes {s['silent_passes']}/{s['violations']}, "
        f"look-alikes pass {s['lookalike_pass']}/{s['lookalikes']}"
    )


# the tuning batches in the order they were written: `tuning` is the first three
BATCH_MODULES = ("guardrail_tuning_cases", *(f"guardrail_tuning_batch{n}" for n in range(4, 28)))
TUNING_NAMES = ("tuning", *(f"batch{n}" for n in range(4, 28)),
                *(f"tuning-1-{n}" for n in range(4, 27)), "tuning-all")


def tuning_set(which: str = "tuning-all"):
    """(criteria, cases) of the tuning batches: `tuning` (1-3), `batch4` ... `batch27`,
    `tuning-1-4` (the first four) ... `tuning-1-26` (the first twenty-six), `tuning-all` (all
    twenty-seven)."""
    import importlib

    if which not in TUNING_NAMES:
        raise ValueError(f"not a tuning set: {which}")
    if which == "tuning" or which.startswith("batch"):
        n = 3 if which == "tuning" else int(which.removeprefix("batch"))
        chosen = [BATCH_MODULES[n - 3]]
    elif which == "tuning-all":
        chosen = list(BATCH_MODULES)
    else:
        chosen = list(BATCH_MODULES[: int(which.removeprefix("tuning-1-")) - 2])
    criteria: dict[str, tuple[str, str]] = {}
    cases: list = []
    for name in chosen:
        batch = importlib.import_module(f"tests.{name}")
        assert not set(criteria) & set(batch.CRITERIA)
        criteria.update(batch.CRITERIA)
        cases += batch.CASES
    return criteria, cases


def scratch_home(tmp: Path) -> None:
    """HOME and LORESTACK_HOME inside `tmp`; the test model (if set) as the embedding model.
    Every evaluation script runs its store there."""
    import os

    os.environ["HOME"] = os.environ["LORESTACK_HOME"] = str(Path(tmp) / "home")
    model = os.environ.get("LORESTACK_TEST_MODEL_DIR")
    if model:
        os.environ.setdefault("LORESTACK_EMBEDDING__MODEL_DIR", model)


def main(argv: list[str]) -> None:
    import tempfile

    which = argv[0] if argv else "heldout"
    confirmed = "--confirmed" in argv
    if which in TUNING_NAMES:
        CRITERIA, CASES = tuning_set(which)
    elif which == "everyday":
        from tests.guardrail_everyday_cases import CASES, CRITERIA
    elif which == "review28":
        from tests.guardrail_review28_cases import CASES, CRITERIA
    elif which == "review29":
        from tests.guardrail_review29_cases import CASES, CRITERIA
    elif which == "review30":
        from tests.guardrail_review30_cases import CASES, CRITERIA
    elif which == "review31":
        from tests.guardrail_review31_cases import CASES, CRITERIA
    else:
        from tests.guardrail_heldout_cases import CASES, CRITERIA
    with tempfile.TemporaryDirectory() as tmp:
        scratch_home(Path(tmp))
        mem, ids = build(Path(tmp), CRITERIA, confirmed=confirmed)
        s = score(mem, ids, CRITERIA, CASES, confirmed=confirmed)
    print(summary(s))
    print(json.dumps({k: v for k, v in s.items() if k != "wrong"}))
    if "-v" in argv:
        for row in s["wrong"]:
            print("  wrong:", row)


if __name__ == "__main__":
    main(sys.argv[1:])
