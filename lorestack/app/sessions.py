"""What each client session was already handed (ids, files), one small JSON file per session
under the index folder; files untouched for a week are pruned."""

from __future__ import annotations

import json
import os
import re
import stat
import time
from collections.abc import Callable
from pathlib import Path

_SESSION_TTL_S = 7 * 24 * 3600


def _session_file(mem, session_id: str) -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", session_id)[:80] or "session"
    return mem.primary.index_dir / "sessions" / f"{safe}.json"


def load_session(mem, session_id: str | None) -> dict:
    """The session's record; what is damaged in it is left out (never raises, never blocks)."""
    if not session_id:
        return {}
    try:
        # never blocked on: a FIFO under that name would hold the hook, and the session's lock
        fd = os.open(_session_file(mem, session_id), os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                return {}
            data = json.loads(handle.read().decode("utf-8"))
    except (OSError, ValueError):
        return {}
    return _well_formed(data) if isinstance(data, dict) else {}


def _well_formed(data: dict) -> dict:
    """The values of the shapes this module writes (lists of ids or digests, claims by digest,
    times); another shape (a hand edit, another version) is dropped, not let raise in a hook."""
    out: dict = {}
    for key, value in data.items():
        if key.endswith("_claimed"):
            if isinstance(value, dict):
                out[key] = {k: t for k, t in value.items() if _number(t)}
        elif key in _TIMES:
            if _number(value):
                out[key] = value
        elif isinstance(value, list):  # ids received, digests of notices told
            out[key] = [v for v in value if isinstance(v, str)]
    return out


_TIMES = ("updated", "last_end")


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def save_session(mem, session_id: str | None, state: dict) -> None:
    if not session_id:
        return
    from lorestack.memory_layers.fsutil import write_atomic

    state = {**state, "updated": time.time()}
    # what a session was shown: a crash that loses it repeats some context, so no fsync (it
    # cost a hook ~17 ms on a loaded machine)
    try:
        write_atomic(_session_file(mem, session_id), json.dumps(state).encode("utf-8"),
                     durable=False)
    except OSError:  # a read-only store: the next prompt may repeat some context, no more
        pass


SESSION_LOCK_S = 2.0  # a hook waits this long for a parallel one of its session, no more
# session locks a wait timed out on in this process, not waited on again until next taken: a
# holder stuck that long stays stuck, and a hook updates its session several times
_stuck: set[str] = set()


def update_session(mem, session_id: str | None, change: Callable[[dict], dict | None]) -> bool:
    """Read, change and write a session's state as one step under its lock: two hooks of one
    session at once (parallel tool calls) each keep their change, and what one has claimed the
    other sees. Never raises, never waits long: True when `change` ran (and what it returned
    was written). When another process holds the lock past SESSION_LOCK_S the change is
    skipped and False returned (its caller tells a notice later, or repeats some context);
    after such a timeout this process tries that lock once, without waiting, until it gets it
    again, so a hook updating its session several times waits at most once. Without a lock
    to take (a read-only store) the change is made unlocked."""
    if not session_id:
        return False
    from contextlib import ExitStack

    from lorestack.core.errors import LorestackError
    from lorestack.memory_layers.fsutil import locked

    name = f"session-{_session_file(mem, session_id).stem}"
    key = str(mem.primary.locks_dir / name)  # one service serves many stores
    with ExitStack() as stack:
        try:
            stack.enter_context(locked(mem.primary.locks_dir, name,
                                       timeout=0 if key in _stuck else SESSION_LOCK_S))
        except LorestackError:  # held past the wait: the lock is its holder's
            if key not in _stuck:
                from lorestack.core.logs import get_logger

                get_logger("hooks").warning(
                    f"session {session_id}: its state file is locked by another process; "
                    "this hook's change to it is skipped")
            _stuck.add(key)
            return False
        except OSError:
            pass
        else:
            _stuck.discard(key)
        new = change(load_session(mem, session_id))
        if new is not None:
            save_session(mem, session_id, new)
    return True


def reset_session(mem, session_id: str | None, received: list[str]) -> None:
    """A new context (session start, compaction, resume) starts from what it was just given:
    the record holds that alone (locked like every other change of it)."""
    update_session(mem, session_id, lambda _state: {"received": list(received)})


def claim_end(mem, session_id: str | None, interval_s: float) -> bool:
    """Whether this end of a turn may start extraction: none did for the session within
    `interval_s`. Checked and recorded in one locked step, so two ends at once start one.
    If the lock cannot be had, it may (extraction folds repeated work for one transcript)."""
    due: list[bool] = []

    def change(state: dict) -> dict | None:
        if time.time() - float(state.get("last_end", 0) or 0) < interval_s:
            return None
        due.append(True)
        return {**state, "last_end": time.time()}

    ran = update_session(mem, session_id, change)
    return bool(due) if ran else True


def _prune_sessions(mem) -> None:
    folder = mem.primary.index_dir / "sessions"
    cutoff = time.time() - _SESSION_TTL_S
    try:
        for entry in os.scandir(folder):
            if entry.name.endswith(".json") and entry.stat().st_mtime < cutoff:
                os.unlink(entry.path)
    except OSError:
        pass
