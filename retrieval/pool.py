"""Open indexes kept warm by a long-lived process (the resident service), one per memory.

A one-shot command opens the index, searches and closes it; the service instead installs an
`IndexPool`, and `borrow_index` then hands out the pool's open `MemoryIndex` (tantivy reader,
Chroma collection, catalog, embedder) for that memory. Its stat sweep before each search is
skipped for `sync_interval` seconds: the service's file watcher calls `mark_stale` when a file
under `.memory/` changes, so the next search syncs exactly when something did.
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex


# of a hook's deadline, kept for its answer when another request is opening the index it
# needs (catalog titles and the journal: ~0.1-0.5 s in the service); at least a second
OPENING_RESERVE = 0.4
OPENING_RESERVE_MIN_S = 1.0
CATCH_UP_EMBEDDINGS = 8  # a few files saved by hand: ~10-30 ms each to embed
CATCH_UP_LOCK_WAIT_S = 0.2


class IndexPool:
    def __init__(
        self, sync_interval: float = 300.0, on_open: Callable[[Memory], None] | None = None
    ):
        self.sync_interval = sync_interval
        self.on_open = on_open  # the service starts watching a memory it opens
        self._open: dict[tuple[str, str], MemoryIndex] = {}
        self._folders: dict[tuple[str, str], tuple[int | None, int | None]] = {}
        self._lock = threading.RLock()
        self._opening: dict[tuple[str, str], threading.Event] = {}  # being opened, by key
        self._stale_opening: set[str] = set()  # roots changed while one of theirs opened

    @staticmethod
    def _key(mem: Memory) -> tuple[str, str]:
        return str(mem.primary.root), mem.settings.model_dump_json()

    def get(self, mem: Memory) -> MemoryIndex:
        """The open index of `mem`, opened (and caught up) on its first request. The opening
        runs outside the pool's lock: a 100k store's catch-up (a sync, the model loaded to
        embed what changed) held every other project's requests behind it. A second request
        for the same index waits for that opening instead of opening its own, within the
        deadline of the hook it serves (`opening_wait`): past that it raises IndexOpening."""
        from lorestack.retrieval.index import MemoryIndex

        key = self._key(mem)
        if _unwarmed.get():  # set by a warm-up this request could not wait for (`not_warmed`)
            from lorestack.core.errors import IndexOpening

            with self._lock:
                index = self._open.get(key)
            if index is None:
                raise IndexOpening(f"the index of {key[0]} is being opened behind another "
                                   "request's warm-up")
            return index
        while True:
            with self._lock:
                index = self._open.get(key)
                if index is not None and self._rebuilt_elsewhere(key, index):
                    self._open.pop(key, None)
                    index.close()
                    index = None
                if index is not None:
                    return index
                opening = self._opening.get(key)
                if opening is None:
                    opening = self._opening[key] = threading.Event()
                    break
            # another request opens it: take what it opened (or open it anew)
            if not opening.wait(opening_wait()):
                from lorestack.core.errors import IndexOpening

                raise IndexOpening(f"the index of {key[0]} is being opened by another request")
        index = None
        try:
            index = MemoryIndex(mem, sync_interval=self.sync_interval, warn=lambda _m: None)
            folders = _folders(index)
            if self.on_open is not None:
                self.on_open(mem)
            # what was written while no service watched (`remember` in-process, a pull)
            # reached no watcher: caught up before the request that opens it searches,
            # while no other request holds this index yet
            _catch_up_one(index)
            with self._lock:
                self._open[key] = index
                self._folders[key] = folders
                if key[0] in self._stale_opening:  # the watcher saw a change meanwhile
                    index._last_sweep = 0.0
            return index
        except BaseException:
            if index is not None:
                index.close()
            raise
        finally:
            with self._lock:
                self._opening.pop(key, None)
                self._stale_opening.discard(key[0])
            opening.set()

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
            self._mark_opening(root)

    def _mark_opening(self, root: str) -> None:
        if any(key[0] == root for key in self._opening):
            self._stale_opening.add(root)

    def sync(self, root: str) -> None:
        """Bring `root`'s open indexes up to date now (the watcher calls this off the hot path)."""
        with self._lock:
            for _key, index in self._matching(root):
                index._last_sweep = 0.0
                index._search_sync()
            self._mark_opening(root)

    def catch_up(self, root: str) -> None:
        """A request's own catch-up with files saved by hand a moment ago (hooks search without
        syncing): bounded, as it runs before the hook's deadline starts. A short wait for the
        sync lock (a sync under way is the watcher's, which covers it) and at most
        CATCH_UP_EMBEDDINGS embeddings: past that the text index is brought up to date and the
        vectors are left to the watcher. Unbounded, 120 files saved at once held a prompt hook,
        and every request queued behind it, for 29.5 s (review of the fourteenth session)."""
        with self._lock:
            indexes = [index for _key, index in self._matching(root)]
            self._mark_opening(root)
        for index in indexes:
            _catch_up_one(index)

    def drop(self, root: str) -> None:
        with self._lock:
            self._mark_opening(root)
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


# this request's context: its memory's warm-up was skipped (another held the warm-up lock past
# what its deadline allowed), so it opens no pooled index itself: its lazy set-up must not race
_unwarmed: contextvars.ContextVar[bool] = contextvars.ContextVar("lorestack_unwarmed",
                                                                 default=False)


def not_warmed() -> None:
    """The request running in this context skipped its memory's warm-up: from here on it uses
    only an index the pool has open already (else IndexOpening: it answers without it)."""
    _unwarmed.set(True)


def skipped_warm_up() -> bool:
    """This request's memory is still warming up (`not_warmed`): a prompt answers from BM25 on
    an index of its own (`own_index`) instead of waiting for the pooled one."""
    return _unwarmed.get()


# this request's searches open an index of their own, not the pool's (a BM25 answer while
# the pooled one is warming up: its lazy set-up must not race, and waiting on it is the delay)
_own: contextvars.ContextVar[bool] = contextvars.ContextVar("lorestack_own_index", default=False)


@contextmanager
def own_index() -> Iterator[None]:
    token = _own.set(True)
    try:
        yield
    finally:
        _own.reset(token)


def opening_wait() -> float | None:
    """How long this request may wait for another's opening of an index: what its hook's
    deadline leaves beyond the reserve for its answer; None (no bound) outside a hook."""
    from lorestack.core.guarded import current_deadline

    deadline = current_deadline()
    if deadline is None:
        return None
    reserve = max(OPENING_RESERVE_MIN_S, OPENING_RESERVE * deadline.seconds)
    return max(0.0, deadline.remaining() - reserve)


def _catch_up_one(index: MemoryIndex) -> None:
    """`IndexPool.catch_up` for one index: bounded lock wait and embeddings."""
    try:
        report = index._locked_sync(quick=True, timeout=CATCH_UP_LOCK_WAIT_S,
                                    max_embed=CATCH_UP_EMBEDDINGS)
    except Exception as exc:  # noqa: BLE001 - the watcher still catches it up
        index._warn(f"catch-up sync skipped ({type(exc).__name__}: {exc})")
        return
    for message in report.warnings:
        index._warn(message)


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


_held = threading.local()  # `one_index`: this thread's open index for one request


@contextmanager
def one_index(mem: Memory) -> Iterator[None]:
    """Within the block, this thread's `borrow_index(mem)` hands out one index, opened at the
    first borrow and closed on leaving, instead of opening and closing one per search.

    For a process without a pool (a hook answered in-process, a command) whose one request
    searches several times: the loader's first search and the deeper ones that fill its
    budget each opened Chroma, loaded its HNSW graph and scanned the known speakers again
    (100k events: ~0.8 s a search; the first prompt after boot missed its deadline). With a
    pool installed (the service), or inside another such block, it changes nothing."""
    if _active is not None or getattr(_held, "slot", None) is not None:
        yield
        return
    slot: dict = {"mem": mem, "index": None}
    _held.slot = slot
    try:
        yield
    finally:
        _held.slot = None
        if slot["index"] is not None:
            slot["index"].close()


@contextmanager
def borrow_index(mem: Memory, warn: Callable[[str], None] | None = None) -> Iterator[MemoryIndex]:
    """The pool's open index for `mem`, the one `one_index` holds for it, or a fresh one
    closed afterwards."""
    from lorestack.retrieval.index import MemoryIndex

    pool = _active
    slot: dict | None = getattr(_held, "slot", None)
    if pool is not None and not _own.get():
        index = pool.get(mem)
    elif slot is not None and slot["mem"] is mem:
        if slot["index"] is None:  # its own warn is a fresh index's; each borrow sets one
            slot["index"] = MemoryIndex(mem)
        index = slot["index"]
    else:
        index = MemoryIndex(mem, warn=warn)
        try:
            yield index
        finally:
            index.close()
        return
    saved = index.warn
    index.warn = warn or saved
    try:
        yield index
    finally:
        index.warn = saved
