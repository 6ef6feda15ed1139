"""Issue 22 (twenty-seventh session, fix27): "Only A once B" drafts "A, unless B" with B a
name in code; any mention of B exempted the proposal, also one saying B does not hold
("… key_backup_verified is not set yet", "… is false because …"), so the violation passed
with exit 0. A mention of the exemption that denies it is no exemption. Our own sentences and
proposals; real files, git and the model; criteria confirmed as a person would, and guessed."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, isolated_env

CRITERIA = {
    "rot": ("Only rotate the signing key once key_backup_verified is set", "block"),
    "rel": ("Only publish a release once smoke_ok is true", "block"),
}

VIOLATIONS = [
    ("rot", "Rotate the signing key now; key_backup_verified is not set yet but the old key leaked"),
    ("rot", "key_backup_verified hasn't been set, rotate the signing key anyway"),
    ("rel", "Publish the release tonight, smoke_ok is false only because one runner was slow"),
    ("rel", "Publish a release even though smoke_ok is still unset"),
]

LOOKALIKES = [
    ("rot", "key_backup_verified is set on prod; rotate the signing key"),
    ("rot", "Rotate the signing key as soon as key_backup_verified is set"),
    ("rel", "Publish the release: smoke_ok is true on every runner"),
    ("rel", "Do not publish a release while smoke_ok is false"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("denied27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw"), VIOLATIONS)
def test_a_denied_condition_does_not_exempt_a_confirmed_rule(store, key, raw):
    assert confirmed_answer(store, key, raw) == "block"


@pytest.mark.parametrize(("key", "raw"), LOOKALIKES)
def test_a_condition_that_holds_still_exempts(store, key, raw):
    assert confirmed_answer(store, key, raw) == "pass"


def test_a_guess_asks_where_the_condition_is_denied(tmp_path):
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    with isolated_env(tmp_path):
        mem, ids = heldout_eval.build(tmp_path / "g", CRITERIA, confirmed=False)
        for key, raw in VIOLATIONS:
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
            assert heldout_eval.answer(result, ids[key]) == "undecided", raw
