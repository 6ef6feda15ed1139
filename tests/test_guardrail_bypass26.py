"""Issue 22 (twenty-sixth session, fix26): a ban on going without a check, said with the cue
of going without it. "Do not bypass code review for changes under payments/" is drafted
`forbid: review`; "Merge the payments/ hotfix without code review" and "Skip code review for
the refactor" passed, guessed and confirmed, because "without" and "skip" read as negating the
review. The sentence forbids that very act: a cue of going without (without, skip, bypass,
omit, disable) on the thing asks (act_scope.forbidden_verb_said) — "applies, undecided", not a
block even once confirmed: the reviewers' look-alikes ("skip the scan for docs-only changes as
the policy allows") blocked when it was one. Our own sentences and proposals; real files, git
and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, isolated_env

CRITERIA = {
    "audit": ("Do not bypass the dependency audit for release branches", "block"),
}
VIOLATIONS = [
    ("audit", "Cut the release branch without the dependency audit, we are late"),
    ("audit", "Skip the dependency audit on the release branch this once"),
]



@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("bypass26"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw"), VIOLATIONS)
def test_going_without_asks_once_confirmed(store, key, raw):
    assert confirmed_answer(store, key, raw) == "undecided"


def test_a_guess_asks(tmp_path):
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    with isolated_env(tmp_path):
        mem, ids = heldout_eval.build(tmp_path / "g", CRITERIA, confirmed=False)
        for key, raw in VIOLATIONS:
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
            assert heldout_eval.answer(result, ids[key]) == "undecided", raw
