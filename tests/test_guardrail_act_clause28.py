"""Issue 22 (twenty-eighth session, conf28): the act a prohibition forbids, said on another
thing in another clause. "Never bypass the canary stage" is drafted `forbid: canary stage`;
once confirmed it blocked "Bypass the slow soak test for hotfixes, the canary stage still
gates them": the verb is said, but its object is the soak test, and the canary stage leads a
clause of its own as its subject. Such prose now answers "applies, undecided" (never a pass,
never a block); the act said on the thing in its own clause still blocks. Our own sentences
and proposals; real files, git and model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from tests.conftest import answers_of, confirmed_git_store

CRITERIA = {
    "canary": ("Never bypass the canary stage", "block"),
    "audit": ("Do not disable the audit log on staging", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("clause28"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


ANOTHER_THING = [  # the act on another thing; the rule's thing kept in a clause of its own
    ("can-p1", "canary", "Bypass the slow soak test for hotfixes, the canary stage still gates them"),
    ("aud-p1", "audit", "Disable the verbose SQL echo on staging; the audit log stays on"),
]

THE_ACT = [  # the act said on the thing: blocks as before
    ("can-v1", "canary", "Bypass the canary stage for this hotfix, it is urgent"),
    ("can-v2", "canary", "The release is late, so bypass the canary stage tonight"),
    ("aud-v1", "audit", "Disable the audit log on staging, it fills the disk"),
]


def test_the_act_on_another_thing_asks(store):
    assert answers_of(store, ANOTHER_THING) == {"can-p1": "undecided", "aud-p1": "undecided"}


def test_the_act_on_the_thing_still_blocks(store):
    assert answers_of(store, THE_ACT) == {"can-v1": "block", "can-v2": "block", "aud-v1": "block"}
