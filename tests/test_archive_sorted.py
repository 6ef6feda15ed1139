"""An archive a person sorted into folders (archive/facts/2025/x.md) stays readable.

`forget` and `supersede` write archive/<type>/NAME.md; a person (or a merge from a teammate who
tidied up) may move those files one folder down. They were never read: `list --status archived`
showed nothing, `show` and `restore` said "no memory item", the viewer's archived list and the
successor's supersede chain lost them, and nothing said so.
"""

from __future__ import annotations

from starlette.testclient import TestClient

from lorestack.memory_layers.operations import remember, supersede
from tests.conftest import run_cli


def _sorted_away(mem, repo):
    old = remember(mem, "The main database is PostgreSQL 15", "fact")
    new = supersede(mem, old.item.id, "The main database is PostgreSQL 16")
    year = new.archived.parent / "2025"
    year.mkdir()
    moved = year / new.archived.name
    new.archived.rename(moved)
    return old.item.id, new.item.id, moved


def test_an_archived_item_moved_into_a_subfolder_is_listed_shown_and_restorable(mem, repo):
    old_id, _new_id, moved = _sorted_away(mem, repo)
    stray = repo / ".memory" / "archive" / "old" / "notes.md"  # outside the type folders
    stray.parent.mkdir()
    stray.write_text("Old notes about the staging box.\n")

    listed = run_cli("list", "--status", "archived", cwd=repo)
    assert listed.returncode == 0 and old_id in listed.stdout
    assert f"{stray.parent}: markdown that is never read" in listed.stderr
    shown = run_cli("show", old_id, cwd=repo)
    assert shown.returncode == 0 and str(moved) in shown.stdout
    assert "archived" in shown.stdout and "fact" in shown.stdout  # its type from archive/facts/

    restored = run_cli("restore", old_id, cwd=repo)
    assert restored.returncode == 0, restored.stderr
    assert not moved.exists() and (repo / ".memory" / "facts" / moved.name).is_file()


def test_the_viewer_lists_a_sorted_archived_item_and_links_it_in_the_chain(mem, repo):
    from lorestack.integrations.viewer import create_app

    old_id, new_id, moved = _sorted_away(mem, repo)
    app = create_app(mem, "tok", run_doctor=False)
    try:
        client = TestClient(app, base_url="http://127.0.0.1:8765", follow_redirects=False)
        client.cookies.set("lorestack_ui_8765", "tok")
        archived = client.get("/items?status=archived")
        assert archived.status_code == 200 and old_id in archived.text
        successor = client.get(f"/items/{new_id}")
        assert f'href="/items/{old_id}"' in successor.text
        assert client.get(f"/items/{old_id}").status_code == 200
        # the folder removed whole: its item leaves the list at the next request
        moved.unlink()
        moved.parent.rmdir()
        assert old_id not in client.get("/items?status=archived").text
    finally:
        app.state.close()


def test_export_and_import_treat_a_sorted_archived_item_as_an_item(mem, repo, tmp_path):
    """The export named it a plain file (no parsed fields) and `import-memory` wrote a key a
    person had typed into it raw, as it writes config files; items are redacted on import."""
    import json

    from click.testing import CliRunner

    from lorestack.cli.main import cli
    from lorestack.memory_layers.memory import Memory

    key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    _old_id, _new_id, moved = _sorted_away(mem, repo)
    moved.write_text(moved.read_text() + f"\nThe old replica used token {key}.\n")
    runner = CliRunner()
    dump = runner.invoke(cli, ["export"])
    assert dump.exit_code == 0
    records = [json.loads(line) for line in dump.stdout.splitlines()[1:]]
    record = next(r for r in records if r["path"] == "archive/facts/2025/" + moved.name)
    assert record["kind"] == "item" and record["item"]["type"] == "fact"
    (tmp_path / "dump.jsonl").write_text(dump.stdout)
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    done = runner.invoke(cli, ["--root", str(other), "import-memory", str(tmp_path / "dump.jsonl")])
    assert done.exit_code == 0, done.output
    imported = other / ".memory" / "archive" / "facts" / "2025" / moved.name
    assert "PostgreSQL 15" in imported.read_text() and key not in imported.read_text()
