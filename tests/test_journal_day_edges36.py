"""Journal day files as a merge or an editor leaves them: a diff3 conflict between entries,
a day saved as UTF-16 (session 36)."""

from __future__ import annotations

import json
from datetime import date, timedelta

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers.journal import render_event
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


def _day_with_one_entry(repo):
    mem = Memory.open(repo)
    day = mem.require_project().journal.append(
        JournalEvent(id="ev-today001", kind="decision", text="The queue runs on Redis streams"))
    return mem, day, day.read_text("utf-8")


def _listed() -> list[str]:
    listed = CliRunner().invoke(cli, ["list", "--type", "event", "--json"])
    assert listed.exit_code == 0, listed.output
    return sorted(row["id"] for row in json.loads(listed.stdout))


def test_a_day_saved_as_utf16_with_utf8_entries_after_it_reads_both(repo):
    """Before the upgrade `log` and the hooks appended UTF-8 to a day an editor had saved as
    UTF-16, and the lenient read found those entries. Before this fix the day was 'saved as
    UTF-16; its entries are not read' (`list` and `search` found nothing), and its advice,
    're-save it as UTF-8', garbles the UTF-8 entries (an editor reads the whole file as
    UTF-16 because of its byte-order mark)."""
    mem, day, text = _day_with_one_entry(repo)
    for encoding in ("utf-16", "utf-16-le", "utf-16-be"):  # with its byte-order mark, and without
        # what lorestack before session 36 wrote after the editor's save: a line break, UTF-8
        tail = render_event(JournalEvent(id="ev-after001", kind="note",
                                         text="Deploys go through fly.io"))
        day.write_bytes(text.encode(encoding) + b"\n" + tail.encode("utf-8"))
        assert _listed() == ["ev-after001", "ev-today001"], encoding
        found = CliRunner().invoke(cli, ["search", "Redis streams queue", "--json"])
        assert "ev-today001" in found.stdout, (encoding, found.output)
        doctor = CliRunner().invoke(cli, ["doctor"])
        named = [line for line in doctor.output.splitlines() if day.name in line]
        assert len(named) == 1 and "saved as UTF-16 up to line" in named[0], doctor.output
        assert "Do not re-save it in an editor" in named[0] and "doctor --repair" in named[0]
    repaired = CliRunner().invoke(cli, ["doctor", "--repair"])
    assert f"rewrote {day} (saved as UTF-16) as UTF-8" in repaired.output, repaired.output
    events = mem.require_project().journal.read_all()
    assert [e.id for e in events.events] == ["ev-today001", "ev-after001"], events
    assert events.problems == [] and day.read_bytes().decode("utf-8").startswith("# Journal")


def test_logging_to_a_day_saved_as_utf16_rewrites_it_as_utf8_first(repo):
    """Before: `log` to a day saved as UTF-16 refused ('re-save it as UTF-8 … and run this
    again'), and hooks' appends failed the same way; before that it appended UTF-8 after the
    UTF-16, which an editor's next save garbled."""
    _mem, day, text = _day_with_one_entry(repo)
    ids = ["ev-today001"]
    for encoding in ("utf-16", "utf-16-le"):  # with its byte-order mark, and without
        day.write_bytes(text.encode(encoding))
        assert _listed() == sorted(ids), encoding
        logged = CliRunner().invoke(cli, ["log", "--json", f"Deploys go through fly.io ({encoding})"])
        assert logged.exit_code == 0, logged.output
        assert f"{day} was saved as UTF-16" in logged.stderr, logged.stderr
        ids.append(json.loads(logged.stdout)["id"])
        text = day.read_bytes().decode("utf-8")  # UTF-8 throughout now
        events = Memory.open(repo).require_project().journal.read_day(date.fromisoformat(day.stem))
        assert [e.id for e in events.events] == ids and events.problems == [], events


def test_a_folder_or_a_link_under_the_day_file_name_is_refused_as_before(repo, tmp_path):
    """Before: a folder named as today's day file made `log` say 'cannot use …: Is a
    directory … this is a bug in lorestack' (the UTF-16 check opened it first), and a symlink
    there was followed to read its target."""
    _mem, day, text = _day_with_one_entry(repo)
    day.unlink()
    day.mkdir()
    logged = CliRunner().invoke(cli, ["log", "Deploys go through fly.io"])
    assert logged.exit_code == 1 and "is not a regular file" in logged.output, logged.output
    assert "bug" not in logged.output
    day.rmdir()
    outside = tmp_path / "elsewhere.md"
    outside.write_bytes(text.encode("utf-16"))
    day.symlink_to(outside)
    logged = CliRunner().invoke(cli, ["log", "Deploys go through fly.io"])
    assert logged.exit_code == 1 and "is not a regular file" in logged.output, logged.output
    assert outside.read_bytes() == text.encode("utf-16")


def test_a_utf16_day_ending_in_cjk_keeps_every_character_through_the_rewrite(repo):
    """Review of session 36: the UTF-16 part was taken to end at its last NUL byte, so a note
    ending in characters whose UTF-16 bytes hold no NUL (Chinese typed at the end, no final
    newline) was read as UTF-8 — U+FFFD — and the rewrite on the next `log` saved the damage."""
    _mem, day, text = _day_with_one_entry(repo)
    note = "部署走临时环境"  # no byte of these seven in UTF-16-LE is NUL
    assert b"\x00" not in note.encode("utf-16-le")
    tail = render_event(JournalEvent(id="ev-after002", kind="note", text="Deploys go through fly.io"))
    day.write_bytes((text + note).encode("utf-16") + b"\n" + tail.encode("utf-8"))
    assert _listed() == ["ev-after002", "ev-today001"]
    logged = CliRunner().invoke(cli, ["log", "Staging is reset on Mondays"])
    assert logged.exit_code == 0, logged.output
    assert f"{day} was saved as UTF-16" in logged.stderr, logged.stderr
    now = day.read_bytes().decode("utf-8")
    assert note in now and "\ufffd" not in now, now


def test_a_utf16_day_that_does_not_decode_is_left_as_it_was_and_the_entry_still_added(repo):
    """A UTF-16 day holding a byte pair that is no character (a lone surrogate) cannot be
    rewritten exactly: it is left as it was, the entry goes after it in UTF-8 (read as such)
    and `log` says so; nothing is replaced by U+FFFD."""
    mem, day, text = _day_with_one_entry(repo)
    raw = text.encode("utf-16") + "\n".encode("utf-16-le") + b"\x00\xd8" + "x\n".encode("utf-16-le")
    day.write_bytes(raw)
    logged = CliRunner().invoke(cli, ["log", "--json", "Staging is reset on Mondays"])
    assert logged.exit_code == 0, logged.output
    assert "left as it was" in logged.stderr and "do not re-save" in logged.stderr, logged.stderr
    assert day.read_bytes().startswith(raw)  # the user's bytes, untouched
    new_id = json.loads(logged.stdout)["id"]
    assert _listed() == sorted(["ev-today001", new_id])


def test_forgetting_an_event_of_a_day_saved_as_utf16_rewrites_the_day_as_utf8(repo):
    """Before: `forget` of an event in a day an editor saved as UTF-16 said the entry 'is not
    whole; fix the file by hand', though `list` read it. The day is rewritten as UTF-8 first (as
    `log` does), the event goes to the archive and the other entry stays; a day that does not
    decode exactly is left as it was, and forget says so in one line."""
    mem, day, text = _day_with_one_entry(repo)
    kept = render_event(JournalEvent(id="ev-other001", kind="note", text="Deploys go through fly.io"))
    day.write_bytes((text + kept).encode("utf-16"))
    assert _listed() == ["ev-other001", "ev-today001"]
    forgot = CliRunner().invoke(cli, ["forget", "ev-today001", "--reason", "moved to Kafka"])
    assert forgot.exit_code == 0, forgot.output
    assert _listed() == ["ev-other001"]
    after = day.read_bytes().decode("utf-8")  # UTF-8 throughout now
    assert "ev-other001" in after and "ev-today001" not in after
    restored = CliRunner().invoke(cli, ["restore", "ev-today001"])
    assert restored.exit_code == 0, restored.output
    assert _listed() == ["ev-other001", "ev-today001"]

    broken = text.encode("utf-16") + "\n".encode("utf-16-le") + b"\x00\xd8" + "x\n".encode("utf-16-le")
    day.write_bytes(broken)
    refused = CliRunner().invoke(cli, ["forget", "ev-today001", "--reason", "moved to Kafka"])
    assert refused.exit_code != 0 and "Traceback" not in refused.output
    assert "re-save the day as UTF-8" in refused.output and len(refused.output.strip().splitlines()) == 1
    assert day.read_bytes() == broken


def test_list_says_a_day_saved_as_utf16_was_read_not_skipped(repo):
    """Before: `list --type event` listed the day's entries and warned "skipped <day>: saved as
    UTF-16 (its entries are read)" in the same breath. The note is a note; a day that cannot be
    read at all is still "skipped"."""
    _mem, day, text = _day_with_one_entry(repo)
    day.write_bytes(text.encode("utf-16"))
    listed = CliRunner().invoke(cli, ["list", "--type", "event"])
    assert listed.exit_code == 0 and "ev-today001" in listed.stdout, listed.output
    warned = [line for line in listed.stderr.splitlines() if day.name in line]
    assert len(warned) == 1 and "saved as UTF-16" in warned[0], listed.stderr
    assert "skipped" not in warned[0]
    as_json = CliRunner().invoke(cli, ["list", "--type", "event", "--json"])
    assert [r["id"] for r in json.loads(as_json.stdout)] == ["ev-today001"]


def test_list_says_which_entry_of_a_day_it_skipped_and_that_the_day_was_read(repo):
    """Thirty-eighth session: a day cut off inside its last entry (a crash while writing, a
    bad copy) listed its first entry and warned "skipped <day>: entry … has no closing
    marker" as if the whole day were skipped. Now the warning names the entry's line."""
    _mem, day, text = _day_with_one_entry(repo)
    second = Memory.open(repo).require_project().journal.append(
        JournalEvent(id="ev-today002", kind="note", text="The deploy pipeline is slow today"))
    assert second == day
    whole = day.read_text("utf-8")
    day.write_text(whole[: whole.index("The deploy pipeline") + 10], "utf-8")  # cut inside it
    listed = CliRunner().invoke(cli, ["list", "--type", "event"])
    assert listed.exit_code == 0 and "ev-today001" in listed.stdout, listed.output
    warned = [line for line in listed.stderr.splitlines() if day.name in line]
    line = next(n for n, at in enumerate(whole.splitlines(), 1)  # the cut entry's opening marker
                if at.startswith("<!-- lorestack:event") and "ev-today002" in at)
    assert warned == [f"warning: {day}:{line}: entry ev-today002 has no closing marker; skipped"], (
        listed.stderr)
    assert _listed() == ["ev-today001"]


def test_list_says_a_day_over_the_read_limit_was_read_up_to_it(repo, monkeypatch):
    """A day larger than the journal's read limit is read up to the limit: its first entries
    are listed, and the warning is a note on how it was read, not "skipped <day>"."""
    monkeypatch.setenv("LORESTACK_LIMITS__MAX_FILE_BYTES", "1024")  # read limit 64 x 1 KiB
    mem, day, _text = _day_with_one_entry(repo)
    journal = mem.require_project().journal
    for i in range(400):
        journal.append(JournalEvent(id=f"ev-filler{i:03d}", kind="note", text=f"Routine note {i}"))
    assert day.stat().st_size > 64 * 1024
    listed = CliRunner().invoke(cli, ["list", "--type", "event"])
    assert listed.exit_code == 0 and "ev-today001" in listed.stdout, listed.output
    warned = [line for line in listed.stderr.splitlines() if day.name in line]
    over = [w for w in warned if "over the journal's limit" in w]
    assert len(over) == 1 and over[0].startswith(f"warning: {day}: "), listed.stderr


def test_an_entry_left_out_for_its_header_says_it_was_skipped(repo):
    """A review of the thirty-eighth session: once a problem at a line became a note, an entry
    left out for its header (not JSON) said only "entry header is not valid JSON"."""
    _mem, day, text = _day_with_one_entry(repo)
    broken = text.replace('{"schema"', '{schema', 1)
    day.write_text(broken + "\n" + text.split("\n", 1)[1].replace("ev-today001", "ev-today003"),
                   "utf-8")
    listed = CliRunner().invoke(cli, ["list", "--type", "event"])
    assert listed.exit_code == 0 and "ev-today003" in listed.stdout, listed.output
    warned = [line for line in listed.stderr.splitlines() if day.name in line]
    assert warned[0].endswith("entry header is not valid JSON; skipped"), listed.stderr
    assert "text outside any entry" in warned[1]  # the broken entry's text, left unread
    assert _listed() == ["ev-today003"]
