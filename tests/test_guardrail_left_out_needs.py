"""Issue 22, twenty-fourth session (the lead's read of draft24's requirements): a requirement
carried by a verb ("Every alerting rule carries a severity label", sentence_needs.py) is met by
its word in prose, so prose that names the thing only to put it off ("severity can come
later", "we will add severity in a follow-up", "leave severity off", "severity TBD") passed a
guessed rule in silence. left_out.py now knows what such a sentence wants, and "TBD" and
"leave X off/out" put a thing off. Our own sentences; real check path, the real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail.left_out import judge_left_out
from lorestack.guardrail.sentences import _read_cached
from tests import heldout_eval as E
from tests.conftest import answers_of

RULE = "Every alerting rule carries a severity label"


def test_a_thing_a_verb_carries_can_be_put_off():
    for text in ("Add the HighLatency alerting rule; severity can come later",
                 "Add the HighLatency alerting rule; we will add severity in a follow-up",
                 "Add the HighLatency alerting rule; leave severity off",
                 "Add the HighLatency alerting rule, severity TBD"):
        assert judge_left_out(RULE, text), text
    assert judge_left_out(RULE, "Add the HighLatency alerting rule with severity: page") is None
    # a cue far from the thing the rule wants is no putting off
    assert judge_left_out(RULE, "Add the severity label to HighLatency; the runbook link can "
                                "come later") is None


CASES = [  # (id, key, proposal, answer of the guessed rule)
    ("later", "sev", "Add the HighLatency alerting rule; severity can come later", "undecided"),
    ("tbd", "sev", "Add the HighLatency alerting rule, severity TBD", "undecided"),
    ("off", "sev", "Add the HighLatency alerting rule; leave severity off", "undecided"),
    # prose never meets a drafted requirement (needs_code.py, review of needs24): it asks
    ("shown", "sev", "Add the HighLatency alerting rule with severity: page", "undecided"),
    ("set", "sev", {"text": "  - alert: HighLatency\n    labels:\n      severity: page\n",
                    "paths": ["monitoring/alerts.yml"]}, "pass"),
]


def test_put_off_in_prose_is_asked_and_shown_is_kept(tmp_path):
    _read_cached.cache_clear()
    store = E.build(tmp_path / "guess", {"sev": (RULE, "block")}, confirmed=False)
    assert answers_of(store, CASES) == {c[0]: c[3] for c in CASES}
