"""Issue 22 (twenty-fifth session, conf25): an exception a prohibition names ("…; the
node-exporter DaemonSet is the only exception", "… except on ports 80 and 443 of the public load
balancer"). The draft forbids the thing and reads no exception a proposal would write, so once
confirmed it blocked the very case the sentence allows. Where a proposal names the exception
(its distinctive words: a number, a hyphenated or camelCase name, a name in capitals), a
confirmed violation answers "applies, undecided" (the exception may be claimed, not met: never
a pass); without it, it blocks as before. Our own sentences and proposals; real files, git and
model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.act_scope import exception_words
from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _diff

CRITERIA = {
    "priv": ("Containers never run privileged; the falco-agent DaemonSet is the only exception", "block"),
    "ports": ("Firewall rules never open inbound traffic from any address except on ports 25 and 587 of the mail relay", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("exc25"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


NAMES_IT = [
    ("priv", _diff("k8s/falco.yaml", "kind: DaemonSet\nmetadata:\n  name: falco-agent\nspec:\n"
                                     "  template:\n    spec:\n      containers:\n      - name: falco\n"
                                     "        securityContext:\n          privileged: true")),
    ("ports", "Open inbound traffic from any address on port 587 of the mail relay"),
]

LEAVES_IT_OUT = [
    ("priv", _diff("k8s/api.yaml", "kind: Deployment\nmetadata:\n  name: api\nspec:\n  template:\n"
                                   "    spec:\n      containers:\n      - name: api\n"
                                   "        securityContext:\n          privileged: true")),
    ("ports", "Open inbound traffic from any address on port 22 of the bastion"),
]


@pytest.mark.parametrize(("key", "raw"), NAMES_IT)
def test_naming_the_exception_asks(store, key, raw):
    assert confirmed_answer(store, key, raw) == "undecided"


@pytest.mark.parametrize(("key", "raw"), LEAVES_IT_OUT)
def test_without_the_exception_it_blocks(store, key, raw):
    assert confirmed_answer(store, key, raw) == "block"


def test_the_words_of_an_exception():
    assert exception_words(CRITERIA["priv"][0]) == ("falco-agent", "DaemonSet")
    assert exception_words(CRITERIA["ports"][0]) == ("25", "587")
    assert exception_words("C# methods are never async void, except event handlers") == ()
