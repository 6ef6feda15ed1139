"""Issue 22, seventh session: the eighth tuning batch (tests/guardrail_tuning_batch8.py) is as the
brief asks, and its figures stay above the first run. Real files and the real MiniLM
model."""

from __future__ import annotations

from tests import guardrail_tuning_batch8 as B8
from tests import heldout_eval as E


def test_batch8_is_as_the_brief_asks():
    assert len(B8.CRITERIA) >= 25 and len(B8.CASES) >= 80
    for key in B8.CRITERIA:
        cases = [c for c in B8.CASES if c[1] == key]
        assert {c[3] for c in cases} == {"violation", "pass"}, key
        assert any(isinstance(c[2], dict) for c in cases), key  # a diff or a tool call
    assert len({c[0] for c in B8.CASES}) == len(B8.CASES)
    # no key shared with the seven batches before it
    older, _ = E.tuning_set("tuning-1-7")
    assert not set(older) & set(B8.CRITERIA)


def test_batch8_figures_do_not_regress(tmp_path):
    mem, ids = E.build(tmp_path / "b8", B8.CRITERIA)
    s = E.score(mem, ids, B8.CRITERIA, B8.CASES)
    assert s["refused"] == 0 and s["wrong_blocks"] == 0
    assert s["violation_answers"]["block"] == 0  # a guess never blocks
    first = B8.FIRST_RUN  # better than before the seventh session's changes
    assert s["silent_passes"] < first["silent_passes"] and s["exact"] > first["exact"], E.summary(s)
    # its look-alikes gained (36 -> 41) only through undo.py, which paid nothing on any
    # other batch and was removed in the eighth session (docs/guardrail.md): back to the
    # first run's 36, and never fewer
    assert s["lookalike_pass"] >= first["lookalike_pass"], E.summary(s)
