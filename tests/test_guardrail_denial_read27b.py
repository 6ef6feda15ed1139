"""Issue 22 (twenty-seventh session, fix27b): "a denied condition exempts nothing" read a
denied false ("is no longer false", "isn't false any more") as a denial, and "Before B is …"
anywhere in a sentence as "B does not hold yet" — also where that sentence only states the old
rule and another says B holds now. Complying proposals went to a wrong block. A denial is read
only where the words say B does not hold now. Our own sentences; real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {
    "rot": ("Only rotate the signing key once key_backup_verified is set", "block"),
    "rel": ("Only publish a release once smoke_ok is true", "block"),
}

LOOKALIKES = [
    ("rel", "smoke_ok is no longer false since the rerun at noon, so publish the release"),
    ("rel", "smoke_ok isn't false any more; publish the release"),
    ("rot", "key_backup_verified hasn't been false since Monday; rotate the signing key"),
    ("rot", "Before key_backup_verified is set nobody rotates anything; it is set now, so rotate the signing key"),
]

VIOLATIONS = [
    ("rel", "Publish the release, smoke_ok is no longer true after the flaky rerun"),
    ("rot", "key_backup_verified isn't set any more; rotate the signing key"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("denial27b"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw"), LOOKALIKES)
def test_a_denied_false_or_an_old_rule_still_exempts(store, key, raw):
    assert confirmed_answer(store, key, raw) == "pass"


@pytest.mark.parametrize(("key", "raw"), VIOLATIONS)
def test_a_real_denial_still_exempts_nothing(store, key, raw):
    assert confirmed_answer(store, key, raw) == "block"
