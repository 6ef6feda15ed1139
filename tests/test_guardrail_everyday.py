"""Issue 22: the reviewers' everyday cases of sessions 24-26 (tests/guardrail_everyday_cases.py)
are a well-formed labelled set, and the guardrail's figures on them never fall below the floors
below. A regression set beside the tuning batches, not part of `tuning-all`. Real files and the
real MiniLM model; one build per mode, every case checked in-process."""

from __future__ import annotations

from tests import guardrail_everyday_cases as every
from tests import heldout_eval as E

# floors (main at 3a5daf4; every.FIRST_RUN and every.FIRST_RUN_CONFIRMED hold the figures)
PLAIN_SILENT_PASSES_MAX = 27  # batch28's shortcut bar 31 -> 30; fix29 30 -> 28; sil29 -> 27 (merged)
PLAIN_LOOKALIKE_PASS_MIN = 333  # fix27 313 -> 325; fix27b: 23 review cases added (844 cases), 333
# rules accepted as drafted block 56 look-alikes on main (27 at 745a395): the ceiling is today's
# figure, to be lowered as the readings behind those blocks are fixed or reverted
CONFIRMED_WRONG_BLOCKS_MAX = 6  # fix26: a bound and a going-without cue ask (56 -> 17); fix27 17 -> 14; conf28 14 -> 11; fix29 11 -> 8; fix30 -> 6
# look-alikes of one criterion that ANOTHER confirmed criterion blocks (heldout_eval's
# other_criteria_blocked_lookalike; `python -m tests.cross_blocks everyday -v` lists them):
# each is a wrong block for a user holding these criteria. other29: 124 -> 62 (meaning_needs);
# 60 with fix29's drafts merged; fix30 (path_names, act_kept, thing_in_code …) 60 -> 37
CONFIRMED_OTHER_BLOCKS_MAX = 37


def test_everyday_set_is_well_formed():
    keys = {c[1] for c in every.CASES}
    assert keys == set(every.CRITERIA)  # every criterion has a case, every case a criterion
    assert len({c[0] for c in every.CASES}) == len(every.CASES)
    assert {c[3] for c in every.CASES} == {"violation", "pass"}
    assert len({(every.CRITERIA[c[1]][0], repr(c[2])) for c in every.CASES}) == len(every.CASES)
    assert {v for _, v in every.CRITERIA.values()} <= {"block", "warn"}
    assert not set(every.CRITERIA) & set(E.tuning_set("tuning-all")[0])


def test_everyday_plain_figures_do_not_regress(tmp_path):
    mem, ids = E.build(tmp_path / "plain", every.CRITERIA)
    s = E.score(mem, ids, every.CRITERIA, every.CASES)
    assert s["refused"] == 0, E.summary(s)
    assert s["wrong_blocks"] == 0, E.summary(s)
    assert s["violation_answers"]["block"] == 0, E.summary(s)  # a guess never blocks
    assert s["silent_passes"] <= PLAIN_SILENT_PASSES_MAX, E.summary(s)
    assert s["lookalike_pass"] >= PLAIN_LOOKALIKE_PASS_MIN, E.summary(s)


def test_everyday_confirmed_wrong_blocks_stay_under_the_ceiling(tmp_path):
    mem, ids = E.build(tmp_path / "confirmed", every.CRITERIA, confirmed=True)
    s = E.score(mem, ids, every.CRITERIA, every.CASES, confirmed=True)
    assert s["wrong_blocks"] <= CONFIRMED_WRONG_BLOCKS_MAX, E.summary(s)
    assert s["other_criteria_blocked_lookalike"] <= CONFIRMED_OTHER_BLOCKS_MAX, E.summary(s)


# ---- the twenty-eighth session's review (tests/guardrail_review28_cases.py) ---------------------
REVIEW28_PLAIN_SILENT_MAX = 32  # first run on 9625d4f: 58/164; fix28b 58 -> 52; fix29 -> 50; sil29 (in-sample) -> 32
REVIEW28_PLAIN_LOOKALIKE_PASS_MIN = 87  # first run: 87/179
REVIEW28_CONFIRMED_WRONG_BLOCKS_MAX = 19  # first run: 40; fix29 (draft_grammar.py) -> 25; other29 (meaning_needs) alone 40 -> 31; both 19
REVIEW28_CONFIRMED_OTHER_BLOCKS_MAX = 21  # other29: 33 -> 26 (see CONFIRMED_OTHER_BLOCKS_MAX); merged 21


def test_review28_set_is_well_formed():
    from tests import guardrail_review28_cases as r28

    assert {c[1] for c in r28.CASES} == set(r28.CRITERIA)
    assert len({c[0] for c in r28.CASES}) == len(r28.CASES) == 343
    assert len({(r28.CRITERIA[c[1]][0], repr(c[2])) for c in r28.CASES}) == len(r28.CASES)
    assert not set(r28.CRITERIA) & (set(every.CRITERIA) | set(E.tuning_set("tuning-all")[0]))


def _review_figures_hold(tmp_path, cases, plain_silent_max, lookalike_pass_min,
                         confirmed_wrong_max, confirmed_other_max) -> None:
    mem, ids = E.build(tmp_path / "plain", cases.CRITERIA)
    s = E.score(mem, ids, cases.CRITERIA, cases.CASES)
    assert s["refused"] == 0 and s["wrong_blocks"] == 0, E.summary(s)
    assert s["violation_answers"]["block"] == 0, E.summary(s)  # a guess never blocks
    assert s["silent_passes"] <= plain_silent_max, E.summary(s)
    assert s["lookalike_pass"] >= lookalike_pass_min, E.summary(s)
    mem, ids = E.build(tmp_path / "confirmed", cases.CRITERIA, confirmed=True)
    s = E.score(mem, ids, cases.CRITERIA, cases.CASES, confirmed=True)
    assert s["wrong_blocks"] <= confirmed_wrong_max, E.summary(s)
    assert s["other_criteria_blocked_lookalike"] <= confirmed_other_max, E.summary(s)


def test_review28_figures_do_not_regress(tmp_path):
    from tests import guardrail_review28_cases as r28

    _review_figures_hold(tmp_path, r28, REVIEW28_PLAIN_SILENT_MAX,
                         REVIEW28_PLAIN_LOOKALIKE_PASS_MIN, REVIEW28_CONFIRMED_WRONG_BLOCKS_MAX,
                         REVIEW28_CONFIRMED_OTHER_BLOCKS_MAX)


# ---- the twenty-ninth session's review (tests/guardrail_review29_cases.py) ----------------------
# first run on c041de1: 174/0/52/84, --confirmed 120/26/57/82 with 55 other criteria's blocks; the
# floors are the session's end (f2724ea: 176/0/50/84, --confirmed 113/18/55/82, 36), nobody having
# read its cases to change the reader: they guard against regressions, they were not tuned to.
# In-sample from session 30 on: fix30 (read its cases) took --confirmed to 114/15/55/83, 25;
# session 31 (sil31's every_has) plain silent 50 -> 49
REVIEW29_PLAIN_SILENT_MAX = 49
REVIEW29_PLAIN_LOOKALIKE_PASS_MIN = 84
REVIEW29_CONFIRMED_WRONG_BLOCKS_MAX = 15
REVIEW29_CONFIRMED_OTHER_BLOCKS_MAX = 25


def _review_set_is_well_formed(cases, n_cases: int, *earlier) -> None:
    """Every case names a criterion of its own set, ids and (sentence, proposal) pairs are
    unique, labels are the two kinds, and no criterion key is shared with an earlier set."""
    assert {c[1] for c in cases.CASES} == set(cases.CRITERIA)
    assert len({c[0] for c in cases.CASES}) == len(cases.CASES) == n_cases
    assert {c[3] for c in cases.CASES} == {"violation", "pass"}
    assert len({(cases.CRITERIA[c[1]][0], repr(c[2])) for c in cases.CASES}) == len(cases.CASES)
    others = set(every.CRITERIA) | set(E.tuning_set("tuning-all")[0])
    for module in earlier:
        others |= set(module.CRITERIA)
    assert not set(cases.CRITERIA) & others


def test_review29_set_is_well_formed():
    from tests import guardrail_review28_cases as r28
    from tests import guardrail_review29_cases as r29

    _review_set_is_well_formed(r29, 303, r28)


def test_review29_figures_do_not_regress(tmp_path):
    from tests import guardrail_review29_cases as r29

    _review_figures_hold(tmp_path, r29, REVIEW29_PLAIN_SILENT_MAX,
                         REVIEW29_PLAIN_LOOKALIKE_PASS_MIN, REVIEW29_CONFIRMED_WRONG_BLOCKS_MAX,
                         REVIEW29_CONFIRMED_OTHER_BLOCKS_MAX)


# ---- the thirtieth session's review (tests/guardrail_review30_cases.py) -------------------------
# first run on 0753feb: 195/0/33/86, --confirmed 129/18/37/86 with 31 other criteria's blocks; the
# floors are the session's end (2a85f4e, fix30 merged: 195/0/33/86, --confirmed 128/17/37/86, 29),
# nobody who changed the reader having read its cases: they guard against regressions, they were
# not tuned to. Session 31 read it (in-sample since): floors at that session's end (sil31's
# every_has, fix31's scoped drafts: 200/0/30/88, --confirmed 132/11/34/89, 10)
REVIEW30_PLAIN_SILENT_MAX = 30
REVIEW30_PLAIN_LOOKALIKE_PASS_MIN = 88
REVIEW30_CONFIRMED_WRONG_BLOCKS_MAX = 11
REVIEW30_CONFIRMED_OTHER_BLOCKS_MAX = 10


def test_review30_set_is_well_formed():
    from tests import guardrail_review28_cases as r28
    from tests import guardrail_review29_cases as r29
    from tests import guardrail_review30_cases as r30

    _review_set_is_well_formed(r30, 286, r28, r29)


def test_review30_figures_do_not_regress(tmp_path):
    from tests import guardrail_review30_cases as r30

    _review_figures_hold(tmp_path, r30, REVIEW30_PLAIN_SILENT_MAX,
                         REVIEW30_PLAIN_LOOKALIKE_PASS_MIN, REVIEW30_CONFIRMED_WRONG_BLOCKS_MAX,
                         REVIEW30_CONFIRMED_OTHER_BLOCKS_MAX)


# ---- the thirty-first session's review (tests/guardrail_review31_cases.py) ----------------------
# first run on 7d910f3: 204/0/42/86, --confirmed 131/12/44/89 with 27 other criteria's blocks; the
# floors are that first run, nobody who changed the reader having read its cases: they guard
# against regressions, they were not tuned to
REVIEW31_PLAIN_SILENT_MAX = 42
REVIEW31_PLAIN_LOOKALIKE_PASS_MIN = 86
REVIEW31_CONFIRMED_WRONG_BLOCKS_MAX = 12
REVIEW31_CONFIRMED_OTHER_BLOCKS_MAX = 27


def test_review31_set_is_well_formed():
    from tests import guardrail_review28_cases as r28
    from tests import guardrail_review29_cases as r29
    from tests import guardrail_review30_cases as r30
    from tests import guardrail_review31_cases as r31

    _review_set_is_well_formed(r31, 306, r28, r29, r30)


def test_review31_figures_do_not_regress(tmp_path):
    from tests import guardrail_review31_cases as r31

    _review_figures_hold(tmp_path, r31, REVIEW31_PLAIN_SILENT_MAX,
                         REVIEW31_PLAIN_LOOKALIKE_PASS_MIN, REVIEW31_CONFIRMED_WRONG_BLOCKS_MAX,
                         REVIEW31_CONFIRMED_OTHER_BLOCKS_MAX)
