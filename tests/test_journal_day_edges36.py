"""Journal day files as a merge or an editor leaves them: a diff3 conflict between entries,
a day saved as UTF-16 (session 36)."""

from __future__ import annotations

import json
from datetime import timedelta

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import JournalEvent
from tests.test_consolidation import BASE, SEED, seed


def _entries(day_text: str) -> tuple[str, list[str]]:
    """The day's title and its entries, each as lorestack wrote it."""
    head, *rest = day_text.split("## ")
    return head, ["## " + entry for entry in rest]


def test_a_diff3_conflict_between_entries_reads_each_entry_once(repo):
    """Before: a day merged with `merge.conflictStyle=diff3` (no union driver) whose base
    section (||||||| … =======) held an entry the other side kept read that entry twice
    (`list` showed its id twice, consolidation counted it twice), and the advice was 'delete
    the marker lines', which leaves the copy in place. An entry only the base held was read as
    if a side had it."""
    mem = Memory.open(repo)
    seed(mem, rows=[row for row in SEED if row[1] == 4])  # ev-rd000001, ev-css00001
    day = mem.project.journal_dir / f"{(BASE + timedelta(days=4)).date().isoformat()}.md"
    head, (redis, css) = _entries(day.read_text("utf-8"))
    seed(mem, rows=[("ev-ours0001", 4, 12, "decision", [], "Deploys go through fly.io"),
                    ("ev-gone0001", 4, 13, "note", [], "An entry both sides removed")])
    _, (_, _, ours, gone) = _entries(day.read_text("utf-8"))
    # ours forgot the CSS entry and logged one; theirs kept it and logged nothing new
    day.write_text(f"{head}{redis}<<<<<<< HEAD\n{ours}||||||| base\n{css}{gone}=======\n{css}"
                   ">>>>>>> theirs\n", "utf-8")
    listed = CliRunner().invoke(cli, ["list", "--type", "event", "--json"])
    assert listed.exit_code == 0, listed.output
    ids = [row["id"] for row in json.loads(listed.stdout)]
    assert sorted(ids) == ["ev-css00001", "ev-ours0001", "ev-rd000001"], ids
    problems = [str(p) for p in mem.require_project().journal.read_all().problems]
    assert any("diff3" in p and "delete the marker lines and the base section" in p
               for p in problems), problems
    assert any("ev-gone0001 is only in the base section" in p for p in problems), problems
    doctor = CliRunner().invoke(cli, ["doctor"])
    assert "ev-gone0001 is only in the base section" in doctor.output, doctor.output


def test_a_day_saved_as_utf16_is_named_so_and_not_appended_to(repo):
    """Before: a day an editor saved as UTF-16 (Notepad's 'Unicode') was 'not valid UTF-8 (byte
    0); its entries are read with U+FFFD …' (none were read) plus 'text outside any entry …
    record it with `lorestack log`'; without a byte-order mark only the latter. `lorestack log`
    then appended UTF-8 to it: 'logged', never read, garbled once the day was re-saved."""
    mem = Memory.open(repo)
    day = mem.require_project().journal.append(
        JournalEvent(id="ev-today001", kind="decision", text="The queue runs on Redis streams"))
    text = day.read_text("utf-8")
    for encoding in ("utf-16", "utf-16-le"):  # with its byte-order mark, and without
        day.write_bytes(text.encode(encoding))
        doctor = CliRunner().invoke(cli, ["doctor"])
        named = [line for line in doctor.output.splitlines() if day.name in line
                 and line.startswith("problem")]
        assert len(named) == 1 and "saved as UTF-16" in named[0], (encoding, doctor.output)
        assert "re-save it as UTF-8" in named[0]
        saved = day.read_bytes()
        logged = CliRunner().invoke(cli, ["log", "Deploys go through fly.io"])
        assert logged.exit_code == 1 and "saved as UTF-16" in logged.output, logged.output
        assert "Traceback" not in logged.output and day.read_bytes() == saved
    day.write_text(text, "utf-8")  # re-saved as UTF-8: its entry is back
    events = mem.require_project().journal.read_all()
    assert [e.id for e in events.events] == ["ev-today001"] and events.problems == []
