"""Issue 22 (twenty-ninth session, fix29): a draft must not make a word of the rule's grammar
its term — what `remember` shows is what a confirmation accepts, and a confirmed draft that
requires 'secure', 'update' or 'deploy' blocked every complying proposal that did what the
sentence asks in other words. Our own sentences and proposals, written for these readings;
each test fails on the code before them (c041de1)."""

from __future__ import annotations

import re

import pytest

from lorestack.guardrail.drafting import draft_rules
from lorestack.memory_layers.models import CriterionSpec
from tests.conftest import answers_of, confirmed_git_store


def _draft(sentence: str):
    return draft_rules(sentence, CriterionSpec(verdict="block")).spec


def _words(terms: list[str]) -> set[str]:
    return {t.strip() for e in terms for t in e.split("|")}


def test_a_property_stated_with_a_copula_is_no_required_word():
    # "are always Secure": what the cookie is, not a word a change writes when it keeps it
    spec = _draft("Auth cookies are always Secure and HttpOnly")
    assert "secure" not in _words(spec.require)
    assert "auth cookies" in spec.applies_to.keywords
    # what "always" keeps on is forbidden switched off, a setting's last part too
    off = [t for t in spec.forbid if t.startswith("/")]
    hits = [s for s in ("AUTH_COOKIE_SECURE = False", "cookie: { httpOnly: false }",
                        "turn off HttpOnly for the admin cookie")
            if any(re.search(t[1:-1], s, re.I) for t in off)]
    assert len(hits) == 3
    kept = ("AUTH_COOKIE_SECURE = True", "insecure = false", "cookie: { httpOnly: true }")
    assert not [s for s in kept if any(re.search(t[1:-1], s, re.I) for t in off)]
    # "is only issued after …": a condition on the act, no term
    assert not _draft("Invoices are only issued after the order ships").require


def test_an_act_with_an_object_wants_the_object():
    assert _words(_draft("Schema changes must update the ERD diagram").require) == {"erd diagram"}
    assert _words(_draft("Every PR should reference a ticket").require) == {"ticket"}
    # the object is a clause of its own: nothing to look for, the rule stays a sentence
    spec = _draft("Payment handlers must verify the amount is positive")
    assert not spec.require and not spec.forbid
    # a passive act stays the requirement, as before
    assert _words(_draft("Releases must be signed").require) == {"signed"}


def test_the_act_an_only_after_condition_is_tied_to_is_where_it_applies():
    spec = _draft("Only deploy after sign-off")
    assert "deploy" not in _words(spec.require)
    assert "deploy" in spec.applies_to.keywords


def test_a_brand_name_is_not_spelled_as_code():
    spec = _draft("Never upload an iPhone build by hand")
    assert "iphone" not in _words(spec.forbid)
    assert "iphone build" in _words(spec.forbid)


def test_an_adverb_of_order_ends_no_term():
    assert _words(_draft("Data deletions need a backup first").require) == {"backup"}


CRITERIA = {
    "cookie": ("Auth cookies are always Secure and HttpOnly", "block"),
    "erd": ("Schema changes must update the ERD diagram", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("grammar29"), CRITERIA,
                             {"README.md": "x\n"}) as made:
        yield made


def test_confirmed_drafts_no_longer_block_what_complies(store):
    answers = answers_of(store, [
        ("ck-p1", "cookie", "Fetch the exchange rates with requests.get and a 5 second timeout"),
        ("erd-p1", "erd", "Add the refunds table and redraw the ERD diagram in docs/erd.svg"),
    ])
    # the HTTP call still reaches the cookie rule through 'HttpOnly' (concepts.py): it asks,
    # it no longer blocks for want of the word 'secure'
    assert answers == {"ck-p1": "undecided", "erd-p1": "pass"}


def test_confirmed_drafts_still_block_what_breaks_them(store):
    answers = answers_of(store, [
        ("ck-v1", "cookie", "Turn off HttpOnly on the auth cookie so the SPA can read it"),
        ("erd-v1", "erd", "Change the schema: add the refunds table without the ERD diagram"),
    ])
    assert answers == {"ck-v1": "block", "erd-v1": "block"}


SKIP_CRITERIA = {"smoke": ("Never skip the smoke tests", "block")}


@pytest.fixture(scope="module")
def skip_store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("without29"), SKIP_CRITERIA,
                             {"README.md": "x\n"}) as made:
        yield made


def test_a_going_without_rule_asks_where_the_thing_is_only_kept(skip_store):
    # going_without.py: the thing met kept, no act of going without it said
    assert answers_of(skip_store, [
        ("sm-p1", "smoke", "Make the smoke tests run in parallel to save ten minutes"),
        ("sm-p2", "smoke", "Add two smoke tests for the checkout page"),
    ]) == {"sm-p1": "undecided", "sm-p2": "undecided"}
    answers = answers_of(skip_store, [
        ("sm-v1", "smoke", "Skip the smoke tests for this deploy, the fix is tiny"),
        ("sm-v2", "smoke", "Deploy the hotfix without the smoke tests"),
    ])
    assert answers["sm-v1"] == "block" and answers["sm-v2"] != "pass"


def test_remember_shows_what_always_keeps_on_in_words():
    from lorestack.guardrail.understood import understand

    sentence = "Auth cookies are always Secure and HttpOnly"
    shown = understand(_draft(sentence), sentence).flags_when
    assert "secure (or a setting ending in it) set to false, off, 0 or none present" in shown
