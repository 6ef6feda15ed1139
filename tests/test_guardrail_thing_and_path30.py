"""Issue 22 (thirtieth session, fix30): two readings of a confirmed rule's evidence.

1. thing_in_code.py: a confirmed draft whose subject is a thing ("Shared Kubernetes
   Deployments set revisionHistoryLimit: 3") applied by meaning, its requirement missing,
   asked since meaning_needs (29th session) because the change never says the qualifier
   ('shared', 'kubernetes'). Where the change names the thing itself in code (`kind:
   Deployment`, a tool call that makes it, a file named for it), it blocks again; a mention in
   prose or inside a longer identifier still asks.
2. path_names.py: a forbidden word met only as a part of a path or a file name (`.env`,
   `/usr/bin/env`) is a longer name, like `literal_eval` for 'eval': the confirmed rule asks
   there, and still blocks the word where the act uses it.
Our own sentences and proposals; real files, git and the model; criteria confirmed as shown."""

from __future__ import annotations

import pytest

from lorestack.guardrail import path_names, thing_in_code
from tests.conftest import answers_of, bash_call, confirmed_git_store, new_file_diff

CRITERIA = {
    "hist": ("Shared Kubernetes Deployments set revisionHistoryLimit: 3", "block"),
    "dump": ("Release scripts never echo tokens or dump the environment (env, printenv) into the job output", "block"),
}
_DEPLOY = ["apiVersion: apps/v1", "kind: Deployment", "metadata:", "  name: billing", "spec:",
           "  replicas: 2"]

THING = [  # the change is the thing, the requirement missing: blocks (asked before)
    ("hist-v1", "hist", new_file_diff("k8s/billing.yaml", _DEPLOY + ["  revisionHistoryLimit: 10"])),
    ("hist-v2", "hist", new_file_diff("k8s/billing.yaml", _DEPLOY)),
]
NOT_THE_THING = [  # only a mention or a part of a name: not blocked (asked or passed), as before
    ("hist-p1", "hist", new_file_diff("billing/settings.py", ["DEPLOYMENT_NAME = 'billing'",
                                                              "ROLLOUT_HISTORY = 10"])),
    ("hist-p2", "hist", "Keep ten old revisions of the shared deployments around for rollbacks"),
]
MET = [("hist-ok", "hist", new_file_diff("k8s/billing.yaml", _DEPLOY + ["  revisionHistoryLimit: 3"]))]

IN_A_PATH = [  # the forbidden word only as a file or folder name: asked (blocked before)
    ("dump-p1", "dump", new_file_diff(".gitignore", [".env", "node_modules/"])),
    ("dump-p2", "dump", new_file_diff("ci/release.sh", ["#!/usr/bin/env bash", "make release"])),
]
THE_WORD = [  # the word itself, run as the command: still blocks
    ("dump-v1", "dump", bash_call("env | sort")),
    ("dump-v2", "dump", new_file_diff("ci/release.sh", ["set -e", "env", "make release"])),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("thing30"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


def test_the_change_that_is_the_thing_blocks(store):
    assert answers_of(store, THING) == {c[0]: "block" for c in THING}
    assert answers_of(store, MET) == {"hist-ok": "pass"}


def test_a_mention_of_the_thing_is_not_blocked(store):
    assert "block" not in answers_of(store, NOT_THE_THING).values()


def test_without_the_reading_the_thing_is_asked(store, monkeypatch):
    monkeypatch.setattr(thing_in_code, "ON", False)
    assert answers_of(store, THING) == {c[0]: "undecided" for c in THING}


def test_a_word_in_a_path_asks(store):
    assert answers_of(store, IN_A_PATH) == {c[0]: "undecided" for c in IN_A_PATH}


def test_the_word_itself_still_blocks(store):
    assert answers_of(store, THE_WORD) == {c[0]: "block" for c in THE_WORD}


def test_without_the_reading_a_word_in_a_path_blocks(store, monkeypatch):
    monkeypatch.setattr(path_names, "ON", False)
    assert answers_of(store, IN_A_PATH[:1]) == {"dump-p1": "block"}
