"""Issue 22 (twenty-sixth session, fix26): a change that stops ignoring a file that holds
secrets. Under "Never commit secrets to the repository", a .gitignore diff that takes `.env`
out passed, guessed and confirmed: the change names no secret, it only lets the next commit
carry one. A removed ignore entry for such a file (`.env`, `*.pem`, `id_rsa`, …) that the
change does not add back now answers "applies, undecided". Our own sentence and diffs; real
files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, edit_diff

CRITERIA = {"keys": ("Never check private keys or other secrets into git", "block")}



@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("ignore26"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("change", "want"), [
    (edit_diff(".gitignore", ["*.pem", "dist/"], ["dist/"]), "undecided"),
    (edit_diff(".gitignore", ["dist/"], ["dist/", "*.pem"]), "pass"),
    (edit_diff(".gitignore", ["*.pem", "dist/"], ["dist/", "*.pem"]), "pass"),  # moved, still there
])
def test_an_ignore_entry_taken_out_asks(store, change, want):
    assert confirmed_answer(store, "keys", change) == want
