"""Issue 22 (thirty-first session, la31): a guessed rule that writes a literal with its value
(`"X-Request-Source: internal"`, `(autoplay=false)`, `no strict=off`) is kept where the proposal
writes that literal, or sets the forbidden key to its opposite value, and writes the key nowhere
with another value and nothing the rule forbids (shown_literal.py). Our own criteria and
proposals, none taken from a case file."""

from __future__ import annotations

from lorestack.guardrail import shown_literal
from lorestack.guardrail.rules import RuleOutcome
from lorestack.memory_layers.models import CriterionSpec


def _kept(sentence: str, text: str, paths: tuple[str, ...] = ("a.py",)) -> bool:
    outcome = RuleOutcome(status="undecided", reason="applies, undecided")
    spec = CriterionSpec(drafted="rules")
    return shown_literal.kept_by_literal(outcome, sentence, spec, text, paths).status == "satisfied"


HEADER = ('Every outgoing webhook carries the header "X-Request-Source: internal" so the '
          "gateway can route it.")
VIDEO = "Videos never start on their own (autoplay=true); muted previews with autoplay=false are fine."
STRICT = "The TypeScript compiler runs in strict mode; never turn it off (strict: false) in a tsconfig."


def test_the_literal_with_its_value_is_evidence():
    assert _kept(HEADER, "headers['X-Request-Source: internal'] = True\nsend(hook)")
    assert _kept(HEADER, "X-Request-Source: internal")
    assert _kept(VIDEO, '<video src="teaser.mp4" autoplay=false muted></video>')
    # the forbidden key set to its opposite value shows the rule kept
    assert _kept(STRICT, '"compilerOptions": { "strict": true }')


def test_the_key_with_another_value_or_a_trace_of_the_forbidden_value_still_asks():
    assert not _kept(HEADER, "X-Request-Source: external")
    assert not _kept(VIDEO, '<video src="a.mp4" autoplay=true></video>')
    # one element keeps it, another breaks it: a trace of the forbidden value
    assert not _kept(VIDEO, "<video autoplay=false></video>\n<video autoplay=true></video>")
    assert not _kept(STRICT, '"compilerOptions": { "strict": false }')
    # the key alone, no value: no evidence
    assert not _kept(HEADER, "Add an X-Request-Source header to the hooks")


def test_a_rule_that_forbids_nothing_needs_one_file():
    # "Every X has Y": the literal in one of two new files says nothing of the other
    assert not _kept(HEADER, "X-Request-Source: internal\nsend(other)", ("a.py", "b.py"))


def test_only_a_guess_and_only_with_the_switch_on(monkeypatch):
    outcome = RuleOutcome(status="undecided", reason="applies, undecided")
    confirmed = CriterionSpec(drafted="confirmed", forbid=["autoplay=true"])
    kept = shown_literal.kept_by_literal(outcome, VIDEO, confirmed, "autoplay=false", ("a",))
    assert kept.status == "undecided"
    monkeypatch.setattr(shown_literal, "ON", False)
    assert not _kept(VIDEO, '<video src="teaser.mp4" autoplay=false muted></video>')


def test_every_literal_the_rule_asks_for_is_shown():
    rule = 'Iframes with sandbox="allow-scripts" also carry referrerpolicy="same-origin".'
    assert _kept(rule, '<iframe sandbox="allow-scripts" referrerpolicy="same-origin" src=x>')
    # the first literal is the case the rule is about: alone it is no evidence
    assert not _kept(rule, '<iframe sandbox="allow-scripts" src=x>')
