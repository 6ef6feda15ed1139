"""Issue 22 (twenty-seventh session, fix27): under "Never disable X" skipping or bypassing X
is switching it off in words (switch_off.py), and a confirmed rule blocked proposals that
remove or guard against that act: "Remove the option that lets users skip …", "Log a warning
when someone tries to bypass …". The act said only as what something lets, allows or tries,
under a proposal that removes, rejects, reports or fails on it, is no act done: once confirmed
it asks ("applies, undecided"), never blocks, never passes. Our own sentences and proposals;
real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {"hk": ("Never disable host key checking", "block")}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("guarded27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize("raw", [
    "Delete the flag that lets operators skip host key checking",
    "Print an error whenever a script tries to bypass host key checking",
    "Add a CI check that fails if any job can disable host key checking",
])
def test_guarding_against_the_act_does_not_block(store, raw):
    assert confirmed_answer(store, "hk", raw) == "undecided"


@pytest.mark.parametrize("raw", [
    "Skip host key checking for the build agents",
    "Add an option that lets operators skip host key checking",  # adds the way to do it
    "Disable host key checking so the deploy stops failing",
])
def test_the_act_itself_still_blocks(store, raw):
    assert confirmed_answer(store, "hk", raw) == "block"
