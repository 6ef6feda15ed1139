"""A proposal's act is read apart from its purpose (thirty-eighth session): "Run an UPDATE
against the production database to fix the stuck orders" was compared with "Never directly
modify the production database" only as a whole line and in its comma/and clauses, where the
purpose ("to fix the stuck orders") pulled the line away from the act, and the violation
passed in silence. The act alone ("Run an UPDATE against the production database") is a unit
of its own now. Real files, the real sentence model, `check` without retrieval or an LLM."""

from __future__ import annotations

import pytest

from lorestack.guardrail import meaning as units
from lorestack.guardrail.check import check
from lorestack.guardrail.meaning import proposal_units
from lorestack.guardrail.proposals import Proposal
from tests import heldout_eval as E
from tests.conftest import isolated_env

CRITERIA = {
    "prod": ("Never directly modify the production database", "block"),
    "parser": ("Keep the parser module free of third-party dependencies; it uses the standard "
               "library only", "warn"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("purpose")
    with isolated_env(base):
        yield E.build(base, CRITERIA)


def _answer(mem, ids, key, text, *, purpose=True):
    was, units.PURPOSE = units.PURPOSE, purpose
    try:
        return E.answer(check(mem, Proposal(text=text), retrieval=False, llm=False), ids[key])
    finally:
        units.PURPOSE = was


@pytest.mark.parametrize("key,text", [
    ("prod", "Run an UPDATE against the production database to fix the stuck orders"),
    ("parser", "Use python-dateutil in the parser module to read the dates; writing our own is slow"),
])
def test_the_act_apart_from_its_purpose_is_asked_about(store, key, text):
    mem, ids = store
    assert _answer(mem, ids, key, text) == "undecided"
    assert _answer(mem, ids, key, text, purpose=False) == "pass"  # before: in silence


def test_a_purpose_is_cut_only_before_a_verb_and_its_object():
    said = proposal_units(Proposal(text="Run an UPDATE against the production database to fix the rows"))
    assert "Run an UPDATE against the production database" in said
    for text in ("git push --force to main", "Migrate the jobs to the new cluster"):
        was, units.PURPOSE = units.PURPOSE, False
        try:
            before = proposal_units(Proposal(text=text))
        finally:
            units.PURPOSE = was
        assert proposal_units(Proposal(text=text)) == before


def test_a_look_alike_with_a_purpose_still_passes(store):
    mem, ids = store
    assert _answer(mem, ids, "prod", "Use the admin API to cancel the stuck orders") == "pass"


def test_an_act_with_a_purpose_is_answered_as_the_act_alone(store):
    """The reading's cost (a review of the thirty-eighth session): an act that only reads is
    asked about once its purpose is cut off, as the act alone already was; it passed before
    only because the purpose pulled the line below the threshold."""
    mem, ids = store
    alone = _answer(mem, ids, "prod", "Query the production database")
    assert alone == "undecided"
    text = "Query the production database to count the stuck orders"
    assert _answer(mem, ids, "prod", text) == alone
    assert _answer(mem, ids, "prod", text, purpose=False) == "pass"
