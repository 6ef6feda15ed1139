"""Sealed names, the sixteenth session: what was still written or shown raw.

`forget` of a journal event whose id was typed around a key, the viewer's event page (its
session and source) and its "cited by" list, `import-memory --replace` of a file named after a
key, and an import path whose folder is named after a key. Each test failed before its fix.
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers.sealed_names import seal

GH = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
AK = "AKIAIOSFODNN7EXAMPLE"


def _hand_typed_event(repo: Path, runner, text: str, new_id: str, kind: str = "note") -> Path:
    logged = runner.invoke(cli, ["log", "--kind", kind, text])
    assert logged.exit_code == 0, logged.output
    day = next((repo / ".memory" / "journal").glob("*.md"))
    day.write_text(day.read_text().replace(logged.output.split()[-1], new_id))
    return day


def test_forget_archives_a_hand_typed_event_id_sealed(repo):
    """The archived copy names the event sealed, as every answer does; its closes: tag too.
    Before: archive/events/<day>.md held `note-AKIA…` raw (heading and both markers)."""
    runner = CliRunner()
    _hand_typed_event(repo, runner, "rotate the deploy token", f"todo-{GH}", kind="todo")
    day = _hand_typed_event(repo, runner, "the staging bucket moved", f"note-{AK}")
    # a later note that names the todo by its raw id in a tag, typed by hand too
    lines = day.read_text().split("\n")
    at = next(i for i, line in enumerate(lines) if f'"id": "note-{AK}"' in line)
    lines[at] = lines[at].replace('"tags": []', f'"tags": ["closes:todo-{GH}"]')
    day.write_text("\n".join(lines))
    for sealed in (seal(f"note-{AK}"), seal(f"todo-{GH}")):
        gone = runner.invoke(cli, ["forget", sealed, "--reason", "moved", "--json"])
        assert gone.exit_code == 0, gone.output
    archive = next((repo / ".memory" / "archive" / "events").glob("*.md"))
    archived = archive.read_text()
    assert AK not in archived and GH not in archived, archived
    assert seal(f"note-{AK}") in archived and seal(f"todo-{GH}") in archived
    assert "the staging bucket moved" in archived and "rotate the deploy token" in archived
    again = runner.invoke(cli, ["forget", seal(f"note-{AK}"), "--reason", "moved"])
    assert again.exit_code != 0 and AK not in again.output, again.output
