"""Issue 22, ninth session: the ninth tuning batch (tests/guardrail_tuning_batch9.py) is as the
brief asks, and its figures never fall below the first run. Real files and the real MiniLM
model."""

from __future__ import annotations

from tests import guardrail_tuning_batch9 as B9
from tests import heldout_eval as E


def test_batch9_is_as_the_brief_asks():
    assert len(B9.CRITERIA) >= 30 and len(B9.CASES) >= 120
    for key in B9.CRITERIA:
        cases = [c for c in B9.CASES if c[1] == key]
        assert {c[3] for c in cases} == {"violation", "pass"}, key
        assert any(isinstance(c[2], dict) for c in cases), key  # a diff or a tool call
    assert len({c[0] for c in B9.CASES}) == len(B9.CASES)
    older, _ = E.tuning_set("tuning-1-8")  # no key shared with the eight batches before it
    assert not set(older) & set(B9.CRITERIA)


def test_batch9_figures_do_not_regress(tmp_path):
    mem, ids = E.build(tmp_path / "b9", B9.CRITERIA)
    s = E.score(mem, ids, B9.CRITERIA, B9.CASES)
    assert s["refused"] == 0 and s["wrong_blocks"] == 0
    assert s["violation_answers"]["block"] == 0  # a guess never blocks
    first = B9.FIRST_RUN
    assert s["silent_passes"] <= first["silent_passes"], E.summary(s)
    assert s["exact"] >= first["exact"], E.summary(s)
    assert s["lookalike_pass"] >= first["lookalike_pass"], E.summary(s)
