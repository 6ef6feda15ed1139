"""Issue 22 (sixteenth session): a proposal that names what a rule forbids only as what it
removes, replaces, ports or stops keeps a guessed rule (a pass, not "applies, undecided");
a rule that forbids the removal itself, or a proposal that also adds the forbidden thing,
stays flagged. Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.taken_away import forbidden_stems, only_taken_away
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.test_guardrail_labelled import make_proposal

LODASH = "Our frontend does not use Lodash; modern JavaScript covers what it did"
SNAPSHOTS = "Never delete database snapshots by hand; the retention job removes them"
AUDIT = "Never delete rows from the audit_log table; archive them to cold storage instead"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    criteria = {"lodash": (LODASH, "warn"), "snapshots": (SNAPSHOTS, "warn")}
    base = tmp_path_factory.mktemp("taken")
    with isolated_env(base):
        return E.build(base, criteria)


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # it only takes the forbidden thing away: kept
        ("lodash", "Remove the last Lodash import from the cart page", "pass"),
        # it takes one away and brings it in elsewhere, or brings it in: still flagged
        ("lodash", "Remove the lodash import from the cart and import lodash in the header", "undecided"),
        ("lodash", "Import lodash debounce into the cart page", "undecided"),
        # the rule forbids the removal itself
        ("snapshots", "Delete last month's database snapshots to free some space", "undecided"),
    ],
)
def test_taking_away_what_the_rule_forbids(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected


def test_what_counts_as_forbidden_and_taken_away():
    # the subject the rule's stated clause also names is no forbidden thing
    stems = forbidden_stems("Python tests are written for pytest; no new unittest-style test classes")
    assert "unittest" in stems and "test" not in stems
    assert forbidden_stems(AUDIT) == set()  # it forbids a removal
    assert forbidden_stems("Session cookies are always set with Secure and HttpOnly") == set()
    # "stop" takes the whole act; other verbs end their object at a preposition
    rule = "Auth tokens are never kept in localStorage; the server sets a cookie"
    assert only_taken_away(rule, "Stop writing the access token to localStorage") is not None
    assert only_taken_away(rule, "Remove the cookie and keep the token in localStorage") is None
    # a word that merely starts like a verb is no verb ("removeItem(", "dropdown")
    assert only_taken_away(LODASH, "removeItem(lodash)") is None
