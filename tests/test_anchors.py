"""Memory anchored to code (issue 25): items name the files and symbols they are about, go
"may be stale" when that code changes, and arrive when the agent is about to open the file."""

from __future__ import annotations

import json
import subprocess

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers.anchors import AnchorIndex, parse, symbol_lines

REPO_TS = """import { db } from "../db";

export async function getUserById(id: string) {
  const cached = cache.get(id);
  if (cached) return cached;
  const row = await db.users.find(id);
  cache.set(id, row, 60);
  return row;
}

export function listUsers() {
  return db.users.all();
}
"""


def run(*args, code=0):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, result.output
    return result


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), "-c", "user.email=t@e", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


@pytest.fixture
def code_repo(repo):
    """An initialised memory in a git repository with 20 source files and src/users/repo.ts."""
    git(repo, "init", "-q")
    (repo / "src" / "users").mkdir(parents=True)
    (repo / "src" / "users" / "repo.ts").write_text(REPO_TS)
    for n in range(20):
        (repo / "src" / f"mod{n:02d}.py").write_text(f"def handler_{n}(event):\n    return {n}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    return repo


def _remember(*args) -> dict:
    return json.loads(run("remember", *args, "--json").stdout)["item"]


def test_twenty_anchored_items_flag_exactly_the_five_whose_files_changed(code_repo):
    ids = {}
    for n in range(20):
        ids[n] = _remember(f"Module {n} handles retries itself", "--type", "caveat",
                           "--about", f"src/mod{n:02d}.py")["id"]
    changed = [1, 4, 9, 13, 18]
    for n in changed:
        path = code_repo / "src" / f"mod{n:02d}.py"
        path.write_text(path.read_text() + "\n\ndef extra():\n    return None\n")
    rows = json.loads(run("anchors", "--stale", "--json").stdout)
    assert sorted(r["id"] for r in rows) == sorted(ids[n] for n in changed)
    assert all(r["anchors"][0]["state"] == "changed" for r in rows)
    assert all(r["anchors"][0]["detail"] == "+4 -0 lines" for r in rows)
    # a renamed file is followed to its new name; a deleted one is said so
    git(code_repo, "mv", "src/mod02.py", "src/mod02_renamed.py")
    (code_repo / "src" / "mod03.py").unlink()
    states = {r["id"]: r["anchors"][0] for r in json.loads(run("anchors", "--json").stdout)}
    assert states[ids[2]]["state"] == "renamed"
    assert states[ids[2]]["detail"] == "renamed to src/mod02_renamed.py"
    assert states[ids[3]]["state"] == "deleted"
    assert sum(s["state"] == "ok" for s in states.values()) == 13


def test_text_names_become_anchors_and_a_symbol_change_is_sized(code_repo):
    item = _remember("getUserById caches for 60 s; invalidate on role change", "--type", "caveat")
    assert item["anchors"] == ["src/users/repo.ts:getUserById"]
    other = _remember("src/mod05.py is the only place that handles retries", "--type", "fact")
    assert other["anchors"] == ["src/mod05.py"]
    plain = _remember("We deploy on Tuesdays", "--type", "fact")
    assert plain["anchors"] == []
    path = code_repo / "src" / "users" / "repo.ts"
    path.write_text(path.read_text().replace("cache.set(id, row, 60);",
                                             "cache.set(id, row, 300);"))
    # a change outside the symbol leaves it fresh
    listed = json.loads(run("anchors", "--json").stdout)
    state = {r["id"]: r["anchors"][0] for r in listed}[item["id"]]
    assert state["state"] == "changed" and state["detail"] == "+1 -1 lines"
    text = run("context").stdout
    line = next(ln for ln in text.splitlines() if "getUserById caches" in ln)
    assert "may be stale: src/users/repo.ts:getUserById +1 -1 lines" in line
    assert "Module" not in text or "may be stale" not in text.replace(line, "")
    run("reindex")
    assert item["id"] in run("doctor").stdout
    assert item["id"] in run("review").stdout
    # --json holds what the text shows (it left the "may be stale" items out: trial finding)
    stale = json.loads(run("review", "--json").stdout)["stale"]
    assert [s["id"] for s in stale] == [item["id"]] and "may be stale" in stale[0]["note"]
    run("review", "accept", item["id"])
    assert json.loads(run("review", "--json").stdout) == {"pending": [], "stale": []}
    assert "may be stale" not in run("context").stdout
    path.write_text(path.read_text().replace("export function listUsers", "function listAll"))
    assert "may be stale" not in run("context").stdout  # another symbol changed


def test_a_deleted_symbol_is_said_so(code_repo):
    item = _remember("listUsers is paginated by the caller", "--type", "caveat",
                     "--about", "src/users/repo.ts:listUsers")
    path = code_repo / "src" / "users" / "repo.ts"
    path.write_text(path.read_text().replace("export function listUsers() {\n  return "
                                             "db.users.all();\n}\n", ""))
    state = json.loads(run("anchors", "--json").stdout)[0]["anchors"][0]
    assert state["state"] == "symbol gone" and item["id"]


def test_accepting_a_renamed_anchor_follows_the_rename(code_repo):
    """`anchors accept` / `review accept` on an item whose file was renamed pins it to the
    file under its new name (symbol kept), not to the old path, which is gone."""
    item = _remember("listUsers reads every row", "--type", "caveat",
                     "--about", "src/users/repo.ts:listUsers")
    plain = _remember("Module 7 retries itself", "--type", "caveat", "--about", "src/mod07.py")
    git(code_repo, "add", "-A")
    git(code_repo, "commit", "-qm", "memory")
    git(code_repo, "mv", "src/users/repo.ts", "src/users/store.ts")
    git(code_repo, "mv", "src/mod07.py", "src/retry.py")
    git(code_repo, "commit", "-qm", "rename")
    states = {r["id"]: r["anchors"][0] for r in json.loads(run("anchors", "--json").stdout)}
    assert states[item["id"]]["state"] == "renamed"
    run("review", "accept", item["id"])
    run("anchors", "accept", plain["id"])
    rows = {r["id"]: r["anchors"] for r in json.loads(run("anchors", "--json").stdout)}
    assert rows[item["id"]] == [{"anchor": "src/users/store.ts:listUsers", "state": "ok",
                                 "detail": ""}]
    assert rows[plain["id"]] == [{"anchor": "src/retry.py", "state": "ok", "detail": ""}]
    assert "may be stale" not in run("review").stdout


def test_accepting_an_anchor_whose_code_is_gone_is_refused(code_repo):
    """`anchors accept` on an item whose file was deleted (or whose symbol was) said
    "re-anchored" and exited 0, yet the item stayed "may be stale" for good: there is no code
    to pin it to. It is refused in one line naming what to do; nothing changes."""
    gone = _remember("Module 3 retries itself", "--type", "caveat", "--about", "src/mod03.py")
    symbol = _remember("listUsers reads every row", "--type", "caveat",
                       "--about", "src/users/repo.ts:listUsers")
    (code_repo / "src" / "mod03.py").unlink()
    path = code_repo / "src" / "users" / "repo.ts"
    path.write_text(path.read_text().replace("export function listUsers() {\n  return "
                                             "db.users.all();\n}\n", ""))
    def item_file(item_id):
        return next(p for p in (code_repo / ".memory").rglob("*.md")
                    if f"id: {item_id}\n" in p.read_text())

    before = {i: item_file(i).read_bytes() for i in (gone["id"], symbol["id"])}
    for item, says in ((gone, "src/mod03.py is gone"), (symbol, "defines no listUsers")):
        for command in (["anchors", "accept"], ["review", "accept"]):
            refused = run(*command, item["id"], code=1)
            assert says in refused.stderr and refused.stderr.count("\n") == 1, refused.stderr
            assert "anchors set" in refused.stderr and "--clear" in refused.stderr
            assert "re-anchored" not in refused.stdout
    for item_id, data in before.items():
        assert item_file(item_id).read_bytes() == data


def test_a_rename_is_followed_after_history_is_rewritten(code_repo):
    """The commit an item was pinned at can leave the history (a squash, a rebase): git can no
    longer say the file was renamed, and `anchors` said "the file is gone" of a file that sits
    under its new name, unchanged; accepting then refused it."""
    item = _remember("Module 9 retries itself", "--type", "caveat", "--about", "src/mod09.py")
    git(code_repo, "add", "-A")
    git(code_repo, "commit", "-qm", "memory")
    git(code_repo, "mv", "src/mod09.py", "src/retry9.py")
    git(code_repo, "commit", "-qm", "rename")
    root = subprocess.run(["git", "-C", str(code_repo), "rev-list", "--max-parents=0", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    git(code_repo, "reset", "-q", "--soft", root)
    git(code_repo, "commit", "-q", "--amend", "-m", "squashed")
    git(code_repo, "reflog", "expire", "--expire=now", "--all")
    git(code_repo, "gc", "-q", "--prune=now")
    state = json.loads(run("anchors", "--json").stdout)[0]["anchors"][0]
    assert state == {"anchor": "src/mod09.py", "state": "renamed",
                     "detail": "renamed to src/retry9.py"}
    run("anchors", "accept", item["id"])
    assert json.loads(run("anchors", "--json").stdout)[0]["anchors"][0]["anchor"] == "src/retry9.py"


def test_anchors_set_and_accept_print_json(code_repo):
    item = _remember("Module 5 retries itself", "--type", "caveat", "--about", "src/mod05.py")
    moved = json.loads(run("anchors", "set", item["id"], "--about", "src/mod06.py:handler_6",
                           "--json").stdout)
    assert moved == {"id": item["id"], "anchors": ["src/mod06.py:handler_6"]}
    accepted = json.loads(run("anchors", "accept", item["id"], "--json").stdout)
    assert accepted == [{"id": item["id"], "anchors": ["src/mod06.py:handler_6"]}]


def test_anchors_set_without_about_keeps_them_and_clear_removes_them(code_repo):
    item = _remember("Module 5 retries itself", "--type", "caveat", "--about", "src/mod05.py")
    forgot = run("anchors", "set", item["id"], code=2)  # the option forgotten: nothing lost
    assert "give --about PATH[:SYMBOL] (or --clear to remove every anchor)" in forgot.output
    both = run("anchors", "set", item["id"], "--about", "src/mod06.py", "--clear", code=2)
    assert "not both" in both.output
    rows = {r["id"]: r["anchors"] for r in json.loads(run("anchors", "--json").stdout)}
    assert [a["anchor"] for a in rows[item["id"]]] == ["src/mod05.py"]
    cleared = json.loads(run("anchors", "set", item["id"], "--clear", "--json").stdout)
    assert cleared == {"id": item["id"], "anchors": []}
    assert item["id"] not in {r["id"] for r in json.loads(run("anchors", "--json").stdout)}


def test_an_anchor_outside_the_repository_is_refused(code_repo):
    # trial2 finding: `anchors set ID --about ../../../etc/passwd` was accepted and pinned
    item = _remember("Module 5 retries itself", "--type", "caveat", "--about", "src/mod05.py")
    for outside in ("../../../../../../etc/passwd", "/etc/passwd", "src/../../x/**"):
        refused = run("anchors", "set", item["id"], "--about", outside, code=1)
        assert "is outside the repository" in refused.output and "Traceback" not in refused.output
        run("remember", "Module 6 retries", "--type", "caveat", "--about", outside, code=1)
    rows = {r["id"]: r["anchors"] for r in json.loads(run("anchors", "--json").stdout)}
    assert [a["anchor"] for a in rows[item["id"]]] == ["src/mod05.py"]
    inside = json.loads(run("anchors", "set", item["id"], "--about", "src/../src/mod06.py",
                            "--json").stdout)
    assert inside["anchors"] and inside["anchors"][0].endswith("mod06.py")


def test_search_and_context_by_place(code_repo):
    caveat = _remember("getUserById caches for 60 s", "--type", "caveat")
    crit = _remember("Never call db.users directly from handlers", "--type", "criterion",
                     "--about", "src/users/repo.ts", "--keyword", "db.users", "--forbid",
                     "db.users")
    _remember("Module 7 retries three times", "--type", "fact", "--about", "src/mod07.py")
    listed = json.loads(run("search", "--about", "src/users/repo.ts", "--json").stdout)
    assert [r["id"] for r in listed] == [crit["id"], caveat["id"]]  # criteria first
    about = run("context", "--about", "src/users/repo.ts").stdout
    assert about.index("db.users directly") < about.index("caches for 60 s")
    assert "Module 7" not in about
    assert "nothing is anchored" in run("search", "--about", "src/nothing.py").output


def _pre_tool(repo, session, path, tool="Read"):
    from tests.conftest import run_cli

    payload = {"session_id": session, "cwd": str(repo), "hook_event_name": "PreToolUse",
               "tool_name": tool, "tool_input": {"file_path": str(repo / path)}}
    done = run_cli("hook", "pre-tool", "--client", "claude-code", input=json.dumps(payload),
                   cwd=repo)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_pre_tool_hook_hands_a_files_memory_once_per_session(code_repo, long_hook_deadlines):
    _remember("getUserById caches for 60 s; invalidate on role change", "--type", "caveat")
    _remember("Module 7 retries three times", "--type", "fact", "--about", "src/mod07.py")
    first = json.loads(_pre_tool(code_repo, "s1", "src/users/repo.ts"))
    context = first["hookSpecificOutput"]["additionalContext"]
    assert first["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    assert "caches for 60 s" in context and "Module 7" not in context
    assert _pre_tool(code_repo, "s1", "src/users/repo.ts", "Edit") == ""  # once per session
    assert "caches for 60 s" in _pre_tool(code_repo, "s2", "src/users/repo.ts", "Edit")
    assert _pre_tool(code_repo, "s1", "src/mod01.py") == ""  # nothing anchored there


def test_install_adds_the_pre_tool_hook_for_file_tools(code_repo):
    run("install", "claude-code", "--scope", "project")
    settings = json.loads((code_repo / ".claude" / "settings.json").read_text())
    groups = settings["hooks"]["PreToolUse"]
    assert [g["matcher"] for g in groups] == ["Read|Edit|Write|MultiEdit"]
    assert "hook pre-tool --client claude-code" in groups[0]["hooks"][0]["command"]


def test_anchors_are_kept_relative_to_the_repository(code_repo, long_hook_deadlines):
    """`--about /abs/path/in/repo` or `--about src//mod05.py` was kept as given: `anchors` showed
    it "ok", but the pre-tool hook, which looks up the file's repository path, never handed
    the item over when the file was read."""
    absolute = _remember("Module 4 logs every retry", "--type", "fact",
                         "--about", str(code_repo / "src" / "mod04.py"))
    assert absolute["anchors"] == ["src/mod04.py"]
    plain = _remember("Module 6 gives up after a minute", "--type", "fact", "--about", "src/mod06.py")
    moved = json.loads(run("anchors", "set", plain["id"], "--about", "src//mod05.py:handler_5",
                           "--json").stdout)
    assert moved["anchors"] == ["src/mod05.py:handler_5"]
    assert "Module 4 logs" in _pre_tool(code_repo, "s-abs", "src/mod04.py")
    assert "Module 6 gives up" in _pre_tool(code_repo, "s-abs", "src/mod05.py")


def test_the_pre_tool_hook_reads_a_relative_path_from_the_agents_folder(code_repo,
                                                                     long_hook_deadlines):
    """A tool given a relative path names it from the agent's working folder (the payload's
    cwd), not from the repository's top: from src/users, `../mod07.py` got nothing."""
    from tests.conftest import run_cli

    _remember("Module 7 retries three times", "--type", "fact", "--about", "src/mod07.py")
    payload = {"session_id": "s-rel", "cwd": str(code_repo / "src" / "users"),
               "hook_event_name": "PreToolUse", "tool_name": "Read",
               "tool_input": {"file_path": "../mod07.py"}}
    done = run_cli("hook", "pre-tool", "--client", "claude-code", input=json.dumps(payload),
                   cwd=code_repo)
    assert done.returncode == 0 and "Module 7 retries" in done.stdout, done.stderr


def test_hook_help_names_every_event():
    """`lorestack hook --help` said "EVENT is session-start, prompt or session-end": the
    pre-tool event, which hands over a file's memory, was missing."""
    from lorestack.core.clients import EVENTS

    text = " ".join(run("hook", "--help").output.split())
    for event in EVENTS:
        assert event in text, event


def test_symbol_lines_in_python_and_braces():
    py = "x = 1\n\n\ndef f(a):\n    if a:\n        return 1\n    return 2\n\n\ndef g():\n    pass\n"
    assert symbol_lines(py, "f") == ["def f(a):", "    if a:", "        return 1", "    return 2"]
    assert symbol_lines(REPO_TS, "listUsers") == [
        "export function listUsers() {", "  return db.users.all();", "}"]
    assert symbol_lines(py, "h") is None
    assert parse("./src/a.ts:getUser") == parse("src/a.ts:getUser")
    assert parse("C:/work/a.ts").symbol == ""


def test_fingerprints_are_cached_by_stat(code_repo, monkeypatch):
    index = AnchorIndex(code_repo, code_repo / ".memory" / ".index")
    first = index.fingerprint(parse("src/mod01.py"))
    index.save()
    again = AnchorIndex(code_repo, code_repo / ".memory" / ".index")
    monkeypatch.setattr(again, "_read", lambda rel: pytest.fail("read a file whose stat held"))
    assert again.fingerprint(parse("src/mod01.py")) == first


def test_consolidation_proposes_anchors_from_its_events(code_repo):
    from datetime import datetime, timedelta, timezone

    from lorestack.consolidation.job import run_consolidation
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import log_event

    mem = Memory.open(code_repo, **{"consolidation.pending_review": False})
    base = datetime(2026, 1, 5, 10, 0, tzinfo=timezone.utc)
    for n, text in enumerate([
        "Decided: getUserById in src/users/repo.ts keeps its 60 s cache",
        "Decided again: the 60 s cache in getUserById stays, role changes invalidate it",
    ]):
        log_event(mem, text, "decision", time=base + timedelta(hours=n))
    report = run_consolidation(mem, now=base + timedelta(days=1))
    assert report.added
    item = next(li.item for li in mem.load_items().items if li.item.id in report.added)
    assert "src/users/repo.ts:getUserById" in item.anchors
    assert (item.model_extra or {}).get("anchored")


def test_an_anchor_names_code_that_exists(code_repo):
    missing = run("remember", "x is y", "--about", "src/nope.ts", code=1).output
    assert "no such file" in missing and missing.count("\n") == 1
    nosym = run("remember", "x is y", "--about", "src/users/repo.ts:nothingHere", code=1).output
    assert "defines no nothingHere" in nosym
    glob = _remember("Migrations are reviewed by the DBA", "--about", "migrations/**/*.sql")
    assert glob["anchors"] == ["migrations/**/*.sql"]
    assert "may be stale" not in run("context").stdout  # matching nothing yet is not stale
    assert "no journal event" not in run("anchors", "accept", "zzzz9", code=1).output
    # a folder was "no such file" although it is there: say how to name what is in it
    folder = run("remember", "x is y", "--about", "src/users", code=1).output
    assert "is a folder" in folder and "src/users/**" in folder and folder.count("\n") == 1


def test_the_viewer_says_may_be_stale(code_repo):
    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.memory import Memory

    item = _remember("getUserById caches for 60 s", "--type", "caveat")
    path = code_repo / "src" / "users" / "repo.ts"
    path.write_text(path.read_text().replace("60);", "300);"))
    viewer = create_app(Memory.open(code_repo), "tok", run_doctor=False)
    try:
        client = TestClient(viewer, base_url="http://127.0.0.1:8765")
        client.cookies.set("lorestack_ui_8765", "tok")
        page = client.get(f"/items/{item['id']}")
        assert page.status_code == 200
        assert "may be stale: +1 -1 lines" in page.text
        assert "src/users/repo.ts:getUserById" in page.text
    finally:
        viewer.state.close()


def test_the_files_a_shell_command_names(tmp_path):
    """Codex's pre-tool event carries a shell command: the files it names stand for the file."""
    from lorestack.app.shell_paths import MAX_FILES, files_in_command

    repo = tmp_path / "repo"
    (repo / "src" / "users").mkdir(parents=True)
    for name in ("src/users/repo.ts", "src/a.ts", "src/b.ts", "src/c.ts", "src/d.ts"):
        (repo / name).write_text("x\n")
    (tmp_path / "outside.ts").write_text("x\n")
    src = repo / "src"
    assert files_in_command("sed -n 1,80p src/users/repo.ts", repo, repo) == ["src/users/repo.ts"]
    assert files_in_command("cat users/repo.ts | head -5", src, repo) == ["src/users/repo.ts"]
    assert files_in_command(f"cat {repo / 'src/a.ts'} ../outside.ts", repo, repo) == ["src/a.ts"]
    patch = "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/b.ts\n@@\n-x\n+y\n*** End Patch\nEOF"
    assert files_in_command(patch, repo, repo) == ["src/b.ts"]
    assert files_in_command("rg -n getUserById src/", repo, repo) == []  # a folder, no file
    assert files_in_command("cat 'src/a.ts", repo, repo) == []  # unbalanced quote: no such word
    many = " ".join(f"src/{c}.ts" for c in "abcd") + " src/users/repo.ts"
    assert MAX_FILES < 5 and files_in_command(f"wc -l {many}", repo, repo) == []


def test_review_lists_pending_claims_and_stale_items_together(code_repo):
    """`review` reads the store once for both lists (a 10k store was parsed twice)."""
    item = _remember("getUserById caches for 60 s; invalidate on role change", "--type", "caveat")
    claim = code_repo / ".memory" / "facts" / "claim.md"
    claim.write_text("---\nid: fact-claim01\ntype: fact\ntitle: The queue is Redis streams\n"
                     "status: pending\nconfidence: 0.6\n---\nThe queue is Redis streams.\n")
    path = code_repo / "src" / "users" / "repo.ts"
    path.write_text(path.read_text().replace("cache.set(id, row, 60);", "cache.set(id, 1);"))
    listed = json.loads(run("review", "--json").stdout)
    assert [p["id"] for p in listed["pending"]] == ["fact-claim01"]
    assert [s["id"] for s in listed["stale"]] == [item["id"]]
    text = run("review").stdout
    assert "fact-claim01" in text and item["id"] in text and "may be stale" in text
