"""Issue 22 (twenty-fifth session, conf25): the act a prohibition names before the forbidden
thing. "Do not skip or delete failing tests …" is drafted `forbid: failing tests`; once
confirmed it blocked "Fix the race so the failing integration test passes". Prose that names
the thing under none of the acts the sentence forbids on it (skip, delete) now answers
"applies, undecided" — never a pass, never a block; prose that says the act still blocks,
and a change (code) is judged by the rule's words as before. Our own sentences and proposals;
real files, git and model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.act_scope import act_verbs
from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {
    "flaky": ("Do not mute or quarantine flaky tests to get a release out", "block"),
    "dumps": ("Never email database dumps to anyone", "block"),
    "keys": ("Never paste private keys into chat", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("act25"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


OTHER_ACT = [  # the thing, under another act: a person judges it
    ("flaky", "Fix the timing bug that makes the flaky tests fail on CI"),
    ("dumps", "Encrypt the nightly database dumps with the backups key before upload"),
    ("keys", "Rotate the private keys of the deploy bot after the offboarding"),
]

THE_ACT = [  # the act said: blocks as before
    ("flaky", "Mute the flaky tests in checkout so the release can go out today"),
    ("dumps", "Email the database dumps to the contractor so he can debug the migration"),
    ("keys", "Paste the private keys into the team chat so Sam can log in"),
]


@pytest.mark.parametrize(("key", "raw"), OTHER_ACT)
def test_the_thing_under_another_act_asks(store, key, raw):
    assert confirmed_answer(store, key, raw) == "undecided"


@pytest.mark.parametrize(("key", "raw"), THE_ACT)
def test_the_act_said_still_blocks(store, key, raw):
    assert confirmed_answer(store, key, raw) == "block"


def test_the_verbs_a_prohibition_names():
    assert act_verbs("Do not skip or delete failing tests to get the build green", "failing tests") == ("skip", "delete")
    assert act_verbs("Never put tokens or API keys in a URL", "keys") == ()  # a light verb
    assert act_verbs("Pods don't mount hostPath volumes or use hostNetwork", "hostnetwork") == ()
    assert act_verbs("Timestamps are ISO 8601 strings, never Unix epoch numbers", "epoch numbers") == ()

