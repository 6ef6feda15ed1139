"""Issue 22 (twenty-seventh session, fix27): "Only A once B" with B a state said in words
("… once the editor approves", "… after sign-off") is read as requiring the act (only_once.py
leaves it so: drafting nothing cost look-alikes), so a proposal doing A while saying B is
absent or put off ("without waiting for the editor to approve", "nobody has approved it yet")
met the rule and passed, guessed and confirmed. B is what the rule wants: a clause that goes
without it or puts it off asks ("applies, undecided", left_out.py), never a block. Our own
sentences and proposals; real files, git and the model; criteria confirmed and guessed."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, isolated_env

CRITERIA = {
    "docs": ("Only publish the docs site once the editor approves", "block"),
    "tag": ("Only push a release tag after sign-off from the release manager", "block"),
}

VIOLATIONS = [
    ("docs", "Publish the docs site without waiting for the editor to approve"),
    ("docs", "Publish the docs site now; nobody has approved it yet"),
    ("tag", "Push the release tag tonight, the release manager can sign off tomorrow"),
]

LOOKALIKES = [
    ("docs", "The editor approved the new pages; publish the docs site"),
    pytest.param("tag", "The release manager gave sign-off this morning, push the release tag",
                 marks=pytest.mark.xfail(strict=True, reason="a known cost of fix29's ONLY_ACT "
                 "(draft_grammar.py, twenty-ninth session): the confirmed rule asks here")),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("putoff27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw"), VIOLATIONS)
def test_a_confirmed_rule_asks_where_the_condition_is_put_off(store, key, raw):
    assert confirmed_answer(store, key, raw) == "undecided"


@pytest.mark.parametrize(("key", "raw"), LOOKALIKES)
def test_a_condition_said_to_hold_passes(store, key, raw):
    assert confirmed_answer(store, key, raw) == "pass"


def test_a_guess_asks_where_the_condition_is_put_off(tmp_path):
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    with isolated_env(tmp_path):
        mem, ids = heldout_eval.build(tmp_path / "g", CRITERIA, confirmed=False)
        for key, raw in VIOLATIONS:
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
            assert heldout_eval.answer(result, ids[key]) == "undecided", raw
