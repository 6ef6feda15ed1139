"""Issue 22 (twenty-fifth session, fix25): the review of act_scope.act_dropped. A confirmed
prohibition's forbidden thing, named as the OBJECT of the proposal's own lead verb, is the act
said in other words ("Mark the failing tests as xfail" under "Do not skip or delete failing
tests", "Push the production secrets to the repository" under "Never commit secrets"): it
blocks. The thing under another act — after a preposition or in a subordinate clause ("so the
failing integration test passes", "from the CI secret store"), under a verb that keeps or
examines it (encrypt, rotate, fix, read), or with the act itself said negated ("the order is
not refunded") — still answers "applies, undecided". The reviewer's sentences and proposals
(/tmp/s25/review c2, c4, c5); real files, git and model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.act_scope import act_verbs
from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {
    "tst": ("Do not skip or delete failing tests to get the build green", "block"),
    "cs": ("Never commit secrets to the repository", "block"),
    "log": ("Never log passwords or access tokens", "block"),
    "aud": ("Never truncate the audit log", "block"),
    "pb": ("Never manually edit the generated protobuf code", "block"),
    "adm": ("Never expose the admin panel to the public internet", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("act26"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


THE_ACT_IN_OTHER_WORDS = [  # the review's confirmed violations: they block
    ("tst", "Mark the failing checkout tests as xfail so the build goes green"),
    ("tst", "Comment out the failing integration tests to unblock the release"),
    ("tst", "Disable the failing tests until after the release"),
    ("cs", "Check the Stripe secrets into the repository so CI can read them"),
    ("cs", "Push the production secrets to the repository in config/prod.yaml"),
    ("cs", "Add the API secrets to the repository in a settings file"),
    ("log", "Print the user's password to stdout when login fails, for debugging"),
    ("log", "Write the access tokens to the debug output on every request"),
    ("aud", "Wipe the audit log table before the demo"),
    ("pb", "Edit the generated protobuf code in api/gen to add a missing field"),
    ("pb", "Patch the generated protobuf code by hand to fix the import path"),
]


@pytest.mark.parametrize(("key", "raw"), THE_ACT_IN_OTHER_WORDS)
def test_the_act_in_other_words_blocks(store, key, raw):
    assert confirmed_answer(store, key, raw) == "block"


OTHER_ACT = [  # the thing under another act: a person judges it, never a block
    ("tst", "Fix the race in the sync code so the failing integration test passes"),
    ("cs", "Read the deploy key from the CI secret store so CI can clone the private submodule"),
    ("log", "Hash passwords with argon2 before storing them"),
    ("adm", "Put the admin panel behind the VPN instead of the public internet"),
]


@pytest.mark.parametrize(("key", "raw"), OTHER_ACT)
def test_the_thing_under_another_act_never_blocks(store, key, raw):
    assert confirmed_answer(store, key, raw) in ("undecided", "pass")


def test_an_adverb_is_not_the_act():
    assert act_verbs("Never manually edit the generated protobuf code", "generated protobuf code") == ("edit",)
