"""Issue 22 (thirty-first session, la31): la30's "a name of the way, shown affirmed" is kept only
where the proposal shows no trace of what the rule forbids — by name or by a word of it that
nothing the rule states positively has — where no cue after the name takes it away, and where
the name is the way, not the rule's subject (the words before the verb of an "Every X …"
clause) or its place ("In the X app, …", "under …", "for …"). Our own criteria and proposals,
none taken from a case file."""

from __future__ import annotations

from lorestack.guardrail import shown_way
from lorestack.guardrail.rules import RuleOutcome
from lorestack.memory_layers.models import CriterionSpec


def _kept(sentence: str, text: str) -> bool:
    outcome = RuleOutcome(status="undecided", reason="applies, undecided")
    spec = CriterionSpec(drafted="rules")
    return shown_way.kept_by_name(outcome, sentence, spec, text).status == "satisfied"


QUEUE = "Background work is queued through RabbitMQ, never run as a thread or a cron loop."
SEARCH = "Every k8s Deployment sets a PodDisruptionBudget; never ship a release without one."
PLACE = "In the flutter_app package, HTTP calls go through DioClient, never through a bare http.get."


def test_a_word_of_what_the_rule_forbids_beside_the_way_is_a_trace(monkeypatch):
    assert _kept(QUEUE, "publish the resize job to RabbitMQ from the upload handler")
    # shows the way and also what the rule forbids (a word, not a name): no evidence
    assert not _kept(QUEUE, "Start a thread that polls RabbitMQ for the resize jobs")
    monkeypatch.setattr(shown_way, "TRACE_WORDS", False)
    assert _kept(QUEUE, "Start a thread that polls RabbitMQ for the resize jobs")


def test_a_cue_after_the_name_that_takes_it_away(monkeypatch):
    assert not _kept(QUEUE, "Ship the importer with RabbitMQ publishing switched off for now")
    monkeypatch.setattr(shown_way, "TAKEN_AWAY_AFTER", False)
    assert _kept(QUEUE, "Ship the importer with RabbitMQ publishing switched off for now")


def test_the_subject_of_an_every_clause_is_no_evidence(monkeypatch):
    # "k8s Deployment" is what the rule is about: one without the budget shows it too
    assert not _kept(SEARCH, "Scale the k8s Deployment of payments to 4 replicas")
    assert _kept(SEARCH, "kind: PodDisruptionBudget\nspec:\n  minAvailable: 1")
    monkeypatch.setattr(shown_way, "QUANTIFIED_SUBJECT", False)
    assert _kept(SEARCH, "Scale the k8s Deployment of payments to 4 replicas")


def test_a_name_of_place_is_no_evidence(monkeypatch):
    assert not _kept(PLACE, "Add the settings screen to the flutter_app package")
    assert _kept(PLACE, "Fetch the profile with DioClient in the settings screen")
    monkeypatch.setattr(shown_way, "PLACE_NAMES", False)
    assert _kept(PLACE, "Add the settings screen to the flutter_app package")


SIGN = "Sign Helm_charts releases with Cosign, never publish them unsigned."
REASON = "Cloud SQL instances run behind the db_proxy sidecar so credentials never reach the app."


def test_the_object_of_an_imperative_verb_is_what_the_rule_acts_on(monkeypatch):
    assert _kept(SIGN, "cosign sign --key kms://signer payments-chart-1.4.0.tgz")
    assert not _kept(SIGN, "Publish the Helm_charts index for payments 1.4.0")
    monkeypatch.setattr(shown_way, "IMPERATIVE_OBJECT", False)
    assert _kept(SIGN, "Publish the Helm_charts index for payments 1.4.0")


def test_a_never_in_the_reason_is_no_prohibition(monkeypatch):
    # the rule forbids nothing of its own ("Every X has Y"): only the reason says "never", so a
    # name it writes gives no evidence (RULES_THAT_FORBID_ONLY)
    from lorestack.guardrail.meaning import split_acts

    assert split_acts(shown_way._without_reasons(REASON))[0] == []
    monkeypatch.setattr(shown_way, "REASON_NOT_RULE", False)
    assert split_acts(shown_way._without_reasons(REASON))[0] != []
