"""Issue 22 (twenty-first session): under a confirmed freeze on new things in a folder ("Feature
freeze on billing/ …", "search/ is in maintenance mode"), prose that names the feature and
the folder by its name only, no path ("Add Adyen as a new payment provider for billing",
"Teach the payments module to accept Klarna"), passed in silence: the rule's term is a path
and prose names none. Such prose is "applies, undecided" now (the reader cannot tell a
feature from a fix by its words alone); a fix ("Fix the rounding error in billing's invoice
totals") and prose not naming the folder still pass. Real files and the real MiniLM model;
criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.test_guardrail_labelled import make_proposal

CRITERIA = {
    "billing": ("Feature freeze on billing/ until the SOC 2 audit closes; fixes only", "block"),
    "payments": ("Feature freeze on payments/ until the audit is done; bug fixes are fine",
                 "block"),
    "search": ("search/ is in maintenance mode until the rewrite", "warn"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("freeze_prose")
    with isolated_env(base):
        yield E.build(base, CRITERIA, confirmed=True)


@pytest.mark.parametrize(
    ("key", "text", "expected"),
    [
        ("billing", "Add Adyen as a new payment provider for billing", "undecided"),
        ("payments", "Add Klarna as a payment method to the payments gateway selection",
         "undecided"),
        ("payments", "Teach the payments module to accept Klarna", "undecided"),
        ("search", "Support fuzzy matching in the search module", "undecided"),
        ("billing", "Fix the rounding error in billing's invoice totals", "pass"),
        ("search", "Fix the crash in search when the query is empty", "pass"),
        ("billing", "Add a dark mode toggle to the settings page", "pass"),
    ],
)
def test_prose_naming_a_frozen_folder_and_adding_to_it_asks(store, key, text, expected):
    mem, ids = store
    result = check(mem, make_proposal(text, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected
