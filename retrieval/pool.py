"""Open indexes kept warm by a long-lived process (the resident service), one per memory.

A one-shot command opens the index, searches and closes it; the service instead installs an
`IndexPool`, and `borrow_index` then hands out the pool's open `MemoryIndex` (tantivy reader,
Chroma collection, catalog, embedder) for that memory. Its stat sweep before each search is
skipped for `sync_interval` seconds: the service's file watcher calls `mark_stale` when a file
under `.memory/` changes, so the next search syncs exactly when something did.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex


class IndexPool:
    def __init__(
        self, sync_interval: float = 300.0, on_open: Callable[[Memory], None] | None = None
    ):
        self.sync_interval = sync_interval
        self.on_open = on_open  # the service starts watching a memory it opens
        self._open: dict[tuple[str, str], MemoryIndex] = {}
        self._folders: dict[tuple[str, str], tuple[int | None, int | None]] = {}
        self._lock = threading.RLock()

    @staticmethod
    def _key(mem: Memory) -> tuple[str, str]:
        return str(mem.primary.root), mem.settings.model_dump_json()

    def get(self, mem: Memory) -> MemoryIndex:
        from lorestack.retrieval.index import MemoryIndex

        key = self._key(mem)
        with self._lock:
            index = self._open.get(key)
            if index is not None and self._rebuilt_elsewhere(key, index):
                self._open.pop(key, None)
                index.close()
                index = None
            if index is None:
                index = MemoryIndex(mem, sync_interval=self.sync_interval, warn=lambda _m: None)
                self._open[key] = index
                self._folders[key] = _folders(index)
                if self.on_open is not None:
                    self.on_open(mem)
            return index

    def _rebuilt_elsewhere(self, key: tuple[str, str], index: MemoryIndex) -> bool:
        """Whether another process (`lorestack reindex`) removed and made again the folders
        this open index reads: its handles go on reading (and writing) the removed ones, so
        every item written after the rebuild was missing from the service's dense ranking."""
        now, seen = _folders(index), self._folders.get(key, (None, None))
        self._folders[key] = now
        return any(a is not None and a != b for a, b in zip(seen, now))

    def _matching(self, root: str) -> list[tuple[tuple[str, str], MemoryIndex]]:
        return [(k, i) for k, i in self._open.items() if k[0] == root]

    def mark_stale(self, root: str) -> None:
        """Files under `root` changed: the next search sweeps and syncs."""
        with self._lock:
            for _key, index in self._matching(root):
                index._last_sweep = 0.0

    def sync(self, root: str) -> None:
        """Bring `root`'s open indexes up to date now (the watcher calls this off the hot path)."""
        with self._lock:
            for _key, index in self._matching(root):
                index._last_sweep = 0.0
                index._search_sync()

    def drop(self, root: str) -> None:
        with self._lock:
            for key, index in self._matching(root):
                self._open.pop(key, None)
                index.close()

    def roots(self) -> set[str]:
        with self._lock:
            return {k[0] for k in self._open}

    def close_all(self) -> None:
        with self._lock:
            for index in self._open.values():
                index.close()
            self._open.clear()


def _folders(index: MemoryIndex) -> tuple[int | None, int | None]:
    """The inode numbers of the index's tantivy and Chroma folders (None: not there yet)."""
    out: list[int | None] = []
    for name in ("tantivy", "chroma"):
        try:
            out.append(os.stat(index.dir / name).st_ino)
        except OSError:
            out.append(None)
    return out[0], out[1]


_active: IndexPool | None = None


def install(pool: IndexPool | None) -> None:
    """Make `borrow_index` hand out `pool`'s indexes (None: back to open-search-close)."""
    global _active
    _active = pool


def active() -> IndexPool | None:
    return _active


@contextmanager
def borrow_index(mem: Memory, warn: Callable[[str], None] | None = None) -> Iterator[MemoryIndex]:
    """The pool's open index for `mem`, or a fresh one closed afterwards."""
    from lorestack.retrieval.index import MemoryIndex

    pool = _active
    if pool is None:
        index = MemoryIndex(mem, warn=warn)
        try:
            yield index
        finally:
            index.close()
        return
    index = pool.get(mem)
    saved = index.warn
    index.warn = warn or saved
    try:
        yield index
    finally:
        index.warn = saved
