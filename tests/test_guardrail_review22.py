"""Review of the twenty-second session: everyday proposals under confirmed rules that the
session's readings answered wrongly. Real files, real git, the real MiniLM model; criteria
confirmed as a person would (`criteria confirm`)."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from tests import heldout_eval as E
from tests.conftest import confirmed_git_store
from tests.test_guardrail_labelled import make_proposal

CRITERIA = {
    "eval": ("Do not use eval.", "block"),
    "strcpy": ("C code must not call strcpy.", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("review22"), CRITERIA, {}) as made:
        yield made


def _answer(store, key, raw):
    mem, ids = store
    proposal = make_proposal(raw, mem.project.repo_dir)
    return E.answer(check(mem, proposal, retrieval=False, llm=False), ids[key])


# prose that names the forbidden thing only as what it replaces, with a thing the rule does not
# name: the forbidden word is what goes away, so it is asked about, never blocked
@pytest.mark.parametrize("key,raw", [
    ("eval", "Replace eval(user_input) with ast.literal_eval(user_input) in the calculator"),
    ("strcpy", "Replace strcpy with memcpy and an explicit length check in url.c"),
])
def test_replacing_the_forbidden_thing_is_not_blocked(store, key, raw):
    assert _answer(store, key, raw) != "block"


@pytest.mark.parametrize("key,raw", [
    ("eval", "Replace ast.literal_eval with eval in the config loader"),
    ("eval", "Use eval to read the config expressions"),
    ("strcpy", "Replace memcpy with strcpy in url.c"),
])
def test_bringing_the_forbidden_thing_in_still_blocks(store, key, raw):
    assert _answer(store, key, raw) == "block"

