"""A required file the proposal changes is present (thirty-seventh session): "Every PR must
update CHANGELOG.md" asked about a diff of CHANGELOG.md, since the file's name is not in its
own added lines. A proposal that names the file only to leave it alone, or does not touch it,
is still asked about; a confirmed rule blocks a PR opened without it. Real files, the real
MiniLM model."""

from __future__ import annotations

import subprocess

import pytest

from lorestack.guardrail import file_written as rules
from lorestack.guardrail.check import check
from lorestack.guardrail.proposals import Proposal, from_git_diff
from tests import heldout_eval as E
from tests.conftest import isolated_env

CRITERIA = {
    "changelog": ("Every PR must update CHANGELOG.md", "block"),
    "dbt": ("Every new dbt model needs an owner and a description in its schema.yml", "block"),
}


@pytest.fixture(scope="module", params=[False, True], ids=["guessed", "confirmed"])
def store(request, tmp_path_factory):
    base = tmp_path_factory.mktemp("changelog")
    with isolated_env(base):
        mem, ids = E.build(base, CRITERIA, confirmed=request.param)
        yield mem, ids, request.param


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


def _diff(repo, path: str, added: str, before: str = "# Changelog\n") -> Proposal:
    """The staged diff as `check --staged` reads it: its added lines and its paths."""
    _git(repo, "init", "-q")
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text(before)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "init")
    (repo / path).write_text(f"# Changelog\n{added}\n" if added else "# Changelog\n")
    _git(repo, "add", "-A")
    return from_git_diff(repo, staged=True)


@pytest.mark.parametrize("path", ["CHANGELOG.md", "docs/CHANGELOG.md", "changelog.md"])
def test_a_diff_of_the_required_file_keeps_the_rule(store, path, tmp_path):
    mem, ids, _confirmed = store
    crit = ids["changelog"]
    proposal = _diff(tmp_path, path, "- Fixed the retry loop in the HTTP client")
    assert "CHANGELOG" not in proposal.text.upper() and proposal.paths == [path]
    result = check(mem, proposal, retrieval=False, llm=False)
    assert E.answer(result, crit) == "pass", result
    rules.FILE_CHANGED = False
    try:
        before = check(mem, proposal, retrieval=False, llm=False)
    finally:
        rules.FILE_CHANGED = True
    assert E.answer(before, crit) != "pass"  # what it answered before: asked


@pytest.mark.parametrize("proposal", [
    Proposal(text="gh pr create --fill  # CHANGELOG.md untouched"),
    Proposal(text="gh pr create --title 'Fix the retry loop' --fill"),
])
def test_a_pr_without_the_file_is_still_asked_or_blocked(store, proposal):
    mem, ids, confirmed = store
    answer = E.answer(check(mem, proposal, retrieval=False, llm=False), ids["changelog"])
    assert answer in (("block",) if confirmed else ("undecided",)), answer


def test_a_diff_that_only_takes_an_entry_out_is_still_asked(store, tmp_path):
    mem, ids, _confirmed = store
    proposal = _diff(tmp_path, "CHANGELOG.md", "", before="# Changelog\n- Added CSV export\n")
    assert proposal.paths == ["CHANGELOG.md"] and "CSV" not in proposal.text
    answer, before = _with_and_without(mem, proposal, ids["changelog"])
    assert answer == before != "pass"


def test_a_file_that_is_only_the_place_of_what_is_required_is_not_enough(store, tmp_path):
    """"… needs an owner and a description in its schema.yml" drafts `require: schema.yml`; a
    schema.yml without either is no update of what the rule wants (review28 r28c2-own-v1)."""
    mem, ids, confirmed = store
    (tmp_path / "dbt").mkdir()
    _git(tmp_path, "init", "-q")
    (tmp_path / "dbt" / "README.md").write_text("models\n")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "init")
    (tmp_path / "dbt" / "schema.yml").write_text("  - name: fct_refunds\n    columns:\n"
                                                 "      - name: refund_id\n")
    _git(tmp_path, "add", "-A")
    proposal = from_git_diff(tmp_path, staged=True)
    answer, before = _with_and_without(mem, proposal, ids["dbt"])
    assert answer == before and (answer != "pass" or not confirmed)


def _with_and_without(mem, proposal, crit) -> tuple[str, str]:
    """The answer with the rule, and as before it."""
    answer = E.answer(check(mem, proposal, retrieval=False, llm=False), crit)
    rules.FILE_CHANGED = False
    try:
        return answer, E.answer(check(mem, proposal, retrieval=False, llm=False), crit)
    finally:
        rules.FILE_CHANGED = True
