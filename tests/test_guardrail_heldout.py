"""The held-out set of issue 22 (tests/guardrail_heldout_cases.py), criteria typed as
sentences: never tuned on; its final figures are floors here, so a change that makes the
guardrail block a look-alike, refuse a sentence or let more violations pass fails."""

from __future__ import annotations

from tests import guardrail_heldout_cases as H
from tests import heldout_eval as E


def test_the_set_is_as_the_issue_asks():
    assert len(H.CRITERIA) >= 60
    for key in H.CRITERIA:  # a violation, a look-alike, and a diff or a tool call each
        cases = [c for c in H.CASES if c[1] == key]
        assert {c[3] for c in cases[:2]} == {"violation", "pass"}
        assert any(isinstance(c[2], dict) for c in cases), key


def test_held_out_figures_do_not_regress(tmp_path):
    mem, ids = E.build(tmp_path / "heldout", H.CRITERIA)
    s = E.score(mem, ids, H.CRITERIA, H.CASES)
    final = H.FINAL_RUN
    assert s["refused"] == 0  # every sentence stored as typed
    assert s["wrong_blocks"] == 0  # a guess never blocks
    assert s["violation_answers"]["block"] == 0
    assert s["silent_passes"] <= final["silent_passes"], E.summary(s)
    assert s["lookalike_pass"] >= final["lookalike_pass"], E.summary(s)
    assert s["exact"] >= final["exact"], E.summary(s)
    first = H.FIRST_RUN  # and it is better than before issue 22 where it was meant to be
    assert s["silent_passes"] < first["silent_passes"] and s["exact"] > first["exact"]
