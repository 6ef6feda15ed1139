"""Several processes appending at once: every entry present, whole, exactly once."""

from __future__ import annotations

import subprocess
import sys

from lorestack.memory_layers.memory import Memory

WRITER = r"""
import sys
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import log_event
mem = Memory.open(sys.argv[1])
worker = sys.argv[2]
for i in range(int(sys.argv[3])):
    body = f"worker {worker} entry {i} " + ("x" * (i * 37 % 3000)) + "\nsecond line " + worker
    log_event(mem, body, "progress", tags=[worker])
"""


def test_concurrent_appenders_lose_nothing(repo):
    workers, per_worker = 4, 40
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(repo), f"w{n}", str(per_worker)])
        for n in range(workers)
    ]
    for proc in procs:
        assert proc.wait(timeout=600) == 0
    parsed = Memory.open(repo).journal.read_all()
    assert not parsed.problems
    assert len(parsed.events) == workers * per_worker
    assert len({e.id for e in parsed.events}) == workers * per_worker
    seen = {(e.tags[0], int(e.text.split()[3])) for e in parsed.events}
    assert seen == {(f"w{n}", i) for n in range(workers) for i in range(per_worker)}
    for event in parsed.events:
        i = int(event.text.split()[3])
        assert event.text.endswith("\nsecond line " + event.tags[0])
        assert event.text.count("x") == i * 37 % 3000


def test_torn_entry_is_skipped_and_reported(mem):
    from lorestack.memory_layers.operations import log_event

    log_event(mem, "first whole entry", "note")
    path = mem.journal.day_file(mem.journal.days()[-1])
    with open(path, "a", encoding="utf-8") as fh:  # simulate a writer that died mid-entry
        fh.write('<!-- lorestack:event {"schema": 1, "id": "ev-torn", "kind": "note"} -->\nhalf an ent')
    parsed = mem.journal.read_all()
    assert [e.text for e in parsed.events] == ["first whole entry"]
    assert any("ev-torn" in str(p) and "no closing marker" in str(p) for p in parsed.problems)


def test_an_append_after_a_hand_edit_without_final_newline_keeps_the_last_entry(repo):
    # an editor that trims the final newline (VS Code's trimFinalNewlines, `printf >`) left the
    # day ending in the closing marker; the next `log` glued its heading onto that line, so the
    # entry the user had just edited vanished from list, search and context ("no closing marker")
    from tests.conftest import run_cli

    assert run_cli("log", "pinned gin at 1.9.1 because of the regression", cwd=repo).returncode == 0
    day = next((repo / ".memory" / "journal").glob("*.md"))
    day.write_bytes(day.read_bytes().rstrip(b"\n"))
    done = run_cli("log", "second event of the day", cwd=repo)
    assert done.returncode == 0, done.stderr
    parsed = Memory.open(repo).journal.read_all()
    assert not parsed.problems
    assert [e.text for e in parsed.events] == ["pinned gin at 1.9.1 because of the regression",
                                               "second event of the day"]
    listed = run_cli("list", "--type", "event", cwd=repo)
    assert "pinned gin" in listed.stdout and "skipped" not in listed.stderr


def test_text_typed_into_a_day_file_outside_any_entry_is_told_not_ignored(repo):
    # a note typed into today's journal by hand, outside the entry markers, was read by
    # nothing: no search, context or list showed it and doctor said the memory was ok
    from tests.conftest import run_cli

    assert run_cli("log", "pinned gin at 1.9.1", cwd=repo).returncode == 0
    day = next((repo / ".memory" / "journal").glob("*.md"))
    with day.open("a", encoding="utf-8") as f:
        f.write("## 14:00 · note\nCalled the vendor: the release moved to Friday\n\n"
                "- hand note: the capybara migration is done\n")
    before = day.read_bytes()
    doctor = run_cli("doctor", cwd=repo)
    assert doctor.returncode == 1
    told = [line for line in doctor.stdout.splitlines() if "outside any entry" in line]
    assert [line.split(":")[2] for line in told] == ["8", "11"], doctor.stdout
    listed = run_cli("list", "--type", "event", cwd=repo)
    assert "pinned gin" in listed.stdout and "outside any entry" in listed.stderr
    assert day.read_bytes() == before
