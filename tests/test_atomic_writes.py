"""kill -9 during a write leaves either the old or the new file, never a torn one."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

from lorestack.memory_layers.fsutil import write_atomic

WRITER = r"""
import sys
from pathlib import Path
from lorestack.memory_layers.fsutil import write_atomic
path = Path(sys.argv[1])
i = 0
print("ready", flush=True)
while True:
    i += 1
    marker = str(i % 2)
    write_atomic(path, (marker * 400_000 + "\nend\n").encode())
"""


def _valid(data: bytes) -> bool:
    return data in {b"0" * 400_000 + b"\nend\n", b"1" * 400_000 + b"\nend\n"}


def test_kill_9_never_leaves_a_torn_file(tmp_path):
    path = tmp_path / "facts" / "item.md"
    write_atomic(path, b"0" * 400_000 + b"\nend\n")
    rng = random.Random(7)
    for _ in range(12):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE)
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0.0, 0.15))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _valid(path.read_bytes())
    # leftovers are hidden temp files only, never a half-written item
    visible = [p.name for p in path.parent.iterdir() if not p.name.startswith(".")]
    assert visible == ["item.md"]


def test_write_atomic_replaces_content(tmp_path):
    path = tmp_path / "a.md"
    write_atomic(path, b"old")
    write_atomic(path, b"new")
    assert path.read_bytes() == b"new"


def test_session_bookkeeping_is_written_whole_without_fsync(tmp_path, monkeypatch):
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    target = tmp_path / "sessions" / "s.json"
    write_atomic(target, b'{"received": ["a"]}', durable=False)
    assert target.read_bytes() == b'{"received": ["a"]}' and not synced
    assert [p.name for p in target.parent.iterdir()] == ["s.json"]  # no temp file left
    write_atomic(target, b"{}")
    assert target.read_bytes() == b"{}" and len(synced) == 2  # the file and its folder
