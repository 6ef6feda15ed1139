"""What the service keeps warm per project, and the requests that use it.

`WarmMemories` opens each project's `Memory` once (settings read once, like a command's entry
point) and keeps it until its `.memory/` changes settings, disappears or the service stops;
the index pool (`lorestack.retrieval.pool`) keeps its tantivy reader, Chroma collection and
embedder open. Hooks run through `hooks.run_hook` with this warm memory, so their deadline
and fallback rules are the same as in-process; session ends only queue an extraction job.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from lorestack.core.clients import DEFAULT_CLIENT
from lorestack.integrations import hooks
from lorestack.integrations.service.jobs import ExtractionJob, ExtractionQueue
from lorestack.integrations.service.watch import FolderWatcher
from lorestack.retrieval.pool import IndexPool

_SETTINGS_FILES = ("config.toml",)


class WarmMemories:
    def __init__(self, pool: IndexPool, *, log=lambda _m: None, watch: bool = True):
        self.pool = pool
        self.log = log
        self._mems: dict[str, Any] = {}
        self._lock = threading.RLock()
        self.work_lock = threading.RLock()  # one request's work at a time (cwd, stdio, indexes)
        self.watcher = FolderWatcher(self._changed, self._gone, log=log) if watch else None
        pool.on_open = self._watch  # commands open indexes without going through `open`

    # ---- opening ---------------------------------------------------------------------------
    def open(self, payload: hooks.HookPayload, root: str | None):
        """Like the hook's own opener, but cached per project and watched."""
        from lorestack.core.errors import MemoryRootNotFound
        from lorestack.core.paths import find_project_root, global_home

        cwd = Path(payload.cwd) if payload.cwd and Path(payload.cwd).is_dir() else None
        try:
            project = find_project_root(cwd, root)
            key = str(project) if project.is_dir() else None
        except MemoryRootNotFound:
            key = None
        home = global_home()
        cache_key = key or f"global:{home}"
        with self._lock:
            mem = self._mems.get(cache_key)
            if mem is not None and (key is None or Path(key).is_dir()):
                return mem
        mem = hooks._open_memory(payload, key)
        if mem is None:
            return None
        with self._lock:
            self._mems[cache_key] = mem
        self._build_if_cold(mem)
        self._watch(mem)
        return mem

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
            return sorted(self._mems)

    # ---- watcher callbacks --------------------------------------------------------------
    def _forget(self, root: str) -> None:
        with self._lock:
            for key in [k for k, m in self._mems.items() if k == root or str(m.home.root) == root]:
                self._mems.pop(key, None)
        self.pool.drop(root)

    def _changed(self, root: str, paths: set[str]) -> None:
        from lorestack.memory_layers import parse_cache

        parse_cache.forget(paths)
        if any(Path(p).name in _SETTINGS_FILES for p in paths):
            with self.work_lock:
                self._forget(root)  # settings are read once per memory: open it again
            return
        with self.work_lock:
            self.pool.sync(root)

    def _gone(self, root: str) -> None:
        self.log(f"{root} is gone; dropped from the service (opened again on demand)")
        with self.work_lock:
            self._forget(root)

    def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop_all()
        self.pool.close_all()


def handle_hook(warm: WarmMemories, jobs: ExtractionQueue, request: dict) -> dict:
    """Answer a `hook` request: the client's output, within `budget_ms`."""
    event = str(request.get("event") or "")
    client = str(request.get("client") or DEFAULT_CLIENT)
    if client not in hooks.CLIENTS or event not in hooks.EVENTS:
        return {"ok": False, "error": "usage", "message": f"unknown hook {event!r} / {client!r}"}
    stdin_text = str(request.get("stdin") or "")
    root = request.get("root") or None
    payload_cwd = request.get("cwd")
    if event == "session-end":
        return {
            "output": queue_session_end(warm, jobs, event, client, stdin_text, root, payload_cwd)
        }
    budget = request.get("budget_ms")

    def opener(payload, root_):
        if payload.cwd is None and payload_cwd:
            payload.cwd = payload_cwd
        return warm.open(payload, root_)

    with warm.work_lock:
        run = hooks.run_hook(
            event,
            client,
            stdin_text,
            root=root,
            open_memory=opener,
            deadline_ms=int(budget) if isinstance(budget, (int, float)) else None,
        )
    return {"output": run.output, "timed_out": run.timed_out, "elapsed_ms": run.elapsed_ms}


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
        state = hooks.load_session(mem, payload.session_id)
        if (
            time.time() - float(state.get("last_end", 0) or 0)
            < mem.settings.hooks.session_end_min_interval_s
        ):
            return empty
        hooks.save_session(mem, payload.session_id, {**state, "last_end": time.time()})
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
    from lorestack.consolidation.extract import extract_session
    from lorestack.memory_layers.memory import Memory

    no_download: dict[str, Any] = {"embedding.allow_download": False}
    mem = Memory.open(job.root, require_project=True, **no_download)
    extract_session(mem, job.transcript, job.client or "auto", session=job.session)
