"""Issue 22 (twenty-seventh session, fix27b): "'without X' under an act that enforces X asks
nothing" also read an enforcing act that the proposal itself removes or turns off — "Have the
deploy job stop refusing to start without the dependency audit", "Delete the hook that blocks
commits without the dependency audit" — as the rule kept, and the violation passed. An
enforcing act that is itself undone keeps nothing: the question stays. Our own sentence and
proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {"aud": ("Never skip the dependency audit", "block")}
UNDONE = [
    "Have the deploy job stop refusing to start without the dependency audit",
    "Delete the hook that blocks commits without the dependency audit",
    "Switch off the check that rejects merges without the dependency audit",
]
KEPT = [
    "Make the deploy job refuse to start without the dependency audit",
    "Add a hook that blocks commits without the dependency audit",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("undone27b"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize("raw", UNDONE)
def test_an_enforcing_act_undone_still_asks(store, raw):
    assert confirmed_answer(store, "aud", raw) == "undecided"


@pytest.mark.parametrize("raw", KEPT)
def test_an_enforcing_act_kept_passes(store, raw):
    assert confirmed_answer(store, "aud", raw) == "pass"
