"""Issue 22, twenty-fifth session: what a rule asks for, taken away by a change
(lorestack/guardrail/given_up.py), read in two more forms that recur across the tuning batches:

- the positive half of "X, never Y" / "X, not Y" / "X rather than Y" is what the rule states
  ("Newsletters … go out on the broadcast message stream, never on the transactional one",
  "Bulk traffic to S3 goes through the VPC gateway endpoint, not the NAT gateway");
- one word of it is enough when the change swaps it out of a line edited in place
  (`message_stream="broadcast"` -> `"outbound"`, `<script async src=…>` -> `<script src=…>`),
  the word written there as the rule writes it, and not a bound the rule sets ("info or
  above": `info` -> `warning` keeps it).

Our own sentences and diffs (none of a tuning batch); real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import given_up as given_up_module
from lorestack.guardrail.given_up import given_up, switched_off
from lorestack.memory_layers.models import CriterionSpec
from tests import heldout_eval as E
from tests.conftest import confirmed_answer
from tests.guardrail_tuning_batch20 import _gd, _hunk

SPEC = CriterionSpec()


def test_the_positive_half_of_x_never_y_is_what_the_rule_asks_for():
    rule = "Uploaded files are kept in the object store bucket, never on the container's disk"
    assert given_up(rule, SPEC, "    store = ObjectStoreBucket(name=UPLOADS)",
                    "    store = LocalDir('/var/uploads')") == "store = ObjectStoreBucket(name=UPLOADS)"
    rule = "Audit events use the signed envelope rather than plain JSON"
    assert given_up(rule, SPEC, "    body = signed_envelope(event)",
                    "    body = json.dumps(event)") == "body = signed_envelope(event)"


def test_one_word_swapped_out_of_a_line_edited_in_place():
    rule = "Payment events are published on the audit topic, not the default one"
    assert given_up(rule, SPEC, '    bus.publish(evt, topic="audit")',
                    '    bus.publish(evt, topic="default")') == 'bus.publish(evt, topic="audit")'
    rule = "Analytics scripts load with defer so they never hold up the page"
    assert given_up(rule, SPEC, '<script defer src="/js/stats.js"></script>',
                    '<script src="/js/stats.js"></script>') == '<script defer src="/js/stats.js"></script>'


def test_what_one_word_in_place_does_not_give_up():
    # a bound the rule sets: another value on its side keeps it
    assert given_up("Services log at info or above", SPEC, "  level: info", "  level: warning") == ""
    assert given_up("Clients speak TLS 1.2 or higher, never SSL", SPEC, "  min_version: TLSv1_2",
                    "  min_version: TLSv1_3") == ""
    # the rule's verb, not a thing it names ('runs' vs a status 'running')
    assert given_up("A backfill runs until its queue is empty, not on a timer", SPEC,
                    "status: running", "status: done") == ""
    # the word is still there
    rule = "Payment events are published on the audit topic, not the default one"
    assert given_up(rule, SPEC, '    bus.publish(evt, topic="audit")',
                    '    bus.publish(evt, topic="audit", key=evt.id)') == ""
    # a line that is not the same line edited: one word says too little
    assert given_up(rule, SPEC, '    # audit', '    retries = 3') == ""


def test_a_setting_switched_off_in_place():
    rule = "Request bodies are validated against the JSON schema before the handler runs"
    # the rule applies already and the key names what it asks for, set from true to false on
    # the same line
    assert switched_off(rule, "  validate_requests: true", "  validate_requests: false",
                        applied=True) == "validate_requests: true"
    assert switched_off(rule, 'VALIDATE_SCHEMA = "enabled"', 'VALIDATE_SCHEMA = "disabled"',
                        applied=True) == 'VALIDATE_SCHEMA = "enabled"'
    # where the rule does not apply, a key sharing a word says too little
    assert switched_off(rule, "  validate_requests: true", "  validate_requests: false",
                        applied=False) == ""
    # a rule that forbids disabling, already applying, and a setting turned off
    rule = "Keep the nightly cleanup schedule; don't disable it to keep old rows around"
    assert switched_off(rule, '  state = "ENABLED"', '  state = "DISABLED"', applied=True) == 'state = "ENABLED"'
    assert switched_off(rule, '  state = "ENABLED"', '  state = "DISABLED"', applied=False) == ""
    # kept: nothing ties the key to the rule; switched on, not off; another key
    rule = "Request bodies are validated against the JSON schema before the handler runs"
    assert switched_off(rule, "  debug: true", "  debug: false", applied=True) == ""
    assert switched_off(rule, "  validate_requests: false", "  validate_requests: true", applied=True) == ""
    assert switched_off(rule, "  validate_requests: true", "  validate_responses: false", applied=True) == ""


CRITERIA = {
    "audit_topic": ("Payment events are published on the audit topic, not the default one", "warn"),
    "defer_stats": ("Analytics scripts load with defer so they never hold up the page", "warn"),
}
# (case, criterion, proposal, a violation?)
CASES = [
    ("audit-v1", "audit_topic", _gd(_hunk("payments/events.py", '    bus.publish(evt, topic="default")', removed='    bus.publish(evt, topic="audit")', context="def emit(evt):")), True),
    ("audit-p1", "audit_topic", _gd(_hunk("payments/events.py", '    bus.publish(evt, topic="audit", key=evt.id)', removed='    bus.publish(evt, topic="audit")', context="def emit(evt):")), False),
    ("defer-v1", "defer_stats", _gd(_hunk("web/base.html", '  <script src="https://stats.example.net/s.js"></script>', removed='  <script defer src="https://stats.example.net/s.js"></script>', context="<head>", at=2)), True),
    ("defer-p1", "defer_stats", _gd(_hunk("web/base.html", '  <script defer src="https://stats.example.net/s2.js"></script>', removed='  <script defer src="https://stats.example.net/s.js"></script>', context="<head>", at=2)), False),
]


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "given_up_swap", CRITERIA)


def test_a_swap_is_not_passed_in_silence(store, monkeypatch):
    for case, key, raw, violation in CASES:
        monkeypatch.setattr(given_up_module, "ENABLED", False)
        without = confirmed_answer(store, key, raw)
        monkeypatch.setattr(given_up_module, "ENABLED", True)
        got = confirmed_answer(store, key, raw)
        if violation:  # "applies, undecided" with the reading, never a block
            assert got == "undecided", (case, without, got)
        else:
            assert got == without, case
