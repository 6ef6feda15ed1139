"""Long-lived parts one viewer keeps between requests: inventory, index, doctor's last word.

The index (tantivy + Chroma + the embedding model) is opened once, on the first search, and
shared under a lock; `doctor` runs in a background thread so no page waits for it.
"""

from __future__ import annotations

import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from lorestack.integrations.viewer.inventory import Inventory
from lorestack.memory_layers.memory import Memory


@dataclass
class DoctorState:
    running: bool = False
    finished: datetime | None = None
    seconds: float = 0.0
    report: object | None = None  # retrieval.doctor.DoctorReport
    error: str = ""


@dataclass
class Timing:
    """Server time of the last requests per route (shown on the overview, read by the bench)."""

    samples: dict[str, list[float]] = field(default_factory=dict)

    def add(self, route: str, seconds: float) -> None:
        bucket = self.samples.setdefault(route, [])
        bucket.append(seconds)
        del bucket[:-50]


class ViewerState:
    def __init__(self, mem: Memory, token: str, *, run_doctor: bool = True):
        self.mem = mem
        self.token = token
        self.started = datetime.now(timezone.utc)
        self._counter: Any = None  # a TokenCounter, made on first count
        self.inventory = Inventory(mem, self.count_tokens)
        self.timing = Timing()
        self.doctor = DoctorState()
        self._index = None
        self._index_lock = threading.RLock()
        self._flash: OrderedDict[str, str] = OrderedDict()
        self._threads: list[threading.Thread] = []
        if run_doctor:
            self.start_doctor()

    # ---- tokens -------------------------------------------------------------------------
    def count_tokens(self, text: str) -> int:
        if self._counter is None:
            from lorestack.retrieval.tokens import TokenCounter

            self._counter = TokenCounter(self.mem.settings.tokens.encoding)
        return self._counter(text)

    # ---- index --------------------------------------------------------------------------
    def search(self, query: str, **kw):
        """`MemoryIndex.search` on the shared index; (hits, warnings)."""
        with self._index_lock:
            index = self._open_index()
            hits = index.search(query, **kw)
            return hits, list(index.last_warnings)

    def _open_index(self):
        if self._index is None:
            from lorestack.retrieval.index import MemoryIndex

            self._index = MemoryIndex(self.mem, warn=lambda _m: None, sync_interval=2.0)
        return self._index

    def index_docs(self) -> int | None:
        """Documents the index catalog holds (read-only; None when there is no index yet):
        the live ones, as `Catalog.count_docs` (a row marked removed waits for a full sync)."""
        from lorestack.retrieval.catalog import REMOVED

        path = self.mem.primary.index_dir / "catalog.sqlite"
        if not path.is_file():
            return None
        try:
            db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1)
            try:
                return db.execute("SELECT count(*) FROM docs WHERE doc_hash != ?",
                                  (REMOVED,)).fetchone()[0]
            finally:
                db.close()
        except sqlite3.Error:
            return None

    def index_bytes(self) -> int:
        total = 0
        for part in ("tantivy", "chroma", "catalog.sqlite"):
            path = self.mem.primary.index_dir / part
            if path.is_file():
                total += path.stat().st_size
            elif path.is_dir():
                total += sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
        return total

    # ---- doctor -------------------------------------------------------------------------
    def start_doctor(self) -> bool:
        if self.doctor.running:
            return False
        self.doctor.running = True
        thread = threading.Thread(target=self._run_doctor, name="lorestack-ui-doctor", daemon=True)
        self._threads.append(thread)
        thread.start()
        return True

    def _run_doctor(self) -> None:
        started = time.perf_counter()
        try:
            from lorestack.retrieval.index import MemoryIndex

            # its own index handle, as `lorestack doctor` has: searches need not wait for it
            index = MemoryIndex(self.mem, warn=lambda _m: None)
            try:
                report = index.doctor(repair=False)
            finally:
                index.close()
            self.doctor.report, self.doctor.error = report, ""
        except Exception as exc:  # noqa: BLE001 - shown on the overview, never a crash
            self.doctor.error = f"{type(exc).__name__}: {exc}"
        finally:
            self.doctor.seconds = time.perf_counter() - started
            self.doctor.finished = datetime.now(timezone.utc)
            self.doctor.running = False

    # ---- flash messages (one page view after a POST-redirect) -------------------------------
    def flash(self, message: str) -> str:
        key = secrets.token_urlsafe(8)
        self._flash[key] = message
        while len(self._flash) > 100:
            self._flash.popitem(last=False)
        return key

    def take_flash(self, key: str | None) -> str:
        return self._flash.pop(key, "") if key else ""

    # ---- lifecycle ----------------------------------------------------------------------
    def close(self) -> None:
        for thread in self._threads:
            thread.join(timeout=30)
        self.inventory.close()
        with self._index_lock:
            if self._index is not None:
                self._index.close()
                self._index = None

    def usage(self, item_id: str) -> tuple[int, datetime | None]:
        from lorestack.retrieval.usage import UsageStore

        path: Path = self.mem.primary.index_dir / "usage.sqlite"
        if not path.is_file():
            return 0, None
        store = UsageStore(path)
        try:
            return store.get([item_id]).get(item_id, (0, None))
        finally:
            store.close()
