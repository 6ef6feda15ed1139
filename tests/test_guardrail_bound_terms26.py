"""Issue 22 (twenty-sixth session, fix26): a bound a sentence sets on one thing. "Timeouts
never above 30 s" was drafted `forbid: 30 s` — the value that keeps the rule — so once
confirmed "Set the HTTP timeouts to 30 s" blocked and `timeout=60` passed; "Keep
max_connections at or under 200" drafted nothing (a bound with no unit), and a key naming
neither a unit nor the sentence's noun (`timeout=60`, `maxReceiveCount = 50`) was never read as
a quantity. Now the draft forbids the thing past its bound ('timeouts over 30 s'), bounds.py
reads the value a change sets: past it the rule asks ("applies, undecided", also once confirmed:
a key's unit is a guess — `timeout: 60000` is milliseconds in JavaScript — and the reviewers'
look-alikes blocked when it decided); within it, a pass.
Our own sentences and proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.bounds import beyond
from lorestack.guardrail.sentences import read_sentence
from tests.conftest import confirmed_answer, confirmed_git_store, isolated_env, new_file_diff


def test_a_bound_is_drafted_as_the_thing_past_it():
    assert read_sentence("Timeouts never above 30 s").forbid == ["timeouts over 30 s"]
    assert read_sentence("Keep max_connections at or under 200").forbid == ["max_connections over 200"]
    assert read_sentence("Never set a retry delay above 10 minutes").forbid == ["retry delay over 10 minutes"]
    # the scope of a requirement is no limit: "more than one maintainer" is wanted
    assert not any(" over " in t for t in read_sentence(
        "A new dependency needs more than one maintainer").forbid)


@pytest.mark.parametrize(("sentence", "text", "past"), [
    ("Keep max_connections at or under 200", "MAX_CONNECTIONS = 500", True),
    ("Keep max_connections at or under 200", "maxConnections: 150", False),
    ("Cache entries never live longer than 1 hour", "CACHE_TTL = 86400  # entries", True),
    ("Workers give up after at most 3 delivery attempts", "maxDeliveryCount: 20", True),
])
def test_a_key_naming_no_unit_is_read(sentence, text, past):
    assert (beyond(sentence, text, applied=True) is not None) == past


CRITERIA = {
    "tmo": ("Outgoing HTTP timeouts are never above 30 s", "block"),
    "conn": ("Keep max_connections at or under 200", "block"),
}
CASES = [
    ("tmo", "resp = requests.get(url, timeout=60)\n", "undecided"),
    ("tmo", "resp = requests.get(url, timeout=10)\n", "pass"),
    ("tmo", "Set the client's HTTP timeouts to 30 seconds", "pass"),  # the bound itself keeps it
    ("conn", "max_connections = 500\n", "undecided"),
    ("conn", "max_connections = 150\n", "pass"),
]


def _diff(body: str) -> dict:
    return new_file_diff("app/db.py", body.splitlines())


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("bound26"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw", "want"), CASES)
def test_a_confirmed_bound_asks_by_the_value(store, key, raw, want):
    proposal = _diff(raw) if raw.endswith("\n") else raw
    assert confirmed_answer(store, key, proposal) == want


def test_a_guessed_bound_asks(tmp_path):
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    with isolated_env(tmp_path):
        mem, ids = heldout_eval.build(tmp_path / "g", CRITERIA, confirmed=False)
        for key, raw, want in CASES:
            proposal = make_proposal(_diff(raw) if raw.endswith("\n") else raw, mem.project.repo_dir)
            got = heldout_eval.answer(check(mem, proposal, retrieval=False, llm=False), ids[key])
            assert got == want, (key, raw)
