"""Review of the twentieth session's guardrail readings (issue 22): where a command runs,
"Never rename or move files in X/", and deletions the new `removed:` gate did not see.

A confirmed rule blocks, so a path must be read where the command really is: `cd /tmp`,
`cd ~`, `cd` alone and `cd "$DIR"` leave the project (or go where no one can tell), and a
`(` group opened on one line and closed on another keeps its `cd`s. Before, all of these
read the paths after them at the old place (or at the root), and `cd /tmp && rm -rf
fixtures/golden/` blocked "Never delete files under fixtures/golden/"."""

from __future__ import annotations

import pytest

from lorestack.guardrail.shell_unwrap import unwrap
from tests.conftest import bash_call, confirmed_answer


@pytest.mark.parametrize(
    ("command", "where", "read"),
    [
        ("cd /tmp && rm -rf fixtures/golden/", "", "rm -rf /tmp/fixtures/golden/"),
        ('cd "$TMPDIR" && rm -rf golden/', "fixtures", "rm -rf golden/"),
        ("cd\nrm -rf golden/", "fixtures", "rm -rf HOME/golden/"),
        ("cd fixtures\ncd ~\nrm golden/a.png", "", "rm HOME/golden/a.png"),
        ("(\ncd lib\n)\ntouch helpers/new.py", "", "\ntouch helpers/new.py"),
        ("cd /tmp\ncd work && rm x.txt", "", "rm /tmp/work/x.txt"),
    ],
)
def test_a_cd_out_of_the_project_or_to_an_unknown_place(tmp_path, monkeypatch, command, where, read):
    home = tmp_path / "home"
    root = tmp_path / "repo"
    (root / "fixtures").mkdir(parents=True)
    home.mkdir(exist_ok=True)
    monkeypatch.setenv("HOME", str(home))
    got = unwrap(command, where, root)
    assert read.replace("HOME", str(home)) in got, got


@pytest.mark.parametrize(
    ("command", "where", "read"),
    [
        ("cd fixtures && rm golden/a.png", "", "rm fixtures/golden/a.png"),
        ("cd ~/repo/fixtures && rm golden/a.png", "", "rm fixtures/golden/a.png"),
        ("cd /tmp\ncd HOME/repo/lib && touch helpers/x.py", "", "touch lib/helpers/x.py"),
        ("(\ncd lib\ntouch helpers/x.py\n)", "", "touch lib/helpers/x.py"),
        ("pushd lib && touch helpers/x.py && popd && touch y.txt", "", "touch lib/helpers/x.py && popd && touch y.txt"),
        # a cd whose output is sent away (silent passes: the cd was not read)
        ("pushd lib >/dev/null && touch helpers/x.py", "", "touch lib/helpers/x.py"),
        ("cd lib 2>/dev/null && touch helpers/x.py", "", "touch lib/helpers/x.py"),
        ('cd "$(git rev-parse --show-toplevel)"/lib && touch helpers/x.py', "fixtures",
         "touch lib/helpers/x.py"),
        ("pushd lib > /dev/null; touch helpers/x.py; popd >/dev/null; touch y.txt", "",
         "touch lib/helpers/x.py; popd >/dev/null; touch y.txt"),
    ],
)
def test_a_cd_inside_the_project_is_still_followed(tmp_path, monkeypatch, command, where, read):
    home = tmp_path / "home"
    root = home / "repo"
    (root / "fixtures").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    got = unwrap(command.replace("HOME", str(home)), where, root)
    assert read in got, got


# ---- "Never rename or move files in X/" and deletions, through `check` -------------------

CRITERIA = {
    "moves": ("Never rename or move files in migrations/", "block"),
    "golden": ("Never delete files under fixtures/golden/", "block"),
    "accounts": ("Never delete user accounts; deactivate them instead", "block"),
    "changelog": ("Update CHANGELOG.md with towncrier, not by hand", "block"),
}
FILES = {"CHANGELOG.md": "# Changes\n", "app/users.py": "def users():\n    pass\n", "migrations/0001_init.sql": "create table t (id int);\n", "fixtures/golden/a.png": "png",
         "tmp/0002_add.sql": "alter table t add x int;\n"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from tests import heldout_eval as E
    from tests.conftest import isolated_env

    base = tmp_path_factory.mktemp("review20")
    with isolated_env(base):
        mem, ids = E.build(base, CRITERIA, confirmed=True)
        for name, text in FILES.items():
            (mem.project.repo_dir / name).parent.mkdir(parents=True, exist_ok=True)
            (mem.project.repo_dir / name).write_text(text)
        yield mem, ids


_answer = confirmed_answer


def _edit(path: str, old: str, new: str) -> dict:
    return {"payload": {"tool_name": "Edit", "tool_input": {
        "file_path": "{repo}/" + path, "old_string": old, "new_string": new}}}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # a file there renamed or moved away
        (bash_call("git mv migrations/0001_init.sql migrations/0001_initial.sql"), "block"),
        (bash_call("mv migrations/0001_init.sql archive/"), "block"),
        (bash_call("mv -t archive/ migrations/0001_init.sql"), "block"),
        (bash_call("git mv migrations/ db/migrations/"), "block"),
        ("Rename migrations/0001_init.sql to 0001_initial.sql", "block"),
        # no rename: an edit in place, a copy or a move into the folder, a read
        (_edit("migrations/0001_init.sql", "id int", "id bigint"), "pass"),
        (bash_call("sed -i 's/int/bigint/' migrations/0001_init.sql"), "pass"),
        (bash_call("cp tmp/0002_add.sql migrations/"), "pass"),
        (bash_call("git mv tmp/0002_add.sql migrations/0002_add.sql"), "pass"),
        (bash_call("cat migrations/0001_init.sql"), "pass"),
    ],
)
def test_a_rename_rule_is_met_by_a_move_out_of_place_only(store, raw, expected):
    got = _answer(store, "moves", raw)
    assert got == expected if expected == "block" else got != "block", got


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # "never delete X": an edit deleting X (09a1b16 drafted removed:user accounts, and a
        # change's every mention of it opened the gate: any code using accounts blocked)
        (_edit("app/users.py", "    pass", "    UserAccount.objects.filter(id=uid).delete()"), "block"),
        (_edit("app/users.py", "    pass", "    user_accounts = load_user_accounts()"), "pass"),
        ({"text": "+def list_user_accounts():\n+    return UserAccount.objects.all()",
          "paths": ["app/users.py"]}, "pass"),
        (_edit("app/users.py", "    pass", "    user_account.soft_delete()"), "pass"),
        ("Delete inactive user accounts every night", "block"),
    ],
)
def test_a_deletion_rule_on_a_thing_is_met_by_deleting_it_only(store, raw, expected):
    got = _answer(store, "accounts", raw)
    assert got == expected if expected == "block" else got != "block", got


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # deletions the removed: gate read as no deletion (3ce08ab): silent passes
        ("git clean -fdx fixtures/golden/", "block"),
        ("python -c 'import os; os.remove(\"fixtures/golden/a.png\")'", "block"),
        ("python3 -c \"import shutil; shutil.rmtree('fixtures/golden')\"", "block"),
        ("python3 -c \"from pathlib import Path; Path('fixtures/golden/a.png').unlink()\"", "block"),
        ("node -e \"require('fs').rmSync('fixtures/golden/a.png')\"", "block"),
        # a dry run, a read, a deletion elsewhere
        ("git clean -n fixtures/golden/", "pass"),
        ("python3 -c \"from pathlib import Path; print(Path('fixtures/golden/a.png').read_bytes())\"",
         "pass"),
        ("python -c 'import os; os.remove(\"build/a.png\")'", "pass"),
    ],
)
def test_a_deletion_by_git_clean_or_a_script_is_read(store, command, expected):
    got = _answer(store, "golden", bash_call(command))
    assert got == expected if expected == "block" else got != "block", got


def test_not_by_hand_keeps_the_path_as_written(store):
    """'changelog.md' (the clause's lowercased word) never met CHANGELOG.md: every edit of it
    passed a confirmed rule in silence."""
    from lorestack.guardrail.sentences import read_sentence

    assert read_sentence("Update CHANGELOG.md with towncrier, not by hand").forbid == [
        "changed:path:CHANGELOG.md"]
    assert _answer(store, "changelog", _edit("CHANGELOG.md", "# Changes", "# Changes\n- fix")) == "block"
    assert _answer(store, "changelog", bash_call("towncrier build --yes")) == "pass"
    assert _answer(store, "changelog", bash_call("cat CHANGELOG.md")) == "pass"


@pytest.mark.parametrize(
    ("sentence", "frozen"),
    [
        # "only" and "fix" anywhere in a clause naming a folder froze it (ac9ce64)
        ("Run only the tests in tests/unit/ when you fix a bug", None),
        ("Put fixes for the parser in parser/ only", None),
        ("Only maintainers merge fixes to release/", None),
        ("Only fix typos in docs/ without an issue", None),
        # a folder that takes fixes only is frozen
        ("The plugins/ package only takes bug fixes now", "added:path:plugins/**"),
        ("billing/ gets bug fixes only", "added:path:billing/**"),
        ("The cli/ package accepts only bug fixes", "added:path:cli/**"),
    ],
)
def test_only_fixes_freezes_the_folder_that_takes_them(sentence, frozen):
    from lorestack.guardrail.sentences import read_sentence

    forbid = read_sentence(sentence).forbid
    assert (frozen in forbid) if frozen else not any(f.startswith("added:path:") for f in forbid), forbid


@pytest.mark.parametrize(
    ("sentence", "frozen"),
    [
        ("The feature freeze on payments/ was lifted last week", None),
        ("Announce a feature freeze for api/ in the changelog", None),
        ("Feature freeze on payments/ until the end of the quarter", "added:path:payments/**"),
        ("Feature freeze on payments/ until the audit ends", "added:path:payments/**"),
    ],
)
def test_a_feature_freeze_lifted_or_announced_is_none(sentence, frozen):
    from lorestack.guardrail.sentences import read_sentence

    forbid = read_sentence(sentence).forbid
    assert (frozen in forbid) if frozen else not any(f.startswith("added:path:") for f in forbid), forbid
