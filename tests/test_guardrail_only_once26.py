"""Issue 22 (twenty-sixth session, fix26): "Only A once B" / "A only after B". The draft took
the word after "only" as what the rule wants — the act itself ('drop' of "Only drop an index
once pg_stat_user_indexes has shown zero scans …", 'tagged' of "… is only tagged after …") or
the condition word ('once') — so doing the act met the rule and a proposal that only looked at
B was told the act was missing. Now the act is where the rule applies and what the condition
names in code is what it wants there. Our own sentences and proposals; real files, git and the
model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.sentences import read_sentence
from tests.conftest import confirmed_answer, confirmed_git_store


def test_the_act_is_the_scope_and_the_condition_is_wanted():
    d = read_sentence("Only purge a tenant once tenant_export_done is set for it")
    assert not d.require  # the act is no requirement
    assert d.forbid == ["purge tenant"] and d.unless == ["tenant_export_done"]  # A unless B
    assert "purge tenant" in d.keywords
    # the act only a verb: no term a change could be judged by; meaning decides
    d = read_sentence("A schema field is removed only after it has been marked @deprecated for a release")
    assert not (d.require or d.forbid)


def test_the_condition_word_is_never_a_term():
    d = read_sentence("Restart the consumers only once the backlog has drained")
    assert "once" not in " ".join(d.require + d.forbid)
    assert not any("restart" in t for t in d.require)  # the act is no requirement


CRITERIA = {"purge": ("Only purge a tenant once tenant_export_done is set for it", "block")}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("once26"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("raw", "want"), [
    ("Purge the acme tenant tonight, the customer left last week", "block"),
    ("Check that tenant_export_done is set for acme, then purge the tenant", "pass"),
    ("Add a tenant_export_done column to the tenants table", "pass"),  # no purge: not a block
])
def test_a_confirmed_rule_wants_the_condition_where_the_act_happens(store, raw, want):
    assert confirmed_answer(store, "purge", raw) == want
