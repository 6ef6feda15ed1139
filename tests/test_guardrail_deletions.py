"""Issue 22 (twentieth session): "Never delete files under tests/golden/" drafted nothing, so
`rm`, `git rm`, `find … -delete`, apply_patch's `*** Delete File:` and a commit deleting a
file there were never read (at most undecided by meaning). It now drafts a rule on deletions
under that folder (`removed:path:tests/golden/**`): met by a command deleting a file there
or a change whose diff deletes one, never by an edit, a copy into it or a read. Real files,
real git, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import subprocess

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.proposals import from_git_diff
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.conftest import confirmed_git_store
from tests.guardrail_sentence_cases import _bash
from tests.test_guardrail_labelled import make_proposal

CRITERIA = {
    "golden": ("Never delete files under tests/golden/", "block"),
    "helpers": ("Nothing new under lib/helpers/", "block"),
}
FILES = {"tests/golden/home.png": "png", "tests/golden/notes.txt": "a\n",
         "lib/helpers/old.py": "X = 1\n"}


def _patch(*lines: str) -> dict:
    patch = "*** Begin Patch\n" + "\n".join(lines) + "\n*** End Patch"
    return {"payload": {"tool_name": "apply_patch", "tool_input": {"input": patch}},
            "client": "codex"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("deletions"), CRITERIA, FILES) as made:
        yield made


def _answer(store, key, proposal):
    mem, ids = store
    result = check(mem, proposal, retrieval=False, llm=False)
    return E.answer(result, ids[key])


def test_the_sentence_drafts_a_rule_on_deletions():
    assert read_sentence("Never delete files under tests/golden/").forbid == [
        "removed:path:tests/golden/**"]
    assert read_sentence("Do not remove translation files from locale/").forbid == [
        "removed:path:locale/**"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (_bash("rm tests/golden/home.png"), "block"),
        (_bash("git rm -r tests/golden/"), "block"),
        (_bash("find tests/golden -name '*.png' -delete"), "block"),
        (_bash("ls tests/golden/*.png | xargs rm"), "block"),
        (_patch("*** Delete File: tests/golden/home.png"), "block"),
        # an edit, a copy into the folder, a read, a deletion elsewhere: no deletion there
        (_bash("sed -i 's/a/b/' tests/golden/notes.txt"), "no block"),
        (_bash("cp ~/new.png tests/golden/"), "no block"),
        (_bash("ls -la tests/golden/"), "pass"),
        (_patch("*** Update File: tests/golden/notes.txt", "@@", "-a", "+b"), "no block"),
        (_bash("rm tests/output/home.png"), "no block"),
    ],
)
def test_a_deletion_under_the_folder_is_read(store, raw, expected):
    mem, _ = store
    got = _answer(store, "golden", make_proposal(raw, mem.project.repo_dir))
    assert got != "block" if expected == "no block" else got == expected


def test_a_commit_deleting_a_file_there_is_read(store):
    mem, _ = store
    repo = mem.project.repo_dir
    subprocess.run(["git", "-C", str(repo), "rm", "-q", "tests/golden/home.png"], check=True)
    try:
        proposal = from_git_diff(repo, staged=True)
        assert proposal.deleted == ["tests/golden/home.png"]
        assert _answer(store, "golden", proposal) == "block"
    finally:
        subprocess.run(["git", "-C", str(repo), "reset", "-q", "HEAD", "--", "."], check=True)
        subprocess.run(["git", "-C", str(repo), "checkout", "-q", "--", "."], check=True)


def test_a_file_deleted_by_a_patch_is_no_new_file(store):
    mem, _ = store
    raw = _patch("*** Delete File: lib/helpers/old.py")
    assert _answer(store, "helpers", make_proposal(raw, mem.project.repo_dir)) == "pass"
