"""A session's state file is changed under its lock, and a hook never fails or waits long on it.

Another process holds the session's lock here (a parallel hook of the session, stuck): a
change is skipped rather than raised or made behind the holder's back, and once one wait has
timed out the process does not wait on that lock again until it gets it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from lorestack.app import sessions
from lorestack.core.clients import HookPayload

_HOLDER = """
import sys, time
from pathlib import Path
from lorestack.memory_layers.fsutil import locked
locks, name, held, release = sys.argv[1:5]
with locked(Path(locks), name, timeout=60):
    Path(held).touch()
    while not Path(release).exists():
        time.sleep(0.02)
"""


@contextmanager
def held_lock(mem, session_id: str, tmp_path: Path):
    """Another process holds `session_id`'s lock until the block ends."""
    name = f"session-{sessions._session_file(mem, session_id).stem}"
    held, release = tmp_path / f"{session_id}.held", tmp_path / f"{session_id}.release"
    mem.primary.locks_dir.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(mem.primary.locks_dir), name,
                               str(held), str(release)])
    try:
        while not held.exists():
            assert holder.poll() is None, "the holder process ended before taking the lock"
            time.sleep(0.02)
        yield
    finally:
        release.touch()
        holder.wait(60)


@pytest.fixture(autouse=True)
def short_wait(monkeypatch):
    monkeypatch.setattr(sessions, "SESSION_LOCK_S", 0.5)  # a test waits less; same behaviour
    monkeypatch.setattr(sessions, "_stuck", set(), raising=False)


def _file(mem, session_id: str) -> Path:
    return sessions._session_file(mem, session_id)


def test_a_change_the_lock_is_held_past_is_skipped_not_raised(mem, tmp_path):
    sessions.save_session(mem, "s1", {"received": ["a"]})
    before = _file(mem, "s1").read_bytes()
    ran: list[dict] = []
    with held_lock(mem, "s1", tmp_path):
        made = sessions.update_session(mem, "s1", lambda s: ran.append(s) or {**s, "x": ["y"]})
    assert made is False and ran == []
    assert _file(mem, "s1").read_bytes() == before


def test_after_one_timeout_a_later_update_tries_once_without_waiting(mem, tmp_path,
                                                                     monkeypatch):
    from filelock import FileLock

    tries: list[str] = []
    real = FileLock._acquire

    def counted(self):
        tries.append(self.lock_file)
        return real(self)

    monkeypatch.setattr(FileLock, "_acquire", counted)
    with held_lock(mem, "s2", tmp_path):
        assert sessions.update_session(mem, "s2", lambda s: {**s, "a": ["1"]}) is False
        assert len(tries) > 1  # the first update waited (polled) for the holder
        tries.clear()
        assert sessions.update_session(mem, "s2", lambda s: {**s, "b": ["2"]}) is False
        assert len(tries) == 1  # the second one only tried
        tries.clear()
        sessions.update_session(mem, "s3", lambda s: {**s, "c": ["3"]})  # another session
        assert len(tries) == 1  # ... got its own lock at once
    # the holder let go: the lock is taken again, and waited for again from then on
    assert sessions.update_session(mem, "s2", lambda s: {**s, "d": ["4"]}) is True
    assert sessions.load_session(mem, "s2") == {"d": ["4"], "updated": pytest.approx(
        sessions.load_session(mem, "s2")["updated"])}
    assert sessions._stuck == set()


def test_the_end_of_a_turn_records_its_time_under_the_session_lock(mem, tmp_path, monkeypatch):
    from lorestack.app import hooks
    from lorestack.consolidation import extract

    started: list[str] = []
    monkeypatch.setattr(extract, "spawn_extraction", lambda m, t, c: started.append(t))
    sessions.save_session(mem, "codex-1", {"received": ["a"]})
    before = _file(mem, "codex-1").read_bytes()
    payload = HookPayload(client="codex", event="session-end", session_id="codex-1", hook_event_name="Stop",
                          transcript_path=str(tmp_path / "t.jsonl"))
    with held_lock(mem, "codex-1", tmp_path):
        hooks.session_end(mem, payload)
    assert _file(mem, "codex-1").read_bytes() == before  # not written behind the holder
    assert started == [str(tmp_path / "t.jsonl")]  # extraction still starts
    hooks.session_end(mem, payload)  # the lock is free: recorded, and extraction started
    hooks.session_end(mem, payload)  # within the interval: not started again
    assert "last_end" in json.loads(_file(mem, "codex-1").read_text())
    assert len(started) == 2


def test_a_session_start_resets_the_record_under_the_session_lock(mem, tmp_path):
    from lorestack.app import hooks

    sessions.save_session(mem, "start-1", {"received": ["old"], "files": ["a.py"]})
    before = _file(mem, "start-1").read_bytes()
    payload = HookPayload(client="claude-code", event="session-start", session_id="start-1",
                          hook_event_name="SessionStart", cwd=str(mem.primary.repo_dir))
    with held_lock(mem, "start-1", tmp_path):
        hooks.session_start(mem, payload)
    assert _file(mem, "start-1").read_bytes() == before
    hooks.session_start(mem, payload)
    assert json.loads(_file(mem, "start-1").read_text()).keys() == {"received", "updated"}
