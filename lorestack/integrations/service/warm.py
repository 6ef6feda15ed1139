"""What the service keeps warm per project, and the requests that use it.

`WarmMemories` opens each project's `Memory` once per settings overlay (the caller's
`LORESTACK_*` variables and flags: settings are composed once per overlay and cached, so a
caller with one more variable gets its own settings, not a refusal) and keeps it until its
`.memory/` changes settings, disappears or the service stops; the index pool
(`lorestack.retrieval.pool`) keeps its tantivy reader, Chroma collection and embedder open.
Requests on one project share a read/write lock: reads (hooks, search, context, check) run
together, writes (remember, log, forget, consolidation, the watcher's index sync) one at a
time.
"""

from __future__ import annotations

import contextvars
import functools
import gc
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lorestack.app import hooks
from lorestack.integrations.service.jobs import ExtractionJob, ExtractionQueue
from lorestack.integrations.service.watch import FolderWatcher
from lorestack.retrieval.pool import IndexPool

_SETTINGS_FILES = ("config.toml",)
MAX_OVERLAYS = 32  # settings kept per (project, overlay); the least recently used goes first


class ReadWriteLock:
    """Many readers or one writer; a waiting writer holds back new readers."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._readers = 0
        self._writer = False
        self._waiting_writers = 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        with self._cond:
            while self._writer or self._waiting_writers:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                if not self._readers:
                    self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            self._waiting_writers += 1
            while self._writer or self._readers:
                self._cond.wait()
            self._waiting_writers -= 1
            self._writer = True
        try:
            yield
        finally:
            with self._cond:
                self._writer = False
                self._cond.notify_all()


class WarmMemories:
    def __init__(self, pool: IndexPool, *, log=lambda _m: None, watch: bool = True):
        self.pool = pool
        self.log = log
        self._mems: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._locks: dict[str, ReadWriteLock] = {}
        self._lock = threading.RLock()
        self._warming = threading.Lock()
        self._loader_warmed: set[str] = set()
        self._prepared: dict[str, dict] = {}  # root -> hit blocks made, seconds (`status`)
        self._closing = threading.Event()
        self._stamps: dict[str, tuple[int | None, ...]] = {}  # key -> its folders' mtimes
        self.watcher = FolderWatcher(self._changed, self._gone, log=log) if watch else None
        pool.on_open = self._watch  # commands open indexes without going through `open`

    # ---- locks --------------------------------------------------------------------------
    def lock_for(self, key: str) -> ReadWriteLock:
        with self._lock:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = ReadWriteLock()
            return lock

    @staticmethod
    def project_key(cwd: str | None, root: str | None) -> str:
        """The project a caller's request is about (its `.memory` folder), or the global home.
        Call inside the caller's overlay (`core.overlay.caller`)."""
        from lorestack.core.errors import MemoryRootNotFound
        from lorestack.core.paths import find_project_root, global_home

        start = Path(cwd) if cwd and Path(cwd).is_dir() else None
        try:
            project = find_project_root(start, root)
            if project.is_dir():
                return str(project)
        except MemoryRootNotFound:
            pass
        return f"global:{global_home()}"

    @contextmanager
    def access(self, key: str, mode: str) -> Iterator[None]:
        lock = self.lock_for(key)
        with lock.writing() if mode == "write" else lock.reading():
            yield

    # ---- opening ---------------------------------------------------------------------------
    def opener(self, caller, require_project: bool = True):
        """The application layer's opener: a warm `Memory` for this caller's project and
        settings overlay (call inside `core.overlay.caller`)."""
        from lorestack.app.opening import open_memory
        from lorestack.core.overlay import environ, fingerprint

        key = self.project_key(caller.cwd, caller.root)
        flags = ",".join(f"{k}={caller.flags[k]!r}" for k in sorted(caller.flags))
        cache_key = (key, fingerprint(dict(environ())) + flags + f"|{require_project}")
        with self._lock:
            mem = self._mems.get(cache_key)
            if mem is not None and (key.startswith("global:") or Path(key).is_dir()):
                self._mems.move_to_end(cache_key)
                return mem
        mem = open_memory(caller, require_project)
        self._build_if_cold(mem)
        self._warm_loader(mem)
        if not self._warm_up(mem):
            # not kept: taken from the cache, the next request would skip the warm-up and
            # open this index beside the other memory's warm-up; it tries the warm-up again
            self._watch(mem)
            return mem
        with self._lock:
            self._mems[cache_key] = mem
            while len(self._mems) > MAX_OVERLAYS:
                self._mems.popitem(last=False)
        self._watch(mem)
        return mem

    def _warm_loader(self, mem) -> None:
        """Bring the loader's cache up to date once per memory, behind the request: a store
        never cached is parsed here (seconds at 10k items) while hooks that need it wait for
        this one parse (`context_cache` lets one refresh per root run) instead of each
        starting their own. Then every item's hit block is rendered once
        (`loader.prepare_hit_blocks`): a prompt's hits become look-ups."""
        key = str(mem.primary.root)
        with self._lock:
            if key in self._loader_warmed:
                return
            self._loader_warmed.add(key)

        def warm() -> None:
            from lorestack.retrieval.loader import prepare_hit_blocks, warm_cache

            try:
                warm_cache(mem)
                started = time.monotonic()
                made = prepare_hit_blocks(mem, stop=self._closing.is_set)
                # the tokenizer's table (0.3-0.7 s to load) is needed by the first context
                # that meets new text (an excerpt, an edited item): loaded here, not then
                from lorestack.retrieval.tokens import get_encoding

                get_encoding(mem.settings.tokens.encoding)
                spent = round(time.monotonic() - started, 1)
                # what is kept from here on is never garbage: out of the collector's full
                # passes (hundreds of ms each at 10k items), which no request then waits for
                gc.collect()
                gc.freeze()
                with self._lock:
                    if key in self._loader_warmed:  # not dropped (_forget) meanwhile
                        self._prepared[key] = {"hit_blocks": made, "seconds": spent}
                self.log(f"{key}: {made} hit blocks prepared in {spent} s")
            except Exception as exc:  # noqa: BLE001 - the request itself reports what fails
                failed = f"{type(exc).__name__}: {exc}"
                with self._lock:  # `status` says so: a bench waiting for it stops waiting
                    if key in self._loader_warmed:
                        self._prepared[key] = {"failed": failed}
                self.log(f"loader cache of {key}: {failed}")

        threading.Thread(target=warm, daemon=True, name="lorestack-loader-warm").start()

    def prepared(self) -> dict[str, dict]:
        with self._lock:
            return dict(self._prepared)

    def warming(self) -> list[str]:
        """The memories whose loader warm-up has started and not yet ended."""
        with self._lock:
            return sorted(self._loader_warmed - set(self._prepared))

    def _warm_up(self, mem) -> bool:
        """Open the pooled index (tantivy reader, Chroma client, embedder) with one search,
        one memory at a time: their lazy set-up is not safe to race from several readers.
        False when this request could not wait for the warm-up (`not_warmed`): a hook waits
        for it (its own or another's) at most half of what its deadline leaves for an opening,
        then answers from BM25 on an index of its own while the warm-up goes on behind it
        (100k events: the warm-up took the whole 2.5 s deadline and the prompt answered empty)."""
        from lorestack.retrieval.pool import not_warmed, opening_wait
        from lorestack.retrieval.recall import index_is_warm

        if mem.project is None or not index_is_warm(mem):
            return True
        wait = opening_wait()
        share = None if wait is None else wait / 2
        started = time.monotonic()
        if not self._warming.acquire(timeout=-1 if share is None else share):
            not_warmed()
            return False
        done = threading.Event()

        def search() -> None:
            from lorestack.retrieval import recall

            try:
                recall.search_hits(mem, "warm up", k=1, mode="default", sync=False,
                                   record_access=False)
            except Exception as exc:  # noqa: BLE001 - the request itself reports what fails
                self.log(f"warm-up of {mem.primary.root}: {type(exc).__name__}: {exc}")
            finally:
                self._warming.release()
                done.set()

        if share is None:  # a command: no deadline, it waits
            search()
            return True
        # in this request's overlay; with its deadline only the first opening is bounded
        threading.Thread(target=contextvars.copy_context().run, args=(search,), daemon=True,
                         name="lorestack-index-warm").start()
        if done.wait(max(0.0, share - (time.monotonic() - started))):
            return True
        not_warmed()
        return False

    def open(self, payload: hooks.HookPayload, root: str | None):
        """A warm memory for a hook payload (session ends queue their job with it)."""
        from lorestack.app.events import hook_opener
        from lorestack.app.models import Caller

        return hook_opener(Caller(cwd=payload.cwd, root=root), self.opener)(payload, root)

    def _watch(self, mem) -> None:
        if self.watcher is not None:
            if mem.project is not None:
                self.watcher.watch(mem.project.root)
            if mem.home.root.is_dir():
                self.watcher.watch(mem.home.root)

    def _build_if_cold(self, mem) -> None:
        """A store never indexed: build it in the background, on its own index handles, so
        requests keep answering (without recall) meanwhile and the next session has it."""
        from lorestack.retrieval.recall import index_is_warm

        if mem.project is None or index_is_warm(mem):
            return

        def build() -> None:
            from lorestack.retrieval.index import MemoryIndex

            index = MemoryIndex(mem, warn=self.log)
            try:
                index.sync()
            except Exception as exc:  # noqa: BLE001 - recall stays off; the log says why
                self.log(f"index build for {mem.primary.root} failed: {type(exc).__name__}: {exc}")
            finally:
                index.close()
            self.pool.mark_stale(str(mem.primary.root))

        threading.Thread(target=build, daemon=True, name="lorestack-index-build").start()

    def projects(self) -> list[str]:
        with self._lock:
            return sorted({k[0] for k in self._mems})

    def overlays(self) -> int:
        with self._lock:
            return len(self._mems)

    def catch_up(self, key: str) -> None:
        """Before a request on `key` (call inside the caller's overlay): when one of its memory
        folders moved since the last request (a file saved, added or removed by hand), catch its
        open indexes up (bounded: IndexPool.catch_up). The watcher runs 0.1-1 s behind: a
        search right after a save missed it. ~30 stats; an edit in place (same file, same
        folder mtime) is still the watcher's. What was written while no service watched is
        caught up where an index is opened (IndexPool.get), not here."""
        from lorestack.core.paths import global_home

        root = key.removeprefix("global:")
        try:
            roots = [root] if key.startswith("global:") else [root, str(global_home())]
            stamps = folder_stamps(roots)
        except Exception as exc:  # noqa: BLE001 - the watcher still catches it up
            self.log(f"folder stamps of {root} not read: {type(exc).__name__}: {exc}")
            return
        with self._lock:
            seen = self._stamps.get(key)
            self._stamps[key] = stamps
        if seen is not None and seen != stamps:
            with self.access(key, "write"):
                self.pool.catch_up(root)  # bounded: a few files now, the rest the watcher's

    # ---- watcher callbacks --------------------------------------------------------------
    def _forget(self, root: str) -> None:
        with self._lock:
            for key in [k for k, m in self._mems.items()
                        if k[0] == root or str(m.home.root) == root]:
                self._mems.pop(key, None)
            self._loader_warmed.discard(root)
            self._prepared.pop(root, None)
        self.pool.drop(root)
        # what a warm froze may be garbage now; the next warm freezes what is kept again
        gc.unfreeze()

    def _changed(self, root: str, paths: set[str]) -> None:
        from lorestack.memory_layers import parse_cache

        parse_cache.forget(paths)
        with self.access(root, "write"):
            if any(Path(p).name in _SETTINGS_FILES for p in paths):
                self._forget(root)  # settings are read once per memory: open it again
                return
            self.pool.sync(root)

    def _gone(self, root: str) -> None:
        self.log(f"{root} is gone; dropped from the service (opened again on demand)")
        with self.access(root, "write"):
            self._forget(root)

    def close(self) -> None:
        self._closing.set()
        if self.watcher is not None:
            self.watcher.stop_all()
        self.pool.close_all()


def folder_stamps(roots: list[str]) -> tuple[int | None, ...]:
    """The mtimes (ns) of the folders whose files are indexed under these memory roots: the
    root, each type folder, the journal and the archive's (None: not there)."""
    out: list[int | None] = []
    for path in _stamped_folders(tuple(roots)):
        try:
            out.append(os.stat(path).st_mtime_ns)
        except OSError:
            out.append(None)
    return tuple(out)


@functools.lru_cache(maxsize=64)
def _stamped_folders(roots: tuple[str, ...]) -> tuple[str, ...]:
    from lorestack.memory_layers.models import TYPE_FOLDERS

    names = ("", "journal", "archive", *TYPE_FOLDERS.values(),
             *(os.path.join("archive", f) for f in TYPE_FOLDERS.values()))
    return tuple(os.path.join(root, name) for root in roots for name in names)


def queue_session_end(
    warm: WarmMemories,
    jobs: ExtractionQueue,
    event: str,
    client: str,
    stdin_text: str,
    root: str | None,
    cwd: str | None,
) -> str:
    """Queue the transcript for extraction and answer at once (fail-open format)."""
    empty = hooks.fail_open_output(client, event)
    payload = hooks.parse_payload(stdin_text, client, event)
    if payload.refused:  # e.g. over the size a hook reads (run_hook says so the same way)
        hooks.log_failure(f"{event} ({client}): {payload.refused}")
        return empty
    if payload.cwd is None and cwd:
        payload.cwd = cwd
    if not payload.transcript_path:
        return empty
    try:
        mem = warm.open(payload, root)
    except Exception as exc:  # noqa: BLE001 - a hook never fails
        hooks.log_failure(f"session-end ({client}): {type(exc).__name__}: {exc}")
        return empty
    if mem is None or mem.project is None:
        return empty
    if payload.hook_event_name in hooks.client_spec(client).per_turn_end_events:
        # e.g. Codex fires Stop after every turn: extract at most every N seconds per session
        if not hooks.claim_end(mem, payload.session_id,
                               mem.settings.hooks.session_end_min_interval_s):
            return empty
    job = ExtractionJob(
        key=payload.session_id or payload.transcript_path,
        transcript=payload.transcript_path,
        client=client,
        root=str(mem.project.root),
        session=payload.session_id,
    )
    jobs.submit(job, payload.hook_event_name or event)
    return empty


def run_extraction(job: ExtractionJob) -> None:
    """The queue's worker: the same code as `lorestack extract` (guard, store, journal locks)."""
    from lorestack.app.hook_jobs import open_leniently, tell_failure
    from lorestack.consolidation.extract import extract_session

    try:
        # a broken config.toml must not lose the session: read leniently, as the hook was
        mem = open_leniently(job.root, require_project=True)
        extract_session(mem, job.transcript, job.client or "auto", session=job.session)
    except Exception as exc:
        if job.attempts == 0:  # the queue retries it; hooks.log is told once
            tell_failure(job.root, job.transcript, exc)
        raise
