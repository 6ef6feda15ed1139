"""Issue 22: the eighth to eighteenth tuning batches (tests/guardrail_tuning_batch8.py, …9.py,
…10.py, …11.py, …12.py, …13.py, …14.py, …15.py, …16.py, …17.py, …18.py, …19.py, …20.py, …21.py, …22.py, …23.py, …24.py, …25.py, …26.py, …27.py) are as their briefs asked, and their figures never
fall below what the kept readings reached (a batch with no kept figure yet, below its first run). Real files and the real
MiniLM model."""

from __future__ import annotations

import importlib

import pytest

from tests import heldout_eval as E

# (batch, fewest criteria, fewest cases, the batches before it)
BATCHES = [
    (8, 25, 80, "tuning-1-7"), (9, 30, 120, "tuning-1-8"), (10, 36, 144, "tuning-1-9"),
    (11, 40, 160, "tuning-1-10"), (12, 44, 176, "tuning-1-11"), (13, 40, 160, "tuning-1-12"),
    (14, 40, 160, "tuning-1-13"), (15, 40, 160, "tuning-1-14"),
    (16, 25, 100, "tuning-1-15"), (17, 25, 100, "tuning-1-16"),
    (18, 25, 100, "tuning-1-17"), (19, 25, 100, "tuning-1-18"),
    (20, 25, 110, "tuning-1-19"), (21, 30, 150, "tuning-1-20"),
    (22, 30, 150, "tuning-1-21"), (23, 30, 150, "tuning-1-22"),
    (24, 35, 165, "tuning-1-23"), (25, 35, 170, "tuning-1-24"),
    (26, 35, 170, "tuning-1-25"), (27, 20, 85, "tuning-1-26"),
]


@pytest.mark.parametrize(("n", "criteria", "cases", "older"), BATCHES)
def test_batch_is_as_its_brief_asks(n, criteria, cases, older):
    b = importlib.import_module(f"tests.guardrail_tuning_batch{n}")
    assert len(b.CRITERIA) >= criteria and len(b.CASES) >= cases
    for key in b.CRITERIA:
        mine = [c for c in b.CASES if c[1] == key]
        assert {c[3] for c in mine} == {"violation", "pass"}, key
        assert any(isinstance(c[2], dict) for c in mine), key  # a diff or a tool call
    assert len({c[0] for c in b.CASES}) == len(b.CASES)
    before, _ = E.tuning_set(older)  # no key shared with the batches before it
    assert not set(before) & set(b.CRITERIA)


@pytest.mark.parametrize("n", [8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27])
def test_batch_figures_do_not_regress(tmp_path, n):
    b = importlib.import_module(f"tests.guardrail_tuning_batch{n}")
    mem, ids = E.build(tmp_path / f"b{n}", b.CRITERIA)
    s = E.score(mem, ids, b.CRITERIA, b.CASES)
    assert s["refused"] == 0 and s["wrong_blocks"] == 0
    assert s["violation_answers"]["block"] == 0  # a guess never blocks
    # never below what the kept readings reached (b.KEPT, the ninth session's end), which
    # is itself above the first run (b.FIRST_RUN) on every figure but batch 8's look-alikes:
    # those gained (36 -> 41) only through undo.py, which paid nothing on any other batch and
    # was removed in the eighth session (docs/guardrail-log.md)
    # batch 10 has no kept figure yet: its first run (b.FIRST_RUN) is its floor
    if not hasattr(b, "KEPT"):
        # FLOOR: readings kept that gained exact verdicts and look-alikes, not silent passes
        first = getattr(b, "FLOOR", b.FIRST_RUN)
        assert s["silent_passes"] <= first["silent_passes"], E.summary(s)
        assert s["exact"] >= first["exact"], E.summary(s)
        assert s["lookalike_pass"] >= first["lookalike_pass"], E.summary(s)
        return
    kept, first = b.KEPT, b.FIRST_RUN
    # every kept reading passes fewer violations in silence than its batch's first run (batch
    # 14's since the seventeenth session; the sixteenth's gained look-alikes alone)
    assert s["silent_passes"] <= kept["silent_passes"], E.summary(s)
    assert kept["silent_passes"] < first["silent_passes"], E.summary(s)
    assert s["exact"] >= kept["exact"] > first["exact"], E.summary(s)
    # the kept readings of batches 11 and 13 each warn on 1 look-alike their first run passed
    # (KEPT_LOOKALIKE_COST, named in the file), for 14 and 4 violations no longer silent
    cost = getattr(b, "KEPT_LOOKALIKE_COST", 0)
    assert s["lookalike_pass"] >= kept["lookalike_pass"] >= first["lookalike_pass"] - cost, (
        E.summary(s)
    )
