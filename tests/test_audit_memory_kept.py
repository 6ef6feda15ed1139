"""Audit (session 11): paths where what the user wrote could vanish without a word.

Each test is a finding's repro: it failed before its fix and passes after.
"""

from __future__ import annotations

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import forget, log_event


def _crlf(path) -> None:
    path.write_bytes(path.read_bytes().replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))


def test_a_journal_day_saved_with_crlf_line_endings_keeps_its_events(mem, repo):
    """git's autocrlf (or a Windows editor) turns a day file's endings into CRLF: its entries
    were skipped silently (no event, no problem) and `forget` could not find their ends."""
    first = log_event(mem, "Moved the queue to Redis streams\nsecond line", "decision")
    second = log_event(mem, "Pinned gin at 1.9.1", "progress")
    path = mem.journal.day_file(mem.journal.days()[-1])
    _crlf(path)
    parsed = Memory.open(repo).journal.read_all()
    assert not parsed.problems
    assert [(e.id, e.text) for e in parsed.events] == [
        (first.id, "Moved the queue to Redis streams\nsecond line"),
        (second.id, "Pinned gin at 1.9.1")]
    third = log_event(mem, "appended after the CRLF save", "note")  # a mixed file reads too
    assert [e.id for e in Memory.open(repo).journal.read_all().events] == [
        first.id, second.id, third.id]
    forget(mem, first.id, "wrong day")
    left = Memory.open(repo).journal.read_all()
    assert [e.id for e in left.events] == [second.id, third.id] and not left.problems
    assert b"\r\n" in path.read_bytes()  # the user's line endings elsewhere stay as they were
