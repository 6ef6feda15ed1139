"""Issue 22 (eighteenth session's review): what a shell command or a file's content names is
not a change to that path.

An absolute path in a tool call was taken for a path the call touches, and made the whole
call a change (every gate open, the command's own words no longer read):
- `/bin/sh` in a shebang, `/usr/bin/env`, `/tmp/out.txt` met "Don't add new scripts to bin/"
  (a Write of scripts/deploy.sh, a heredoc into tools/), and hid the path the command really
  writes (`cat > lib/helpers/dates.py <<EOF` with `#!/usr/bin/env python3` passed);
- the project's own files named absolutely, as agents name them (`cat /repo/lib/vendored/six.py`,
  `ls /repo/lib/helpers/`, `cd /repo && …`), were changes: a read blocked a confirmed freeze,
  and `cd /repo && touch lib/helpers/dates.py` passed one.
Now a command's absolute paths inside the project are read as its relative ones, where the
command's words say what it does to them; a path outside the project is none of its files.

Real files, real git, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import subprocess

import pytest

from lorestack.guardrail.check import check
from tests import heldout_eval as E
from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _bash

CRITERIA = {
    "helpers": ("Nothing new under lib/helpers/; put the code next to its caller", "block"),
    "bin": ("Don't add new scripts to bin/", "block"),
    "vendored": ("No changes to lib/vendored/ by hand; run the vendoring script", "block"),
}
FILES = {
    "lib/helpers/money.py": "def cents(x):\n    return x\n",
    "bin/run.sh": "#!/bin/sh\necho run\n",
    "lib/vendored/six.py": "PY3 = True\n",
}


def _write(path: str, content: str) -> dict:
    return {"payload": {"tool_name": "Write",
                        "tool_input": {"file_path": "{repo}/" + path, "content": content}}}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("command_paths"), CRITERIA, FILES) as made:
        yield made


_answer = confirmed_answer


SCRIPT = "cat > {where} <<'EOF'\n{shebang}\necho deploy\nEOF"


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # a path outside the project is no file of it: /bin/sh is not bin/
        ("bin", _bash(SCRIPT.format(where="scripts/deploy.sh", shebang="#!/bin/sh")), "pass"),
        ("bin", _bash(SCRIPT.format(where="tools/x.sh", shebang="#!/usr/bin/env bash")), "pass"),
        # (a new script elsewhere is near "new scripts" by meaning: undecided, never a block)
        ("bin", _write("scripts/deploy.sh", "#!/bin/sh\necho deploy\n"), "no block"),
        ("bin", _write("bin/run.sh", "#!/bin/sh\necho run again\n"), "pass"),  # there already
        # ... and no longer hides the path the command writes
        ("bin", _bash(SCRIPT.format(where="bin/x.sh", shebang="#!/bin/sh")), "block"),
        ("helpers", _bash(SCRIPT.format(where="lib/helpers/dates.py",
                                        shebang="#!/usr/bin/env python3")), "block"),
        ("helpers", _bash("python3 tools/gen.py > lib/helpers/dates.py 2>/tmp/gen.log"), "block"),
        # the project's files named absolutely: what the command does to them decides
        ("vendored", _bash("cat {repo}/lib/vendored/six.py"), "pass"),
        ("vendored", _bash("grep -n PY3 {repo}/lib/vendored/six.py"), "pass"),
        ("vendored", _bash("sed -i 's/True/False/' {repo}/lib/vendored/six.py"), "block"),
        ("helpers", _bash("ls {repo}/lib/helpers/"), "pass"),
        ("helpers", _bash("python -m pytest {repo}/lib/helpers/ -q"), "pass"),
        ("helpers", _bash("cat > {repo}/lib/helpers/dates.py <<'EOF'\ndef f(): ...\nEOF"), "block"),
        ("helpers", _bash("cp /tmp/dates.py {repo}/lib/helpers/"), "block"),
        ("helpers", _bash("cd {repo} && touch lib/helpers/dates.py"), "block"),
    ],
)
def test_what_a_command_names_absolutely(store, key, raw, expected):
    got = _answer(store, key, raw)
    assert got != "block" if expected == "no block" else got == expected, got


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # a freeze on new files: a command writing a file that is there already edits it
        ("helpers", _bash("echo '    return round(x)' >> lib/helpers/money.py"), "pass"),
        ("helpers", _bash("cat > lib/helpers/money.py <<'EOF'\ndef cents(x):\n    return 0\nEOF"),
         "pass"),
        ("helpers", _bash("touch lib/helpers/money.py"), "pass"),
        ("helpers", _bash("black lib/helpers/money.py | tee lib/helpers/money.py"), "pass"),
        # ... a rename inside the folder adds no file to it
        ("helpers", _bash("git mv lib/helpers/money.py lib/helpers/currency.py"), "pass"),
        ("helpers", _bash("mv lib/helpers/money.py lib/helpers/currency.py"), "pass"),
        # ... while a new file, or one moved in from elsewhere, is still new there
        ("helpers", _bash("touch lib/helpers/dates.py"), "block"),
        ("helpers", _bash("echo 'X = 1' >> lib/helpers/dates.py"), "block"),
        ("helpers", _bash("git mv lib/dates.py lib/helpers/dates.py"), "block"),
        ("helpers", _bash("cp lib/helpers/money.py lib/helpers/money2.py"), "block"),
        # a freeze on changing: writing a file there is a change all the same
        ("vendored", _bash("echo 'PY2 = False' >> lib/vendored/six.py"), "block"),
        ("vendored", _bash("git mv lib/vendored/six.py lib/vendored/six_compat.py"), "block"),
    ],
)
def test_a_command_writing_a_file_already_there(store, key, raw, expected):
    assert _answer(store, key, raw) == expected


def test_a_commit_moving_a_file_into_a_folder_closed_to_new_files(store, tmp_path):
    """`git mv src/app.py lib/helpers/app.py` staged: git shows a rename, no `new file mode`,
    and the moved file was read as one already there (the pre-commit hook let it pass); a
    rename inside one folder is still no new file."""
    from lorestack.guardrail.proposals import from_git_diff

    mem, ids = store
    repo = tmp_path / "r"
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for name, text in {**FILES, "src/app.py": "def main():\n    return 0\n"}.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)

    def staged():
        got = check(mem, from_git_diff(repo, staged=True), retrieval=False, llm=False)
        return E.answer(got, ids["helpers"])

    subprocess.run([*git, "mv", "lib/helpers/money.py", "lib/helpers/currency.py"], check=True)
    assert staged() == "pass"
    subprocess.run([*git, "commit", "-qm", "rename"], check=True)
    subprocess.run([*git, "mv", "src/app.py", "lib/helpers/app.py"], check=True)
    assert staged() == "block"


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # where a flag names the destination, the files go there
        ("helpers", _bash("mv -t lib/helpers/ dates.py"), "block"),
        ("helpers", _bash("cp --target-directory=lib/helpers/ dates.py"), "block"),
        ("helpers", _bash("tar xzf helpers.tgz -C lib/helpers/"), "block"),
        ("helpers", _bash("unzip -o helpers.zip -d lib/helpers/"), "block"),
        ("helpers", _bash("git checkout feature/dates -- lib/helpers/dates.py"), "block"),
        ("helpers", _bash("git restore --source=feature/dates lib/helpers/dates.py"), "block"),
        # ... and nothing goes where a flag only reads from
        ("helpers", _bash("mv -t attic/ lib/helpers/money.py"), "pass"),
        ("helpers", _bash("tar czf /tmp/helpers.tgz -C lib/helpers/ ."), "pass"),
        ("helpers", _bash("git checkout -- lib/helpers/money.py"), "pass"),
        ("vendored", _bash("git restore lib/vendored/six.py"), "pass"),
    ],
)
def test_a_destination_named_by_a_flag(store, key, raw, expected):
    assert _answer(store, key, raw) == expected


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # a quoted path with a space is one word of the command
        ("helpers", _bash('cp dates.py "lib/helpers/my dates.py"'), "block"),
        ("helpers", _bash("mv 'old notes.txt' 'lib/helpers/old notes.txt'"), "block"),
        ("helpers", _bash('cp "lib/helpers/money.py" "attic/money copy.py"'), "pass"),
    ],
)
def test_a_quoted_path_with_a_space(store, key, raw, expected):
    assert _answer(store, key, raw) == expected
