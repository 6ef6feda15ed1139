"""Usage state (access count, last access) in `.memory/.index/usage.sqlite`.

Recall reinforces memories (decay), but recall must never rewrite tracked markdown, so the
counts live here, beside the indexes, and survive a rebuild (a rebuild leaves this file).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), timeout=5, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("CREATE TABLE IF NOT EXISTS usage (id TEXT PRIMARY KEY, "
                   "count INTEGER NOT NULL DEFAULT 0, last_access TEXT)")
    except BaseException:
        db.close()
        raise
    return db


class UsageStore:
    """Access counts. A cache like the indexes: a damaged file is reset, never fatal."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.reset_reason: str | None = None  # set when a damaged file was started over
        try:
            self.db = _connect(path)
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise
            from lorestack.retrieval.readonly import refuse_if_read_only

            refuse_if_read_only(path.parent, exc)  # unwritable is not damaged: keep the stats
            self.reset(f"{type(exc).__name__}: {exc}")
        except sqlite3.DatabaseError as exc:
            self.reset(f"{type(exc).__name__}: {exc}")

    def reset(self, reason: str) -> None:
        """Start the usage stats over (they only tune decay; the memory itself is untouched)."""
        db = getattr(self, "db", None)
        if db is not None:
            db.close()
        for suffix in ("", "-wal", "-shm"):
            self.path.with_name(self.path.name + suffix).unlink(missing_ok=True)
        self.reset_reason = reason
        self.db = _connect(self.path)

    def check(self) -> str:
        """'ok', or what is wrong with the file (for doctor)."""
        try:
            row = self.db.execute("PRAGMA quick_check").fetchone()
            self.db.execute("SELECT count(*) FROM usage").fetchone()
        except sqlite3.DatabaseError as exc:
            return f"{type(exc).__name__}: {exc}"
        return "ok" if row and row[0] == "ok" else f"damaged: {row[0] if row else '?'}"

    def get(self, ids: list[str]) -> dict[str, tuple[int, datetime | None]]:
        try:
            return self._get(ids)
        except sqlite3.OperationalError:
            return {}  # busy: reinforcement is best effort
        except sqlite3.DatabaseError as exc:  # damaged under us: start over, rank without it
            self.reset(f"{type(exc).__name__}: {exc}")
            return {}

    def _get(self, ids: list[str]) -> dict[str, tuple[int, datetime | None]]:
        out: dict[str, tuple[int, datetime | None]] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for doc_id, count, last in self.db.execute(
                    f"SELECT id, count, last_access FROM usage WHERE id IN ({marks})", chunk):
                out[doc_id] = (count, datetime.fromisoformat(last) if last else None)
        return out

    def record(self, ids: list[str], when: datetime | None = None) -> None:
        if not ids:
            return
        stamp = (when or datetime.now(timezone.utc)).isoformat()
        try:
            self.db.executemany(
                "INSERT INTO usage (id, count, last_access) VALUES (?, 1, ?) "
                "ON CONFLICT(id) DO UPDATE SET count = count + 1, last_access = excluded.last_access",
                [(i, stamp) for i in ids])
        except sqlite3.OperationalError:
            pass  # busy or read-only: reinforcement is best effort, never worth failing a search
        except sqlite3.DatabaseError as exc:
            self.reset(f"{type(exc).__name__}: {exc}")

    def mark_edited(self, edits: list[tuple[str, datetime]]) -> None:
        """A hand edit (`sync.hand_edits`) is a review: the item's clock restarts at the edit
        (last access moves to it, never back) without counting as a recall."""
        if not edits:
            return
        try:
            self.db.executemany(
                "INSERT INTO usage (id, count, last_access) VALUES (?, 0, ?) "
                "ON CONFLICT(id) DO UPDATE SET last_access = excluded.last_access "
                "WHERE last_access IS NULL OR last_access < excluded.last_access",
                [(i, when.isoformat()) for i, when in edits])
        except sqlite3.OperationalError:
            pass  # busy or read-only: best effort, as for a recall
        except sqlite3.DatabaseError as exc:
            self.reset(f"{type(exc).__name__}: {exc}")

    def close(self) -> None:
        self.db.close()
