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
