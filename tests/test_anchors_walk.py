"""Anchors as the walk of session 19 left them: items written before anchors were kept as
repository paths, a symbol whose file moved while the history was rewritten, odd --about
forms, and what a changed glob says."""

from __future__ import annotations

import json
import subprocess

from click.testing import CliRunner

from lorestack.cli.main import cli
from tests import test_anchors
from tests.test_anchors import _pre_tool, _remember, git, run

code_repo = test_anchors.code_repo  # the fixture: a memory in a git repository of 21 files


def _item_file(repo, item_id):
    return next(p for p in (repo / ".memory").rglob("*.md") if f"id: {item_id}\n" in p.read_text())


def _squash_history(repo):
    """Fold every commit into the root and drop the old ones (as a squash and gc would)."""
    root = subprocess.run(["git", "-C", str(repo), "rev-list", "--max-parents=0", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    git(repo, "reset", "-q", "--soft", root)
    git(repo, "commit", "-q", "--amend", "-m", "squashed")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    git(repo, "gc", "-q", "--prune=now")


def test_anchors_written_before_they_were_kept_relative_are_read_as_repository_paths(
        code_repo, long_hook_deadlines):
    """Items stored with `/repo/src/a.py` or `src//a.py` (before anchors were kept relative)
    were never handed over by the pre-tool hook; they are read as repository paths, and the
    item file is left as the user has it."""
    old_abs = _remember("Module 4 logs every retry", "--type", "fact", "--about", "src/mod04.py")
    old_dbl = _remember("Module 5 gives up after a minute", "--type", "fact",
                        "--about", "src/mod05.py:handler_5")
    for item, was, now in ((old_abs, "src/mod04.py", str(code_repo / "src" / "mod04.py")),
                           (old_dbl, "src/mod05.py", "src//mod05.py")):
        path = _item_file(code_repo, item["id"])
        path.write_text(path.read_text().replace(was, now))
    before = {i["id"]: _item_file(code_repo, i["id"]).read_bytes() for i in (old_abs, old_dbl)}
    assert "Module 4 logs" in _pre_tool(code_repo, "s-old", "src/mod04.py")
    assert "Module 5 gives up" in _pre_tool(code_repo, "s-old", "src/mod05.py")
    states = {row["id"]: row["anchors"][0] for row in json.loads(run("anchors", "--json").stdout)}
    assert states[old_abs["id"]] == {"anchor": "src/mod04.py", "state": "ok", "detail": ""}
    assert states[old_dbl["id"]] == {"anchor": "src/mod05.py:handler_5", "state": "ok",
                                     "detail": ""}
    assert "may be stale" not in run("context").stdout
    for item_id, data in before.items():
        assert _item_file(code_repo, item_id).read_bytes() == data
    # accepting writes it as it reads
    run("anchors", "accept", old_abs["id"])
    assert "- src/mod04.py\n" in _item_file(code_repo, old_abs["id"]).read_text()


def test_doctor_names_anchors_kept_in_the_old_form_and_repair_rewrites_them(code_repo):
    """Old absolute anchors were read right but never rewritten: `doctor` names them, and
    `doctor --repair` writes them as repository paths, saying what it rewrote. The pinned
    fingerprints are kept under the new names (nothing is accepted: a change stays stale)."""
    item = _remember("Module 4 logs every retry", "--type", "fact", "--about", "src/mod04.py",
                     "--about", "src/mod05.py:handler_5")
    path = _item_file(code_repo, item["id"])
    absolute = str(code_repo / "src" / "mod04.py")
    path.write_text(path.read_text().replace("src/mod04.py", absolute)
                    .replace("src/mod05.py", "src//mod05.py"))
    before = path.read_bytes()
    told = CliRunner().invoke(cli, ["doctor"]).output
    line = next(x for x in told.splitlines() if item["id"] in x and "anchor" in x)
    assert "doctor --repair" in line and absolute in line, told
    assert path.read_bytes() == before  # only named
    (code_repo / "src" / "mod05.py").write_text("def handler_5(event):\n    return -5\n")
    repaired = CliRunner().invoke(cli, ["doctor", "--repair"]).output
    line = next(x for x in repaired.splitlines() if item["id"] in x and "anchor" in x)
    assert f"{absolute} -> src/mod04.py" in line and "src//mod05.py:handler_5 -> src/mod05.py:handler_5" in line
    text = path.read_text()
    assert absolute not in text and "src//" not in text
    assert "- src/mod04.py\n" in text and "- src/mod05.py:handler_5\n" in text
    states = {a["anchor"]: a["state"] for a in next(
        r for r in json.loads(run("anchors", "--json").stdout) if r["id"] == item["id"])["anchors"]}
    assert states == {"src/mod04.py": "ok", "src/mod05.py:handler_5": "changed"}
    again = CliRunner().invoke(cli, ["doctor", "--repair"]).output
    assert not [x for x in again.splitlines() if item["id"] in x and "anchor" in x], again


def test_doctor_leaves_the_anchors_of_archived_items_as_they_are(code_repo):
    """An archived item's anchors are not checked against the code (`anchors set` refuses
    it): `doctor` named its old-form anchors and `--repair` rewrote the archived file."""
    item = _remember("Module 6 logs every retry", "--type", "fact", "--about", "src/mod06.py")
    path = _item_file(code_repo, item["id"])
    path.write_text(path.read_text().replace("src/mod06.py", str(code_repo / "src" / "mod06.py")))
    run("forget", item["id"], "--reason", "module 6 was removed")
    archived = _item_file(code_repo, item["id"])
    before = archived.read_bytes()
    for args in (["doctor"], ["doctor", "--repair"]):
        told = CliRunner().invoke(cli, args).output
        assert not [x for x in told.splitlines() if item["id"] in x and "anchor" in x], told
    assert archived.read_bytes() == before
    assert json.loads(CliRunner().invoke(cli, ["doctor", "--json"]).output)["old_form_anchors"] == []


def test_a_symbol_is_followed_to_its_new_file_after_history_is_rewritten(code_repo):
    """Once the pinned commit left the history, a symbol anchor whose file moved read "gone"
    (the whole-file case was found by its blob id); the file holding the symbol as pinned is
    found now, even when the rest of that file changed."""
    item = _remember("handler 9 retries itself", "--type", "caveat",
                     "--about", "src/mod09.py:handler_9")
    other = _remember("handler 8 is pure", "--type", "fact", "--about", "src/mod08.py:handler_8")
    git(code_repo, "add", "-A")
    git(code_repo, "commit", "-qm", "memory")
    (code_repo / "lib").mkdir()
    git(code_repo, "mv", "src/mod09.py", "lib/retry9.py")
    moved = code_repo / "lib" / "retry9.py"
    moved.write_text("import os\n\n\n" + moved.read_text() + "\n\ndef helper():\n    return 1\n")
    # handler_8 moved too but its code changed: not the code the item is about
    git(code_repo, "mv", "src/mod08.py", "lib/pure8.py")
    (code_repo / "lib" / "pure8.py").write_text("def handler_8(event):\n    return -8\n")
    git(code_repo, "add", "-A")
    git(code_repo, "commit", "-qm", "move")
    _squash_history(code_repo)
    rows = {row["id"]: row["anchors"][0] for row in json.loads(run("anchors", "--json").stdout)}
    assert rows[item["id"]] == {"anchor": "src/mod09.py:handler_9", "state": "renamed",
                                "detail": "renamed to lib/retry9.py"}
    assert rows[other["id"]]["state"] == "deleted"
    # "not found" is kept until git's index changes: putting handler_8 back as pinned finds it
    (code_repo / "lib" / "pure8.py").write_text("def handler_8(event):\n    return 8\n")
    git(code_repo, "add", "-A")
    rows = {row["id"]: row["anchors"][0] for row in json.loads(run("anchors", "--json").stdout)}
    assert rows[other["id"]]["detail"] == "renamed to lib/pure8.py"
    run("anchors", "accept", item["id"])
    rows = {row["id"]: row["anchors"][0] for row in json.loads(run("anchors", "--json").stdout)}
    assert rows[item["id"]] == {"anchor": "lib/retry9.py:handler_9", "state": "ok", "detail": ""}


def test_a_symbol_moved_out_of_a_file_that_stays_is_followed(code_repo, long_hook_deadlines):
    """`src/mod07.py:handler_7` whose function was cut into a new file (not yet added to git)
    while src/mod07.py stays read "symbol gone"; it says where the code went, and `anchors
    accept` pins the item there."""
    item = _remember("handler 7 retries itself", "--type", "caveat",
                     "--about", "src/mod07.py:handler_7")
    (code_repo / "src" / "mod07.py").write_text("def other_7(event):\n    return 0\n")
    (code_repo / "src" / "retry.py").write_text("import os\n\n\ndef handler_7(event):\n"
                                                 "    return 7\n")

    def state():
        rows = json.loads(run("anchors", "--json").stdout)
        return next(r for r in rows if r["id"] == item["id"])["anchors"][0]

    moved = {"anchor": "src/mod07.py:handler_7", "state": "moved",
             "detail": "handler_7 moved to src/retry.py"}
    assert state() == moved
    assert state() == moved  # the second look is answered from anchors.json
    assert "handler_7 moved to src/retry.py" in _pre_tool(code_repo, "s-moved", "src/mod07.py")
    assert f"{item['id']} to src/retry.py:handler_7" in run("anchors", "accept", item["id"]).stdout
    assert state() == {"anchor": "src/retry.py:handler_7", "state": "ok", "detail": ""}


def test_a_symbol_cut_before_it_is_pasted_elsewhere_is_followed(code_repo, long_hook_deadlines):
    """The cut is seen first (a hook's look between the two edits keeps "not found" until
    git's index changes), then the code is pasted into a new file and into a tracked one,
    neither added: `anchors` said "symbol gone" and `anchors accept` refused ("defines no
    handler_7 any more") until a `git add`. The user's own look searches again; the hooks
    read what it found."""
    item = _remember("handler 7 retries itself", "--type", "caveat",
                     "--about", "src/mod07.py:handler_7")
    code = (code_repo / "src" / "mod07.py").read_text()
    (code_repo / "src" / "mod07.py").write_text("def other_7(event):\n    return 0\n")
    assert "handler_7 is no longer defined" in _pre_tool(code_repo, "s-cut", "src/mod07.py")

    def state():
        rows = json.loads(run("anchors", "--json").stdout)
        return next(r for r in rows if r["id"] == item["id"])["anchors"][0]

    (code_repo / "src" / "retry.py").write_text("import os\n\n\n" + code)
    assert state()["detail"] == "handler_7 moved to src/retry.py"
    assert "handler_7 moved to src/retry.py" in _pre_tool(code_repo, "s-paste", "src/mod07.py")
    (code_repo / "src" / "retry.py").unlink()
    assert state()["state"] == "symbol gone"
    (code_repo / "src" / "mod08.py").write_text(
        (code_repo / "src" / "mod08.py").read_text() + "\n\n" + code)
    assert f"{item['id']} to src/mod08.py:handler_7" in run("anchors", "accept", item["id"]).stdout


def test_about_with_an_empty_file_or_symbol_says_what_is_missing(code_repo):
    """`--about :handler_3` and `--about src/mod03.py:` said "…: no such file"."""
    nofile = run("remember", "x is y", "--about", ":handler_3", code=1)
    assert nofile.output.count("\n") == 1 and "no such file" not in nofile.output
    assert "names no file" in nofile.output and "src/mod03.py:handler_3" in nofile.output
    nosym = run("remember", "x is y", "--about", "src/mod03.py:", code=1)
    assert nosym.output.count("\n") == 1 and "no such file" not in nosym.output
    assert "names no symbol" in nosym.output and "'src/mod03.py'" in nosym.output
    item = _remember("Module 2 is fine", "--about", "src/mod02.py")
    again = run("anchors", "set", item["id"], "--about", "src/mod02.py:", code=1)
    assert "names no symbol" in again.output and again.output.count("\n") == 1


def test_a_changed_glob_says_which_files_changed(code_repo):
    """A glob anchor showed the detail "changed" next to the state "changed"."""
    item = _remember("Handlers all return their number", "--about", "src/mod0*.py")
    git(code_repo, "add", "-A")
    git(code_repo, "commit", "-qm", "memory")
    (code_repo / "src" / "mod03.py").write_text("def handler_3(event):\n    return 33\n")
    (code_repo / "src" / "mod04.py").unlink()
    (code_repo / "src" / "mod0x.py").write_text("x = 1\n")
    row = json.loads(run("anchors", "--json").stdout)[0]
    assert row["id"] == item["id"]
    state = row["anchors"][0]
    assert state["state"] == "changed" and state["detail"] != "changed"
    for said in ("src/mod03.py changed", "src/mod04.py removed", "src/mod0x.py added"):
        assert said in state["detail"]
    table = run("anchors").output
    assert "changed  changed" not in table and "changed changed" not in table
    # pinned on a file no commit holds: git cannot say which changed, the count is said
    (code_repo / "src" / "new1.py").write_text("a = 1\n")
    fresh = _remember("New modules are experimental", "--about", "src/new*.py")
    (code_repo / "src" / "new1.py").write_text("a = 2\n")
    row = next(r for r in json.loads(run("anchors", "--json").stdout) if r["id"] == fresh["id"])
    assert row["anchors"][0] == {"anchor": "src/new*.py", "state": "changed",
                                 "detail": "1 file matches it now"}


def test_about_a_symbol_copied_with_its_call_parens_or_written_as_a_pattern(code_repo):
    """`--about src/mod03.py:handler_3(` was refused "no such file" although the file exists,
    and `src/mod03.py:handler_*` was kept as a file glob that can never match."""
    for typed in ("src/mod03.py:handler_3(", "src/mod03.py:handler_3()",
                  "src/mod03.py:handler_3(event)"):
        item = _remember("Module 3 answers three", "--about", typed)
        assert item["anchors"] == ["src/mod03.py:handler_3"], typed
    for typed in ("src/mod03.py:handler_*", "src/mod03.py:handler.*", "src/mod0*.py:handler_?"):
        refused = run("remember", "x is y", "--about", typed, code=1)
        assert refused.output.count("\n") == 1 and "no such file" not in refused.output, typed
        assert "one name, not a pattern" in refused.output, typed
    dotted = run("remember", "x is y", "--about", "src/mod03.py:Handler.run", code=1)
    assert dotted.output.count("\n") == 1 and "no such file" not in dotted.output
    assert "'src/mod03.py:run'" in dotted.output


def test_the_viewers_item_page_looks_for_a_moved_symbol_again(code_repo, long_hook_deadlines):
    """After a hook's look kept "not found" for a cut symbol, the code pasted into a new file
    showed "symbol gone" on the viewer's item page while `lorestack anchors` said where it
    went: the page is the user's own look, as the command is."""
    from starlette.testclient import TestClient

    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.memory import Memory

    item = _remember("handler 7 retries itself", "--type", "caveat",
                     "--about", "src/mod07.py:handler_7")
    code = (code_repo / "src" / "mod07.py").read_text()
    (code_repo / "src" / "mod07.py").write_text("def other_7(event):\n    return 0\n")
    assert "handler_7 is no longer defined" in _pre_tool(code_repo, "s-cut", "src/mod07.py")
    (code_repo / "src" / "retry.py").write_text("import os\n\n\n" + code)
    viewer = create_app(Memory.open(code_repo), "tok-21", run_doctor=False)
    try:
        client = TestClient(viewer, base_url="http://127.0.0.1:8765")
        client.cookies.set("lorestack_ui_8765", "tok-21")
        page = client.get(f"/items/{item['id']}")
    finally:
        viewer.state.close()
    assert page.status_code == 200
    assert "handler_7 moved to src/retry.py" in page.text, page.text[-3000:]
