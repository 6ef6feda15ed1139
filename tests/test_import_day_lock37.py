"""`import --replace` of a journal day holds the day's lock, as `log` and the hooks do
(thirty-seventh session): an event logged while the day is imported was lost when the import
wrote the day it had read before the event was appended. Real files, real locks, two threads."""

from __future__ import annotations

import threading

from lorestack.memory_layers import portable
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import JournalEvent


def test_an_event_logged_while_a_day_is_imported_is_kept(repo, monkeypatch):
    mem = Memory.open(repo)
    journal = mem.require_project().journal
    day = journal.append(JournalEvent(id="ev-export01", kind="decision", text="Queue on Redis streams"))
    records = list(portable.export_records(mem.project))[1:]  # the header is read apart
    journal.append(JournalEvent(id="ev-before01", kind="note", text="Logged before the import"))

    logger: list[threading.Thread] = []
    merge = portable.entries_only_in

    def a_log_meanwhile(local, incoming, path):
        # another process logs to the day after the import read it and before it writes
        log = threading.Thread(target=journal.append, args=(
            JournalEvent(id="ev-during01", kind="note", text="Logged during the import"),))
        log.start()
        log.join(timeout=1.0)  # with the fix it waits for the import's lock
        logger.append(log)
        return merge(local, incoming, path)

    monkeypatch.setattr(portable, "entries_only_in", a_log_meanwhile)
    report = portable.import_records(mem.project, records, replace=True)
    assert logger, report
    logger[0].join(timeout=30)
    assert not logger[0].is_alive()
    assert day.name in " ".join(report.written + report.unchanged)
    ids = [e.id for e in journal.read_all().events]
    assert sorted(ids) == ["ev-before01", "ev-during01", "ev-export01"], ids


def test_a_dry_run_takes_no_day_lock(repo, monkeypatch):
    """Thirty-eighth session: `import --dry-run` writes nothing, so it waits for no `log` or
    hook holding a day (it took each day's lock, and timed out behind a long one)."""
    mem = Memory.open(repo)
    journal = mem.require_project().journal
    day = journal.append(JournalEvent(id="ev-export02", kind="decision", text="Queue on Redis streams"))
    records = list(portable.export_records(mem.project))[1:]
    journal.append(JournalEvent(id="ev-after02", kind="note", text="Logged after the export"))
    taken: list[str] = []
    real = portable.locked

    def recorded(lock_dir, name, *args, **kwargs):
        taken.append(name)
        return real(lock_dir, name, *args, **kwargs)

    monkeypatch.setattr(portable, "locked", recorded)
    before = day.read_bytes()
    report = portable.import_records(mem.project, records, replace=True, dry_run=True)
    assert f"journal/{day.name}" in report.written, report  # what it would write
    assert not [n for n in taken if n.startswith("journal-")], taken
    assert day.read_bytes() == before
    portable.import_records(mem.project, records, replace=True)  # a real import still locks
    assert f"journal-{day.name}" in taken
