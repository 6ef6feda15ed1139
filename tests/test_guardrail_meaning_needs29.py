"""Issue 22 (twenty-ninth session, other29): a confirmed draft that applied only by meaning and
found only a required term missing. "Never publish an app store release without a sign-off
from the mobile lead" is drafted `require: sign-off from mobile lead` with no scope of its own,
so it applies wherever a proposal reads close to it; once confirmed it blocked "Write the
release notes for the mobile app update" for the missing sign-off, though nothing is
published. Where the proposal does not show the act the requirement is for (its words, two
thirds of them), such a rule now asks ("applies, undecided"); where it does, it blocks as
before. Our own sentences and proposals; real files, git and model; criteria confirmed as a
person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.meaning_needs import act_words
from tests.conftest import answers_of, confirmed_git_store

CRITERIA = {
    "rel": ("Never publish an app store release without a sign-off from the mobile lead", "block"),
    "mig": ("Do not run data migrations on the billing database without a fresh snapshot", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("needs29"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


NOT_THE_ACT = [  # close by meaning, the requirement missing, the act not done: asked
    ("rel-p1", "rel", "Cut the release branch for the mobile app and bump the version"),
    ("rel-p2", "rel", "Write the release notes for the mobile app update"),
    ("mig-p1", "mig", "Run the billing tests against a copy of the production database"),
    ("mig-p2", "mig", "Take a snapshot of the billing database every night"),
]

THE_ACT = [  # the act done without what it needs: blocks as before
    ("rel-v1", "rel", "Publish the 3.2 app store release tonight, the mobile lead is on holiday"),
    ("mig-v1", "mig", "Run the data migration on the billing database now"),
]


def test_the_act_not_shown_asks(store):
    assert answers_of(store, NOT_THE_ACT) == {c[0]: "undecided" for c in NOT_THE_ACT}


def test_the_act_shown_still_blocks(store):
    assert answers_of(store, THE_ACT) == {c[0]: "block" for c in THE_ACT}


def test_act_words_stop_at_what_ties_the_requirement():
    assert act_words("Never merge a release branch without a sign-off") == ["merge", "release", "branch"]
    assert act_words("The CLI must not send telemetry without the user opting in") == ["cli", "send", "telemetry"]
    assert act_words("Admin routes must check the user is staff before doing anything") == ["admin", "routes"]
