"""Issue 22: the eighth and ninth tuning batches (tests/guardrail_tuning_batch8.py, …9.py) are
as their briefs asked, and their figures never fall below each one's first run. Real files
and the real MiniLM model."""

from __future__ import annotations

import importlib

import pytest

from tests import heldout_eval as E

# (batch, fewest criteria, fewest cases, the batches before it)
BATCHES = [(8, 25, 80, "tuning-1-7"), (9, 30, 120, "tuning-1-8")]


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


@pytest.mark.parametrize("n", [8, 9])
def test_batch_figures_do_not_regress(tmp_path, n):
    b = importlib.import_module(f"tests.guardrail_tuning_batch{n}")
    mem, ids = E.build(tmp_path / f"b{n}", b.CRITERIA)
    s = E.score(mem, ids, b.CRITERIA, b.CASES)
    assert s["refused"] == 0 and s["wrong_blocks"] == 0
    assert s["violation_answers"]["block"] == 0  # a guess never blocks
    first = b.FIRST_RUN
    assert s["silent_passes"] <= first["silent_passes"], E.summary(s)
    assert s["exact"] >= first["exact"], E.summary(s)
    # batch 8's look-alikes gained (36 -> 41) only through undo.py, which paid nothing on
    # any other batch and was removed in the eighth session (docs/guardrail.md): back to its
    # first run's 36, and never fewer
    assert s["lookalike_pass"] >= first["lookalike_pass"], E.summary(s)
    if n == 8:  # better than before the seventh session's changes
        assert s["silent_passes"] < first["silent_passes"] and s["exact"] > first["exact"]
