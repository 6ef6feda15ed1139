"""`restore` of an id a live file still holds (session 36)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli


def _files(root) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in root.rglob("*.md") if "journal" not in p.parts and ".index" not in p.parts}


def test_restore_beside_a_live_copy_refuses_and_names_both_files(repo):
    """Before: with the live file a `forget` cut short leaves (here edited since), `restore`
    wrote the archived copy to decisions/<name>-2.md: two live files with one id, and the one
    every command read was the restored copy, so the edit vanished from list, search and
    context without a word."""
    runner = CliRunner()
    made = runner.invoke(cli, ["remember", "Deploys go through fly.io from main", "--type",
                               "decision", "--json"])
    item_id = json.loads(made.stdout)["item"]["id"]
    root = repo / ".memory"
    live = next((root / "decisions").glob("*.md"))
    kept = live.read_bytes()
    assert runner.invoke(cli, ["forget", item_id, "--reason", "moved to render"]).exit_code == 0
    archived = next((root / "archive" / "decisions").glob("*.md"))
    # the forget cut short: its live file still there, and edited by hand since
    live.write_bytes(kept.replace(b"from main", b"from main, tagged releases only"))
    before = _files(root)
    result = runner.invoke(cli, ["restore", item_id])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    message = result.output.strip().splitlines()
    assert len(message) == 1 and str(live) in message[0] and str(archived) in message[0]
    assert "nothing restored" in message[0]
    assert _files(root) == before  # nothing moved, nothing written
    archived.unlink()  # the person keeps the live file, as the message says
    assert runner.invoke(cli, ["show", item_id]).output.count("tagged releases only") == 1
