"""Two memory files with one id: every command reads, shows and changes the same one of them,
and the other is named with both paths and how to fix it."""

import json

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("kind,copied_to", [("caveat", "facts/fm-dupid.md"),
                                            ("fact", "caveats/aa-copy.md")])
def test_every_command_takes_the_same_file_for_a_duplicated_id(repo, kind, copied_to):
    """A caveat copied by hand into facts/ keeping its id: `list`, `show` and `forget` took the
    copy (the store read facts/ before caveats/) while `search`, `context` and the hooks kept the
    original (the index sorted by path), so `forget <id>` archived a file other than the one
    search had shown (a fact copied into caveats/: the other way round). The file in its type's
    folder is the one every command takes."""
    made = run_cli("remember", "--type", kind,
                   "The staging database resets every Sunday at 03:00", "--json", cwd=repo)
    assert made.returncode == 0, made.stderr
    item_id = json.loads(made.stdout)["item"]["id"]
    memory = repo / ".memory"
    (original,) = (memory / f"{kind}s").glob("*.md")
    copy = memory / copied_to
    copy.write_text(original.read_text().replace("Sunday", "Monday"))

    shown = run_cli("show", item_id, "--json", cwd=repo)
    assert json.loads(shown.stdout)["path"] == str(original), shown.stdout
    listed = run_cli("list", "--json", cwd=repo)
    (row,) = [r for r in json.loads(listed.stdout) if r["id"] == item_id]
    assert row["path"] == str(original)
    found = run_cli("search", "staging database resets", "--json", cwd=repo)
    (hit,) = [h for h in json.loads(found.stdout) if h["id"] == item_id]
    assert hit["path"] == str(original), found.stdout
    context = run_cli("context", cwd=repo)
    assert "Sunday" in context.stdout and "Monday" not in context.stdout, context.stdout
    assert str(copy) in context.stderr and str(original) in context.stderr, context.stderr
    # the other file is named, with the one read and how to fix it
    assert str(copy) in listed.stderr and str(original) in listed.stderr, listed.stderr
    assert "rename the id in one of them" in listed.stderr, listed.stderr

    from lorestack.integrations.viewer.inventory import Inventory
    from lorestack.memory_layers.memory import Memory

    viewer = Inventory(Memory.open(repo), len)
    viewer.refresh()
    snap = viewer.snapshot()
    assert snap.by_id[item_id].path == original
    assert any(str(copy) in p and str(original) in p for p in snap.problems), snap.problems

    forgot = run_cli("forget", item_id, "--reason", "wrong day", cwd=repo)
    assert forgot.returncode == 0, forgot.stderr
    assert not original.exists()
    assert (memory / "archive" / f"{kind}s" / original.name).exists()
    # the copy goes with it (thirty-third session: left live, `check` kept enforcing a forgotten
    # criterion through it), named in the answer, its text kept in the archive
    assert not copy.exists() and "archived its copy with the same id" in forgot.stdout
    archived = [p.read_text() for p in (memory / "archive").rglob("*.md")]
    assert len(archived) == 2 and all("wrong day" in t for t in archived), archived
    assert any("Monday" in t for t in archived) and any("Sunday" in t for t in archived)
    after = run_cli("list", "--status", "all", "--json", cwd=repo)
    assert "duplicate id" in after.stderr, after.stderr  # two archived files still hold it
    (row,) = [r for r in json.loads(after.stdout) if r["id"] == item_id]
    assert row["status"] == "archived", row  # which of the two archived files: by path


def test_the_rule_reads_a_files_place_from_its_path():
    """Archived copy first, then the file in its type's folder, then the path."""
    from lorestack.memory_layers.dup_ids import placed_type, rank

    assert placed_type("/p/.memory/caveats/x.md") == "caveat"
    assert placed_type("archive/facts/2025/q1/x.md") == "fact"
    assert placed_type("/p/.memory/archive/facts/caveats/x.md") == "fact"  # a person's sorting
    assert placed_type("/p/.memory/project.md") == "fact"
    assert placed_type("/p/.memory/facts/project.md") == "fact"
    files = [("/m/facts/b.md", "caveat", "active"), ("/m/caveats/z.md", "caveat", "active"),
             ("/m/facts/a.md", "caveat", "active"), ("/m/archive/facts/y.md", "caveat", "archived")]
    assert [f[0] for f in sorted(files, key=lambda f: rank(*f))] == [
        "/m/archive/facts/y.md", "/m/caveats/z.md", "/m/facts/a.md", "/m/facts/b.md"]


def test_a_forgotten_id_leaves_context_and_hooks_with_its_other_copy(repo, long_hook_deadlines):
    """The same id in two files of facts/; `forget` archives the one every command reads. The
    archived copy holds the id (dup_ids), so `show` says archived and `search` finds nothing,
    but the loader cache read no archive/: `context`, the session-start hook and `list` kept
    serving the other copy as the active item."""
    from tests.service_helpers import context_of, hook

    made = run_cli("remember", "The deploy script ops/deploy.sh needs the --staging flag",
                   "--json", cwd=repo)
    assert made.returncode == 0, made.stderr
    item_id = json.loads(made.stdout)["item"]["id"]
    (original,) = (repo / ".memory" / "facts").glob("*.md")
    copy = original.with_name("a-hand-made-copy.md")
    copy.write_text(original.read_text())
    before = run_cli("context", cwd=repo)
    assert "ops/deploy.sh" in before.stdout, before.stdout  # served once, from one of them

    forgot = run_cli("forget", item_id, "--reason", "moved to CI", cwd=repo)
    assert forgot.returncode == 0, forgot.stderr
    shown = run_cli("show", item_id, "--json", cwd=repo)
    assert json.loads(shown.stdout)["status"] == "archived", shown.stdout
    found = run_cli("search", "deploy script staging flag", "--json", cwd=repo)
    assert item_id not in [h["id"] for h in json.loads(found.stdout)], found.stdout

    context = run_cli("context", cwd=repo)
    assert "ops/deploy.sh" not in context.stdout, context.stdout
    assert "duplicate id" in context.stderr and "archive" in context.stderr, context.stderr
    payload = {"session_id": "s1", "cwd": str(repo), "source": "startup"}
    started = hook("session-start", payload, repo)
    assert started.returncode == 0, started.stderr
    assert "ops/deploy.sh" not in context_of(started), started.stdout
    listed = run_cli("list", "--json", cwd=repo)
    assert item_id not in [r["id"] for r in json.loads(listed.stdout)], listed.stdout


def test_forget_archives_every_file_holding_the_id_so_check_no_longer_blocks(repo):
    """Found this session: after `forget` of a blocking criterion that a hand-made copy also
    held, `show` said archived, but `check` (which reads the live folders only) went on
    blocking with it and advised to `forget` it. Every live file with the id is archived now,
    and the second one is named."""
    env = {"LORESTACK_SERVICE__ENABLED": "false"}
    made = run_cli("remember", "--type", "criterion", "Never use pickle for data exchange",
                   "--forbid", "pickle", "--keyword", "pickle", "--verdict", "block", "--json",
                   cwd=repo, env=env)
    assert made.returncode == 0, made.stderr
    item = json.loads(made.stdout)
    item_id = item.get("id") or item["item"]["id"]
    (original,) = (repo / ".memory" / "criteria").glob("*.md")
    (original.parent / "copy.md").write_text(original.read_text())
    before = run_cli("check", "Use pickle to send the data to the worker", cwd=repo, env=env)
    assert before.returncode == 2, before.stdout

    forgot = run_cli("forget", item_id, "--reason", "we moved to msgpack", cwd=repo, env=env)
    assert forgot.returncode == 0, forgot.stderr
    assert "archived its copy with the same id" in forgot.stdout, forgot.stdout
    assert not list((repo / ".memory" / "criteria").glob("*.md"))
    archived = list((repo / ".memory" / "archive" / "criteria").glob("*.md"))
    assert len(archived) == 2 and all("we moved to msgpack" in p.read_text() for p in archived)
    after = run_cli("check", "Use pickle to send the data to the worker", cwd=repo, env=env)
    assert after.returncode == 0 and after.stdout.startswith("pass"), after.stdout
