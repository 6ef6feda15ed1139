"""Issue 22 (twenty-eighth session, fix28): drafts that made a function or measure word the
required term, and denials the condition reader did not read.

- "X must time out within N seconds" was drafted `require 'time'`: every call of X missed it
  and blocked once confirmed. It is a bound on X's timeout now (bounds.within_rule), and the
  timeout itself is wanted.
- "Only A once B" found its condition word only within the act's first five words: "Only
  rotate the API signing secret once …" drafted `require 'rotate'`. "once" / "after" further
  in is read too (only_once.py).
- A condition said not to hold as "came back false", "failed", "will flip to true later",
  "whether or not B is set", "B: no" exempted the act (denied.py).

Our own sentences and proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.sentences import read_sentence
from tests.conftest import confirmed_answer, confirmed_git_store, new_file_diff


@pytest.mark.parametrize("sentence", [
    "Calls to the payment gateway must time out within 8 seconds",
    "Outbound webhook requests should time out after 15 seconds",
])
def test_time_out_within_is_a_bound_not_the_word_time(sentence):
    draft = read_sentence(sentence)
    assert "time" not in draft.require
    assert any(" over " in f and "timeout" in f for f in draft.forbid), draft.forbid


@pytest.mark.parametrize(("sentence", "act"), [
    ("Only rotate the API signing secret once secret_backup_ok is set", "rotate"),
    ("Only move the traffic over to the new region once region_ready is true", "move"),
])
def test_only_once_reads_a_longer_act(sentence, act):
    draft = read_sentence(sentence)
    assert act not in draft.require
    assert any(f.startswith(act) for f in draft.forbid), draft.forbid


CRITERIA = {
    "gw": ("Calls to the payment gateway must time out within 8 seconds", "block"),
    "canary": ("Only promote the canary once canary_healthy is true", "block"),
}
GW = "billing/gateway.py"
CASES = [
    ("gw", new_file_diff(GW, ["def charge(body):",
                              "    return requests.post(GATEWAY, json=body, timeout=5)"]), "pass"),
    ("gw", new_file_diff(GW, ["def charge(body):",
                              "    return requests.post(GATEWAY, json=body, timeout=60)"]), "undecided"),
    ("canary", "canary_healthy came back false on one pod, promote the canary anyway", "block"),
    ("canary", "Promote the canary now; canary_healthy will flip to true in a minute", "block"),
    ("canary", "Promote the canary, whether or not canary_healthy is true", "block"),
    ("canary", "Promote the canary even though canary_healthy: no", "block"),
    ("canary", "canary_healthy is true on every pod, promote the canary", "pass"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("drafts28"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw", "want"), CASES)
def test_confirmed_answers(store, key, raw, want):
    assert confirmed_answer(store, key, raw) == want
