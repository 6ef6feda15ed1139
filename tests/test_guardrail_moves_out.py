"""Issue 22 (twenty-first session): a file moved out of a folder whose files are never deleted
is gone from there. `mv fixtures/golden/a.png /tmp/`, `git mv` out of the folder and a staged
rename (a diff's `rename from` / `rename to` headers) passed "Never delete files under
fixtures/golden/" in silence, and a diff's rename headers never met "Never rename or move
files in sdk/" (judged by meaning only). `grep -rl x . | xargs rm` (a deletion over the whole
tree, which may reach the folder) passed too: it is at least "applies, undecided" now, and
a deletion elsewhere (`rm -rf build/`) still passes. Real files, real git, the real MiniLM
model; criteria confirmed as a person would."""

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
    "golden": ("Never delete files under fixtures/golden/", "block"),
    "sdk": ("Never rename or move files in sdk/; deprecate them first", "block"),
}
FILES = {"fixtures/golden/a.png": "png", "fixtures/golden/b.json": "{}\n",
         "sdk/client.py": "X = 1\n", "docs/client.md": "# Client\n",
         "tests/sdk/test_client.py": "Y = 2\n",
         "build/out.o": "o"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("moves_out"), CRITERIA, FILES) as made:
        yield made


def _answer(store, key, proposal):
    mem, ids = store
    return E.answer(check(mem, proposal, retrieval=False, llm=False), ids[key])


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("mv fixtures/golden/a.png /tmp/", "block"),
        ("git mv fixtures/golden/b.json archive/", "block"),
        ("grep -rl DEPRECATED . | xargs rm", "undecided"),
        ("find . -name '*.tmp' | xargs rm -f", "undecided"),
        # a rename inside the folder keeps the file there; a deletion elsewhere; a copy out
        ("git mv fixtures/golden/a.png fixtures/golden/a_dark.png", "pass"),
        ("rm -rf build/", "pass"),
        ("grep -rl DEPRECATED docs/ | xargs rm", "pass"),
        ("cp fixtures/golden/a.png /tmp/", "pass"),
    ],
)
def test_a_file_moved_out_of_a_kept_folder_is_deleted_there(store, command, expected):
    mem, _ = store
    assert _answer(store, "golden", make_proposal(_bash(command), mem.project.repo_dir)) == expected


def _staged_move(repo, src, dst):
    (repo / dst).parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "-C", str(repo), "mv", src, dst], check=True)


def _undo(repo):
    subprocess.run(["git", "-C", str(repo), "reset", "-q", "--hard", "HEAD"], check=True)


@pytest.mark.parametrize(
    ("src", "dst", "key", "expected"),
    [
        ("fixtures/golden/a.png", "archive/a.png", "golden", "block"),
        ("fixtures/golden/a.png", "fixtures/golden/a_dark.png", "golden", "pass"),
        ("sdk/client.py", "sdk/api_client.py", "sdk", "block"),
        ("docs/client.md", "docs/api_client.md", "sdk", "pass"),
        # the rule names sdk/ at the root: a rename in tests/sdk/ never blocks it
        ("tests/sdk/test_client.py", "tests/sdk/test_api_client.py", "sdk", "no block"),
    ],
)
def test_a_staged_rename_is_read_from_its_headers(store, src, dst, key, expected):
    mem, _ = store
    repo = mem.project.repo_dir
    _staged_move(repo, src, dst)
    try:
        proposal = from_git_diff(repo, staged=True)
        assert proposal.moved == {src: dst}
        got = _answer(store, key, proposal)
        assert got != "block" if expected == "no block" else got == expected
    finally:
        _undo(repo)


def test_a_case_diff_with_rename_headers_reads_as_check_diff_does():
    raw = {"diff": "diff --git a/sdk/client.py b/sdk/api.py\nsimilarity index 100%\n"
                   "rename from sdk/client.py\nrename to sdk/api.py\n"}
    proposal = make_proposal(raw, None)
    assert proposal.moved == {"sdk/client.py": "sdk/api.py"}
    assert proposal.paths == ["sdk/client.py", "sdk/api.py"]


@pytest.mark.parametrize(
    ("sentence", "forbid"),
    [
        # "Keep every file in X/" drafted the word 'deleted' (from "not deleted") or nothing
        ("Keep every file in docs/adr/; superseded decisions are marked, not deleted",
         ["removed:path:docs/adr/**"]),  # a rename inside keeps the file (rguard21)
        ("Keep all files under fixtures/golden/",
         ["removed:path:fixtures/golden/**"]),
        ("Keep the files in sync", []),
    ],
)
def test_keeping_every_file_in_a_folder_forbids_deleting_and_moving_there(sentence, forbid):
    assert read_sentence(sentence).forbid == forbid
