"""Issue 22, seventh session: a proposal that names what a rule forbids only to take it away
or as a state that is over keeps the rule (guardrail/undo.py), and the forbidden-act gate no
longer lets pass what reads clearly nearer the forbidden act than what the rule states
(judging.POSITIVE_MARGIN). Real files and the real MiniLM model for the check-level test."""

from __future__ import annotations

import pytest

from lorestack.guardrail import undo
from lorestack.guardrail.undo import eligible, undoes
from lorestack.guardrail.words import stem
from tests import heldout_eval as E


def test_which_rules_a_removal_can_keep():
    assert eligible("Never use floats for money; amounts are integer cents or Decimal")
    assert eligible("We will not use moment.js in the web app; date-fns covers what we need")
    # removing is what the rule is about, or the rule wants something a change must keep
    assert not eligible("Do not skip or delete failing tests to get the build green")
    assert not eligible("Every form field needs a visible label; placeholder text is not a label")
    # a rule that forbids nothing
    assert not eligible("Every new source file under src/ is TypeScript")


def test_a_clause_that_takes_the_forbidden_thing_away_or_is_over():
    floats = frozenset({stem("float")})
    assert undoes("Replace the float price field with integer cents", floats)
    assert undoes("Get rid of the float totals", floats)
    # "remove X from Y" takes X away and edits Y: Y is no object of the removal
    assert not undoes("Remove the legacy fields from the float report", floats)
    assert undoes("Remove the legacy fields from the /v1/orders response", frozenset({"field"}))
    # over as a whole, whatever the rule forbids
    assert undoes("The staging cluster used to run all weekend")
    assert undoes("Nobody has deployed from a laptop since March")
    assert undoes("We moved the thumbnails off Azure in 2023")
    assert undoes("The old endpoint answered 200 with an error body")
    assert undoes("Stop writing the access token to localStorage")
    assert not undoes("Keep the staging cluster up all weekend")
    # something else stops: no word about the forbidden thing
    assert not undoes("so the linter stops failing")
    # a negation of the present is no past state ("nobody is around to review it")
    assert not undoes("nobody is around to review it")
    assert not undoes("Add a float price field to LineItem", floats)


CRITERIA = {
    "moment": ("We will not use moment.js in the web app; date-fns covers what we need", "warn"),
    "api": ("Breaking changes to the REST API go into a new /v2 route, never into /v1", "block"),
    "tests": ("Do not skip or delete failing tests to get the build green", "block"),
}
CASES = [
    ("replace", "moment", "Replace moment.js with date-fns in the checkout widget", "pass"),
    ("past", "moment", "The web app used moment.js until March; date-fns formats the dates now", "pass"),
    ("uses", "moment", "Use moment.js to format the dates in the checkout widget", "undecided"),
    ("edits-v1", "api", "Remove the legacy fields from the /v1/orders response", "undecided"),
    ("deletes", "tests", "Delete the failing login test so the build goes green", "undecided"),
]  # fmt: skip


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return E.build(tmp_path_factory.mktemp("undo"), CRITERIA)


@pytest.mark.parametrize("on", [True, False])
def test_through_check_a_removal_keeps_only_a_rule_it_is_not_about(store, monkeypatch, on):
    mem, ids = store
    monkeypatch.setattr(undo, "ENABLED", on)
    answers = E.answers_through_check(mem, ids, CASES, expect=on)  # a guess never blocks
    if not on:  # switched off, the two that take moment.js away are flagged
        assert answers["replace"] != "pass" or answers["past"] != "pass", answers
