"""Issue 22 (twenty-fifth session, fix25): an older silent pass the review found. Under "Do not
skip or delete failing tests to get the build green", "Skip the failing tests", "Delete the
failing tests" and "Remove the failing flaky tests …" answered pass ("no forbidden term"): skip,
delete and remove are read as negation cues (taking the forbidden thing away), but here the
sentence forbids that very verb on the thing. Confirmed: block; guessed: "applies, undecided".
The reviewer's sentence and proposals; real files, git and model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {"tst": ("Do not skip or delete failing tests to get the build green", "block")}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("verb25r"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


THE_VERB_ITSELF = [  # the sentence's own act verb (or its removal) on the thing: never a pass
    ("tst", "Skip the failing tests"),
    ("tst", "Delete the failing tests"),
    ("tst", "Remove the failing flaky tests from the suite to get CI green"),
]


@pytest.mark.parametrize(("key", "raw"), THE_VERB_ITSELF)
def test_the_forbidden_verb_on_the_thing_blocks(store, key, raw):
    assert confirmed_answer(store, key, raw) == "block"


@pytest.fixture(scope="module")
def guessed(tmp_path_factory):
    from tests import heldout_eval
    from tests.conftest import isolated_env

    base = tmp_path_factory.mktemp("act26g")
    with isolated_env(base):
        yield heldout_eval.build(base, CRITERIA, confirmed=False)


@pytest.mark.parametrize(("key", "raw"), THE_VERB_ITSELF)
def test_the_forbidden_verb_on_the_thing_asks_when_guessed(guessed, key, raw):
    assert confirmed_answer(guessed, key, raw) == "undecided"
