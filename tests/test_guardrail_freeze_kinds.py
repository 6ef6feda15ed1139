"""Issue 22 (eighteenth session): what a confirmed freeze of a folder blocks.

- A freeze on *new files* ("Nothing new under lib/helpers/", "closed; never add a migration
  file there") is met by a file created there, not by an edit of a file already there (an
  Edit of existing text, a Write over a file that exists, an apply_patch `*** Update File:`, a
  git diff that modifies a tracked file); a freeze on new things that may live in an existing
  file ("no new endpoints") still is; a freeze on *changing* ("No changes to lib/vendored/",
  "db/schema_v1/ is frozen") is met by both.
- A shell command adds what it moves or copies *into* the folder (`mv`, `cp`, `git mv`,
  `rsync`: the last argument) and changes what it moves *out* of it or edits in place
  (`git mv` from it, `sed -i`).
- A prohibition that names no folder, after a freeze in the same sentence ("…; never call
  eval() anywhere"), holds everywhere.
- "Use SCAN instead of the Redis KEYS command" forbids `KEYS` (the word spelled as code), never
  the recommended SCAN.

Real files, real git, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import subprocess

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.proposals import from_git_diff
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.conftest import confirmed_answer, isolated_env
from tests.guardrail_sentence_cases import _bash, _diff, _edit

CRITERIA = {
    "helpers": ("Nothing new under lib/helpers/; put the code next to its caller", "block"),
    "vendored": ("No changes to lib/vendored/ by hand; run the vendoring script", "block"),
    "schema": ("db/schema_v1/ is frozen", "block"),
    "archive": ("The migrations/archive/ folder is closed; never add a migration file there",
                "block"),
    "eval": ("The plugins/ folder is frozen; never call eval() anywhere", "block"),
    "touch_eval": ("Don't touch third_party/; never call eval() anywhere", "block"),
    "print": ("Nothing new under compat/, and no print() calls in library code either", "block"),
    "keys": ("Use SCAN instead of the Redis KEYS command", "block"),
    "insert": ("For bulk loads use COPY instead of one INSERT statement per row", "block"),
}


def _write(path: str, content: str) -> dict:
    return {"payload": {"tool_name": "Write",
                        "tool_input": {"file_path": "{repo}/" + path, "content": content}}}


def _patch(marker: str, path: str, line: str) -> dict:
    patch = f"*** Begin Patch\n*** {marker} File: {path}\n+{line}\n*** End Patch"
    return {"payload": {"tool_name": "apply_patch", "tool_input": {"input": patch}},
            "client": "codex"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("freeze_kinds")
    with isolated_env(base):
        mem, ids = E.build(base, CRITERIA, confirmed=True)
        existing = mem.project.repo_dir / "lib" / "helpers" / "money.py"
        existing.parent.mkdir(parents=True)
        existing.write_text("def cents(x):\n    return round(x * 100)\n")
        yield mem, ids


_answer = confirmed_answer


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # a freeze on adding: a new file there is blocked ...
        ("helpers", _write("lib/helpers/dates.py", "def today():\n    return date.today()"), "block"),
        ("helpers", _patch("Add", "lib/helpers/dates.py", "def today(): ..."), "block"),
        # ... an edit of a file already there is not
        ("helpers", _edit("lib/helpers/money.py", "    return round(x * 100, 0)"), "pass"),
        ("helpers", _write("lib/helpers/money.py", "def cents(x):\n    return int(x * 100)\n"), "pass"),
        ("helpers", _patch("Update", "lib/helpers/money.py", "    return int(x * 100)"), "pass"),
        # a freeze on changing: an edit is blocked too
        ("vendored", _edit("lib/vendored/six.py", "PY3 = True"), "block"),
        ("vendored", _bash("sed -i 's/PY2/PY3/' lib/vendored/six.py"), "block"),
        ("vendored", _edit("lib/compat.py", "PY3 = True"), "pass"),
        ("schema", _edit("db/schema_v1/users.sql", "  email_verified boolean,"), "block"),
        ("schema", _bash("git mv db/schema_v1/orders.sql db/schema_v2/orders.sql"), "block"),
        ("schema", _bash("cat db/schema_v1/orders.sql"), "pass"),
        # moves and copies into a folder closed to new files add; out of it they do not
        ("archive", _bash("mv 0413_backfill.sql migrations/archive/"), "block"),
        ("archive", _bash("cp 0413_backfill.sql migrations/archive/0413_backfill.sql"), "block"),
        ("archive", _bash("rsync -av squashed/ migrations/archive/"), "block"),
        ("archive", _bash("git mv migrations/archive/0001_init.sql migrations/0001_init.sql"), "pass"),
        ("archive", _bash("mv migrations/archive/0002_users.sql migrations/"), "pass"),
        ("archive", _bash("cp migrations/archive/0002_users.sql /tmp/"), "pass"),
    ],
)
def test_adding_and_changing_under_a_confirmed_freeze(store, key, raw, expected):
    assert _answer(store, key, raw) == expected


def test_a_git_diff_tells_a_new_file_from_an_edited_one(store, tmp_path):
    mem, ids = store
    repo = tmp_path / "r"
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "lib" / "helpers").mkdir(parents=True)
    (repo / "lib" / "helpers" / "money.py").write_text("def cents(x):\n    return x\n")
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    (repo / "lib" / "helpers" / "money.py").write_text("def cents(x):\n    return x * 100\n")
    edited = from_git_diff(repo)
    assert edited.existing == ["lib/helpers/money.py"]
    got = check(mem, edited, retrieval=False, llm=False)
    assert E.answer(got, ids["helpers"]) == "pass"
    (repo / "lib" / "helpers" / "dates.py").write_text("def today():\n    return 1\n")
    subprocess.run([*git, "add", "-A"], check=True)
    added = from_git_diff(repo, staged=True)
    assert "lib/helpers/dates.py" not in added.existing
    got = check(mem, added, retrieval=False, llm=False)
    assert E.answer(got, ids["helpers"]) == "block"


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # a prohibition naming no folder, after a freeze: everywhere
        ("eval", _diff("app/config_loader.py", "settings = eval(open(path).read())"), "block"),
        ("eval", _write("plugins/export.py", "def export(rows):\n    return rows"), "block"),
        ("eval", _diff("app/config_loader.py", "settings = json.loads(open(path).read())"), "pass"),
        ("touch_eval", _diff("src/calc.py", "return eval(expr)"), "block"),
        ("touch_eval", _edit("third_party/chart/chart.js", "this.width = 640;"), "block"),
        ("print", _diff("lib/acme/io.py", "    print('retrying', attempt)"), "block"),
        ("print", _write("compat/py39.py", "def removeprefix(s, p):\n    return s"), "block"),
        ("print", _diff("lib/acme/io.py", "    log.debug('retrying %s', attempt)"), "pass"),
    ],
)
def test_a_rule_after_a_freeze_holds_everywhere(store, key, raw, expected):
    assert _answer(store, key, raw) == expected


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        ("keys", _diff("app/sessions.py", "for k in redis.keys('session:*'):\n    redis.delete(k)"), "block"),
        ("keys", _diff("app/sessions.py", "for key in redis.scan_iter('session:*'):\n    redis.delete(key)"), "pass"),
        ("insert", _diff("etl/load.py", "for row in rows:\n    cur.execute('INSERT INTO events VALUES (%s)', row)"), "block"),
        ("insert", _diff("etl/load.py", "cur.copy_expert('COPY events FROM STDIN WITH CSV', buf)"), "pass"),
    ],
)
def test_the_code_word_of_what_instead_of_rules_out(store, key, raw, expected):
    assert _answer(store, key, raw) == expected


def test_what_a_command_does_to_a_path_it_names():
    from lorestack.guardrail.shell_writes import shell_effect

    def effect(cmd, word):
        return shell_effect(cmd, cmd.index(word))

    assert effect("mv a.sql migrations/archive/", "migrations/") == "written"
    assert effect("mv a.sql migrations/archive/", "a.sql") == "changed"
    assert effect("sudo cp -r out/x.png snap/ok/x.png", "snap/") == "written"
    assert effect("sudo cp -r out/x.png snap/ok/x.png", "out/") == ""  # a copy's source: read
    assert effect("git mv old/a.go new/a.go", "old/") == "changed"
    assert effect("git rm -r scripts/adhoc/2024", "scripts/") == "changed"
    assert effect("sed -i 's/a/b/' gen/x.ts", "gen/") == "changed"
    assert effect("sed 's/a/b/' gen/x.ts", "gen/") == ""
    assert effect("ls snap/ok/ | wc -l", "snap/") == ""
    assert effect("grep x audit/a.log > /tmp/out.txt", "audit/") == ""
    assert effect("echo x >> audit/a.log", "audit/") == "written"
    assert effect("ls x && mv a.sql migrations/", "a.sql") == "changed"
    # prose: only a redirect counts, never a verb that looks like a command
    assert shell_effect("Install the hook into hooks/", 21, commands=False) == ""


def test_how_the_freezes_read():
    adding = read_sentence(CRITERIA["helpers"][0])  # new files
    assert adding.forbid == ["created:path:lib/helpers/**"], adding.forbid
    # new things that may go into a file already there: an edit still adds them
    assert read_sentence("api/v1/ takes no new endpoints").forbid == ["added:path:api/v1/**"]
    changing = read_sentence(CRITERIA["vendored"][0])
    assert "changed:path:lib/vendored/**" in changing.forbid, changing.forbid
    assert "changed:path:db/schema_v1/**" in read_sentence("db/schema_v1/ is frozen").forbid
    # "frozen; no new code goes into it" is a freeze on adding
    assert read_sentence("plugins/ is frozen; no new code goes into it").forbid == [
        "added:path:plugins/**"]
    mixed = read_sentence(CRITERIA["eval"][0])
    # the eval rule applies everywhere through its keyword, the freeze under plugins/
    assert "eval" in mixed.forbid and "eval" in mixed.keywords, mixed
    # what restates the freeze is no rule of its own
    assert read_sentence("tools/perl/ is frozen. Nothing new is written there").forbid == [
        "created:path:tools/perl/**"]
    keys = read_sentence(CRITERIA["keys"][0])
    assert r"/\bkeys\b/" in keys.forbid and "scan" not in keys.forbid, keys.forbid
    # an upper-case run is one keyword: "FOR UPDATE" forbids no lone 'update'
    assert "update" not in read_sentence("Prefer SKIP LOCKED over a plain FOR UPDATE").forbid
