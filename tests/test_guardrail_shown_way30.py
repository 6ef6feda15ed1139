"""Issue 22 (thirtieth session, la30): a guessed rule that names the way it is kept by a name
(`heartbeat_url`, OpenTelemetry) is kept where the proposal shows that name, affirmed, and nothing
the rule forbids (shown_way.py); a proposal that names it only to take it away, or that also
names what the rule forbids, still asks. Our own criteria and proposals; the real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import shown_way
from lorestack.guardrail.rules import RuleOutcome
from lorestack.memory_layers.models import CriterionSpec
from tests import heldout_eval as E
from tests.conftest import answers_of, new_file_diff

CRITERIA = {
    "pay": ("Payment calls go through the internal proxy (pay-proxy.internal) so they are "
            "audited; never call api.stripe.com directly.", "block"),
    "mail": ("Transactional mail leaves through Postmark, never through our own SMTP relay.",
             "block"),
}
CASES = [
    ("pay-v", "pay", new_file_diff("app/billing/client.py", [
        "stripe.api_base = 'https://api.stripe.com'"])),
    ("mail-v", "mail", "Send the receipts through our own SMTP relay on mail01"),
    ("mail-away", "mail", "Move receipts off Postmark onto the SMTP relay"),
]


def test_a_proposal_that_names_the_way_only_to_leave_it_still_asks(tmp_path):
    # end to end with the reading on: none of these shows the way affirmed, none passes
    store = E.build(tmp_path / "shown30", CRITERIA)
    assert answers_of(store, CASES) == {"pay-v": "undecided", "mail-v": "undecided",
                                        "mail-away": "undecided"}


def _kept(sentence: str, text: str) -> bool:
    outcome = RuleOutcome(status="undecided", reason="applies, undecided")
    spec = CriterionSpec(drafted="rules")
    return shown_way.kept_by_name(outcome, sentence, spec, text).status == "satisfied"


def test_only_a_name_of_the_way_affirmed_and_nothing_forbidden_counts(monkeypatch):
    rule = "Metrics are exported through the OpenTelemetry collector, never straight to Graphite."
    assert _kept(rule, "Add a span processor to the OpenTelemetry collector config")
    assert not _kept(rule, "Send the counters straight to Graphite next to OpenTelemetry")
    assert not _kept(rule, "Drop the OpenTelemetry collector and push the counters ourselves")
    # a common noun of the way is no evidence, and neither is the rule's subject
    assert not _kept("Every service defines a liveness probe.", "Add a liveness probe to the api")
    assert not _kept("Every Helm chart pins its image by digest.", "Bump the Helm chart version")
    # a name the rule writes twice is what it is about ("… CLUSTER …; a plain CLUSTER …")
    assert not _kept("Rebuild tables with VACUUM FULL ONLINE; a plain VACUUM FULL locks them.",
                     "Run VACUUM FULL on the events table tonight")
    # a rule that forbids nothing ("Every X sets key: value") gives no evidence: the key shown
    # says nothing of its value
    assert not _kept("Every scheduled job reports through a heartbeat_url setting.",
                     "heartbeat_url: https://hc.example.net/ping/9f1c")
    assert _kept("Scheduled jobs report through a heartbeat_url setting, never by email.",
                 "heartbeat_url: https://hc.example.net/ping/9f1c")
    monkeypatch.setattr(shown_way, "ON", False)
    assert not _kept(rule, "Add a span processor to the OpenTelemetry collector config")
