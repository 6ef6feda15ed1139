"""A required file the proposal changes is present (thirty-seventh session): "Every PR must
update CHANGELOG.md" asked about a diff of CHANGELOG.md, since the file's name is not in its
own added lines. A proposal that names the file only to leave it alone, or does not touch it,
is still asked about; a confirmed rule blocks a PR opened without it. Real files, the real
MiniLM model."""

from __future__ import annotations

import subprocess

import pytest

from lorestack.guardrail import rules
from lorestack.guardrail.check import check
from lorestack.guardrail.proposals import Proposal, from_git_diff
from tests import heldout_eval as E
from tests.conftest import isolated_env

CRITERIA = {"changelog": ("Every PR must update CHANGELOG.md", "block")}


@pytest.fixture(scope="module", params=[False, True], ids=["guessed", "confirmed"])
def store(request, tmp_path_factory):
    base = tmp_path_factory.mktemp("changelog")
    with isolated_env(base):
        mem, ids = E.build(base, CRITERIA, confirmed=request.param)
        yield mem, ids["changelog"], request.param


def _git(repo, *args):
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


def _diff(repo, path: str, added: str) -> Proposal:
    """The staged diff as `check --staged` reads it: its added lines and its paths."""
    _git(repo, "init", "-q")
    (repo / path).parent.mkdir(parents=True, exist_ok=True)
    (repo / path).write_text("# Changelog\n")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "init")
    (repo / path).write_text(f"# Changelog\n{added}\n")
    _git(repo, "add", "-A")
    return from_git_diff(repo, staged=True)


@pytest.mark.parametrize("path", ["CHANGELOG.md", "docs/CHANGELOG.md", "changelog.md"])
def test_a_diff_of_the_required_file_keeps_the_rule(store, path, tmp_path):
    mem, crit, _confirmed = store
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
    mem, crit, confirmed = store
    answer = E.answer(check(mem, proposal, retrieval=False, llm=False), crit)
    assert answer in (("block",) if confirmed else ("undecided",)), answer
