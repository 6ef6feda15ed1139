"""Usage state (access count, last access) in `.memory/.index/usage.sqlite`.

Recall reinforces memories (decay), but recall must never rewrite tracked markdown, so the
counts live here, beside the indexes, and survive a rebuild (a rebuild leaves this file).
"""

from __future__ import annotations

import sqlite3
from datetime import datetime, timezone
from pathlib import Path


class UsageStore:
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.db = sqlite3.connect(str(path), timeout=5, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS usage (id TEXT PRIMARY KEY, "
                        "count INTEGER NOT NULL DEFAULT 0, last_access TEXT)")

    def get(self, ids: list[str]) -> dict[str, tuple[int, datetime | None]]:
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

    def close(self) -> None:
        self.db.close()
