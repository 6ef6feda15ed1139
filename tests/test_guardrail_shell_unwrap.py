"""Issue 22 (nineteenth session): a command run in a subfolder, or by another command.

`cd lib && touch helpers/dates.py` was read from the project root (helpers/dates.py) and
passed a confirmed "Nothing new under lib/helpers/"; `sh -c '…'`, `bash -c "…"`, `xargs … cp`,
`find … -exec cp {} DIR \\;` were not read at all. Now the paths a command names after `cd DIR`
are read under DIR, and the inner command of a wrapper is read as if typed; what it only reads
stays a read.

Real files, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.guardrail_sentence_cases import _bash
from tests.test_guardrail_labelled import make_proposal

CRITERIA = {
    "helpers": ("Nothing new under lib/helpers/", "block"),
    "vendored": ("No changes to lib/vendored/ by hand", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("shell_unwrap")
    with isolated_env(base):
        mem, ids = E.build(base, CRITERIA, confirmed=True)
        repo = mem.project.repo_dir
        for name in ("lib/helpers/money.py", "lib/vendored/six.py"):
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            (repo / name).write_text("X = 1\n")
        yield mem, ids


@pytest.mark.parametrize(
    ("key", "command", "expected"),
    [
        # in a subfolder: the path is read under it
        ("helpers", "cd lib && touch helpers/dates.py", "block"),
        ("helpers", "cd lib/helpers && cat > slug.py <<'EOF'\ndef slug(s):\n    return s\nEOF",
         "block"),
        ("helpers", "cd lib; cp ~/retry.py helpers/", "block"),
        ("vendored", "cd lib/vendored && sed -i 's/X = 1/X = 2/' six.py", "block"),
        ("helpers", "cd tools && touch helpers/dates.py", "pass"),  # tools/helpers/
        ("helpers", "cd lib && cat helpers/money.py", "pass"),
        ("helpers", "cd lib && touch helpers/money.py", "pass"),  # there already: an edit
        # run by another command: the inner command is read
        ("helpers", "sh -c 'cp ~/retry.py lib/helpers/'", "block"),
        ("vendored", "bash -c \"sed -i 's/1/2/' lib/vendored/six.py\"", "block"),
        ("helpers", "find /tmp/new -name '*.py' -exec cp {} lib/helpers/ \\;", "block"),
        ("helpers", "xargs -I{} cp {} lib/helpers/ < files.txt", "block"),
        ("vendored", "ls lib/vendored/*.py | xargs rm", "block"),
        ("helpers", "sh -c 'head -5 lib/helpers/money.py'", "pass"),
        ("helpers", "find lib/helpers -name '*.py' -exec wc -l {} \\;", "pass"),
        ("vendored", "ls lib/vendored/*.py | xargs md5sum", "pass"),
        ("helpers", "xargs -I{} cp {} lib/build/ < files.txt", "pass"),
        # review (nineteenth session): a `cd` in a subshell ends with it; `cd -` goes back;
        # a wrapper or a `cd` inside quoted text or a heredoc's body runs nothing
        ("helpers", "(cd lib && make) && touch helpers/dates.py", "pass"),
        ("helpers", "cd lib && make; cd - && touch helpers/dates.py", "pass"),
        ("helpers", "cd lib/helpers && cd .. && touch helpers/dates.py", "block"),
        ("helpers", "echo \"cd lib && touch helpers/dates.py\" >> NOTES.md", "pass"),
        ("vendored", "git commit -m 'sh -c \"rm lib/vendored/six.py\"' -q", "pass"),
        ("helpers", "cat > NOTES.md <<'EOF'\ncd lib && touch helpers/dates.py\nEOF", "pass"),
        ("vendored", "find lib/vendored -name '*.py' -print", "pass"),
    ],
)
def test_a_command_in_a_subfolder_or_wrapped(store, key, command, expected):
    mem, ids = store
    result = check(mem, make_proposal(_bash(command), mem.project.repo_dir), retrieval=False,
                   llm=False)
    assert E.answer(result, ids[key]) == expected
