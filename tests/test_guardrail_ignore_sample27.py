"""Issue 22 (twenty-seventh session, fix27): fix26's reading of a secret file's ignore entry
taken out read `.env.example` as such a file, so a .gitignore edit that stops ignoring the
committed sample (which holds no secret and is meant to be committed) asked "applies,
undecided". A sample, example, template or dist file is no secret file, as act_scope's
reading of a named file already said. Our own sentence and diffs; real files, git and the
model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, edit_diff

CRITERIA = {"cred": ("Credentials are never committed to the repository", "block")}



@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("sample27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("change", "want"), [
    (edit_diff(".gitignore", [".env.sample", "build/"], ["build/"]), "pass"),
    (edit_diff(".gitignore", [".env.template", "build/"], ["build/"]), "pass"),
    (edit_diff(".gitignore", [".env.local", "build/"], ["build/"]), "undecided"),  # a real one
])
def test_a_sample_is_no_secret_file(store, change, want):
    assert confirmed_answer(store, "cred", change) == want
