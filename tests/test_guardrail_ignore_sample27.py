"""Issue 22 (twenty-seventh session, fix27): fix26's reading of a secret file's ignore entry
taken out read `.env.example` as such a file, so a .gitignore edit that stops ignoring the
committed sample (which holds no secret and is meant to be committed) asked "applies,
undecided". A sample, example, template or dist file is no secret file, as act_scope's
reading of a named file already said. Our own sentence and diffs; real files, git and the
model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {"cred": ("Credentials are never committed to the repository", "block")}


def _edit(path: str, minus: list[str], plus: list[str]) -> dict:
    m = "".join(f"-{line}\n" for line in minus)
    p = "".join(f"+{line}\n" for line in plus)
    return {"diff": f"diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n"
                    f"+++ b/{path}\n@@ -1,{len(minus)} +1,{len(plus)} @@\n{m}{p}"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("sample27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("change", "want"), [
    (_edit(".gitignore", [".env.sample", "build/"], ["build/"]), "pass"),
    (_edit(".gitignore", [".env.template", "build/"], ["build/"]), "pass"),
    (_edit(".gitignore", [".env.local", "build/"], ["build/"]), "undecided"),  # a real one
])
def test_a_sample_is_no_secret_file(store, change, want):
    assert confirmed_answer(store, "cred", change) == want
