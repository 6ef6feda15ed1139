"""Client hooks: read the client's payload, do the work under a deadline, answer in its format.

A hook must never break a session. Whatever happens — no memory here, a broken store, a
corrupt index, a deadline that passes — the command exits 0, prints nothing the client could
misread (an empty answer in the client's own format), and writes what went wrong to
`hooks.log` under the index folder.

Each client's payload fields, event names and reply format live in the client registry
(`lorestack.core.clients`); this module does the work behind lorestack's three events.
"""

from __future__ import annotations

import contextvars
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from lorestack.app.hook_settings import _configured_hooks  # noqa: F401 - callers read it here
from lorestack.app.secret_notice import (
    give_back,
    hand_on,
    session_notice,
    told_after_reply,
    with_notice,
)
from lorestack.app.session_start import (  # noqa: F401 - callers read them here
    session_context,
    session_query,
    session_start,
)
from lorestack.app.sessions import (  # noqa: F401 - callers read them here
    _prune_sessions,
    claim_end,
    load_session,
    reset_session,
    save_session,
    update_session,
)
from lorestack.core.clients import (  # noqa: F401 - the registry; re-exported for callers
    CLIENTS,
    EVENTS,
    HookPayload,
    format_output,
    parse_payload,
)
from lorestack.core.clients import get as client_spec


def fail_open_output(client: str, event: str) -> str:
    """The harmless answer: valid for the client, adds nothing, blocks nothing."""
    return format_output(client, event, None)


# ---- logging and session state --------------------------------------------------------------
def _log_path(mem=None) -> Path:
    if mem is not None:
        return mem.primary.index_dir / "hooks.log"
    from lorestack.core.paths import find_project_root, global_home

    try:
        return find_project_root() / ".index" / "hooks.log"
    except Exception:  # noqa: BLE001 - no project: the global home keeps the log
        return global_home() / ".index" / "hooks.log"


def _log_to(mem=None, path: Path | None = None) -> None:
    """Send lorestack's log records (warnings included) to this memory's hooks.log."""
    from lorestack.core.logs import attach_file

    try:
        attach_file(path or _log_path(mem))
    except Exception:  # noqa: BLE001 - no log is better than a failed hook
        pass


def log_failure(message: str, *, mem=None, path: Path | None = None) -> None:
    """One line in hooks.log, redacted (an error can quote a key); never raises."""
    from lorestack.core.logs import get_logger
    from lorestack.memory_layers.secret_guard import redact_for_reading

    _log_to(mem, path)
    try:
        get_logger("hooks").warning(redact_for_reading(message.strip())[0])
    except Exception:  # noqa: BLE001, S110 - a log that cannot be written is skipped
        pass


def capture_native_stderr() -> None:
    """Point file descriptor 2 at hooks.log for the rest of this hook process.

    Native code (Chroma's Rust core, ONNX) writes panics and diagnostics straight to fd 2,
    past any Python handler; in a hook that text would land in the client's session.
    """
    try:
        target = _log_path()
        if not target.parent.is_dir():
            return
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK, 0o644)
        os.dup2(fd, 2)
        os.close(fd)
    except Exception:  # noqa: BLE001, S110 - keep the inherited stderr then
        pass


# ---- the three events -------------------------------------------------------------------------
def _log_degraded(mem, where: str, result) -> None:
    """Say in hooks.log when recall came from less than the full index; rebuild BM25 behind."""
    for note in result.notes:
        if note.startswith(("retrieval skipped", "retrieval degraded", "retrieval: ",
                            "unreadable memory file")):
            log_failure(f"{where}: {note}", mem=mem)
    if getattr(result, "index_cold", False):
        from lorestack.app.hook_spawns import spawn_index_sync

        spawn_index_sync(mem)


def _preload_vector_store() -> None:
    """Import chromadb on a side thread while this one loads the ONNX model and searches BM25.

    Both are needed for hybrid recall; the model's session setup runs in native code, so the
    two overlap instead of adding up on a cold process.
    """
    if "chromadb" in sys.modules:  # imported already (the service): no thread per prompt
        return
    # numpy first, on this thread: chromadb (side thread) and the embedding both import it, and
    # two threads at once failed the loser's `from numpy._typing …`: a cold prompt lost vectors
    import numpy  # noqa: F401

    from lorestack.retrieval.vectors import one_chroma_thread

    one_chroma_thread()  # here, not on the side thread

    def load() -> None:
        try:
            import chromadb  # noqa: F401
        except Exception:  # noqa: BLE001, S110 - the search reports what is missing
            pass

    threading.Thread(target=load, name="lorestack-preload-chromadb", daemon=True).start()


def prompt_context(mem, payload: HookPayload, retrieval: str,
                   fallback: bool = False) -> tuple[str | None, list[str], list[str]]:
    """(context, ids shown whole, ids to reinforce) for the prompt with one retrieval mode;
    saves nothing (the caller records once its answer is the one sent: `record_usage`).
    `fallback`: the answer kept for a full pipeline that misses the deadline, filled from its
    first search's ranking only. Growing by deeper searches meets a new journal day at almost
    every hit, and a process without the service parses each (~8 ms at 100k events): a BM25
    fallback drew 904 hits over 389 days for 19 shown, 5 s, and was not ready at the deadline."""
    from lorestack.retrieval.loader import assemble_context

    if not client_spec(payload.client).prompt_context or not payload.prompt.strip():
        return None, [], []  # e.g. Cursor's beforeSubmitPrompt cannot carry context
    received = list(load_session(mem, payload.session_id).get("received", []))
    result = assemble_context(
        mem, query=payload.prompt, budget=mem.settings.loader.prompt_budget, tiers=("topk",),
        recent=False, exclude_ids=received, retrieval=retrieval, k=mem.settings.hooks.prompt_k,
        sync=False, search_deeper=not fallback, record=False,
    )
    _log_degraded(mem, f"prompt ({payload.client})", result)
    return result.text or None, list(result.full_ids), list(result.reinforce)


def record_usage(mem, ids: list[str]) -> None:
    """Reinforce (decay) what a reply showed; run once the reply is out (`hand_on`), so its
    ~30 ms (opening usage.sqlite, one write) come after the answer, not before it. A process
    killed in that window loses one access count: it only tunes decay, and writing it before
    the reply (durably) would cost the answer the same time again."""
    from lorestack.memory_layers.models import now_utc
    from lorestack.retrieval.recall import record_shown

    record_shown(mem, ids, now_utc())


def remember_shown(mem, payload: HookPayload, ids: list[str]) -> None:
    """Record what the session received, so later prompts do not repeat it."""
    if ids:  # one locked step: a parallel hook's notice marks are kept, not written over
        update_session(mem, payload.session_id,
                       lambda state: {**state, "received": list(state.get("received", [])) + ids})


def prompt(mem, payload: HookPayload) -> str | None:
    hooks = mem.settings.hooks
    if hooks.prompt_retrieval in ("default", "hybrid", "rrf", "vector"):
        _preload_vector_store()
    text, ids, reinforce = prompt_context(mem, payload, hooks.prompt_retrieval)
    remember_shown(mem, payload, ids)
    hand_on([partial(record_usage, mem, reinforce)])
    return text


def session_end(mem, payload: HookPayload) -> None:
    """Hand the transcript to extraction; record the pointer as an L3 event if that is not possible."""
    from lorestack.app.hook_spawns import transcript_problem

    transcript = payload.transcript_path
    if not transcript:
        return
    if problem := transcript_problem(transcript):  # said in one line, not extracted
        log_failure(f"session-end ({payload.client}): transcript_path {problem}; nothing "
                    "extracted", mem=mem)
        return
    if payload.hook_event_name in client_spec(payload.client).per_turn_end_events:
        # e.g. Codex fires Stop after every turn: extract at most every N seconds per session
        if not claim_end(mem, payload.session_id, mem.settings.hooks.session_end_min_interval_s):
            return
    try:
        from lorestack.consolidation.extract import spawn_extraction

        spawn_extraction(mem, transcript, payload.client)
        return
    except Exception as exc:  # noqa: BLE001 - fall back to recording the pointer
        log_failure(f"session-end ({payload.client}): extraction not started: {exc!r}", mem=mem)
    if mem.journal is None:
        return
    from lorestack.memory_layers.operations import log_event

    who = payload.session_id or "unknown session"
    log_event(mem, f"Session {who} ended ({payload.client}); transcript: {transcript}",
              "note", tags=["session-end", payload.client], source="hook",
              session=payload.session_id, redact=True)


def pre_tool(mem, payload: HookPayload) -> str | None:
    from lorestack.app.file_hooks import pre_tool as about_file
    from lorestack.app.secret_notice import config_notice

    # a session whose first hook is this one learns of a broken settings layer here too
    return with_notice(about_file(mem, payload), config_notice(mem, payload.session_id))


HANDLERS: dict[str, Callable[[Any, HookPayload], str | None]] = {
    "session-start": session_start, "prompt": prompt, "session-end": session_end,
    "pre-tool": pre_tool,
}


# ---- running one hook under a deadline -----------------------------------------------------
@dataclass
class HookRun:
    output: str
    ok: bool = True
    timed_out: bool = False
    error: str | None = None
    elapsed_ms: float = 0.0


def _open_memory(payload: HookPayload, root: str | None):
    from lorestack.memory_layers.memory import Memory

    cwd = Path(payload.cwd) if payload.cwd and Path(payload.cwd).is_dir() else None
    # a hook never downloads a model: without a local one, recall is BM25 only
    no_download: dict[str, Any] = {"embedding.allow_download": False}
    # a broken config.toml costs the session nothing: what is broken is left out, and said
    mem = Memory.open(root, cwd=cwd, require_project=False, lenient_config=True, **no_download)
    if mem.project is None and not mem.home.root.is_dir():
        return None
    return mem


def run_hook(event: str, client: str, stdin_text: str, *, root: str | None = None,
             deadline_ms: int | None = None, open_memory=None, spent_ms: float = 0.0) -> HookRun:
    """Do the hook's work under a deadline (`core.guarded`); at the deadline, answer with what
    is ready: for a hybrid/vector prompt a BM25 answer is computed first and kept, so a
    deadline that passes during the full pipeline still leaves the client the cheaper recall.

    The deadline is the configured one (`hooks.deadline_ms`, `hooks.prompt_deadline_ms`, from
    every settings layer), read before the store opens, so a longer configured deadline also
    covers opening it; if the settings cannot be read, the shipped default applies until the
    opened store's settings say otherwise; `spent_ms` (time the caller already used, e.g.
    waiting for a service that did not answer) is taken off it. An explicit `deadline_ms`
    (tests) caps it.
    `open_memory(payload, root)` lets a long-lived caller (the service) hand in a warm memory.
    """
    from lorestack.core.guarded import Deadline, run_guarded
    from lorestack.core.logs import detach_stderr
    from lorestack.core.settings import HookSettings

    detach_stderr()  # a hook's stderr may be shown to the user or read as a failure
    if client not in CLIENTS or event not in EVENTS:
        log_failure(f"hook {event!r} --client {client!r}: unknown event or client; "
                    f"events: {', '.join(EVENTS)}; clients: {', '.join(CLIENTS)}")
        return HookRun("", ok=False, error="unknown event or client")
    payload = parse_payload(stdin_text, client, event)
    empty = fail_open_output(client, event)
    if payload.refused:  # e.g. a payload over the size a hook reads: said, not worked on
        log_failure(f"{event} ({client}): {payload.refused}")
        return HookRun(empty, ok=False, error="refused")

    def pick(hooks: HookSettings) -> int:
        return hooks.prompt_deadline_ms if event == "prompt" else hooks.deadline_ms

    spent = max(0.0, spent_ms)

    def left(ms: float) -> float:
        return max(ms - spent, min(ms, 100.0)) / 1000  # a late caller still gets 100 ms

    deadline = Deadline(left(deadline_ms if deadline_ms is not None else pick(HookSettings())))
    box: dict[str, Any] = {"ready": threading.Event()}  # ready: a session start's kept answer

    if deadline_ms is None:
        # the configured deadline, not the shipped one, must cover opening the store (the slow
        # part on a loaded machine); reading the settings alone is cheap. Counted from the start.
        deadline.set(left(pick(_configured_hooks(payload, root))))

    def work(deadline: Deadline):
        # this thread's notices are marked told only if its answer is the one sent (`_answer`)
        with told_after_reply() as held:
            box["held"] = held
            try:
                return do_work(deadline)
            finally:  # no memory here, or it failed: nothing more is coming to wait for
                box["ready"].set()

    def do_work(deadline: Deadline):
        mem = box["mem"] = (open_memory or _open_memory)(payload, root)
        if mem is None:
            return None
        _log_to(mem)
        configured = pick(mem.settings.hooks)
        deadline.set(left(configured if deadline_ms is None else min(deadline_ms, configured)))
        if event == "session-start":
            return _session_start_work(mem, payload, box, deadline)
        if event != "prompt":
            return HANDLERS[event](mem, payload)
        mode = mem.settings.hooks.prompt_retrieval
        full = mode in ("default", "hybrid", "rrf", "vector")
        from lorestack.memory_layers import parse_cache
        from lorestack.retrieval.pool import one_index, own_index, skipped_warm_up

        if not parse_cache.enabled():  # a cold process: the full pipeline may take seconds
            from lorestack.app import cold_recall

            with one_index(mem):  # the BM25 answer's open index serves the full one too
                # what was written while no service ran (`none`: nothing is searched)
                if mode != "none" and (skipped := cold_recall.catch_up_text(mem, deadline.remaining())):
                    log_failure(f"prompt ({payload.client}): {skipped}", mem=mem)
                if not full:
                    return prompt_context(mem, payload, mode)
                box["fallback"] = prompt_context(mem, payload, "bm25", fallback=True)
                if late := cold_recall.too_late(mem, deadline.remaining()):  # no use waiting
                    log_failure(f"prompt ({payload.client}): {late}", mem=mem)
                    return box["fallback"]
                # chromadb's import only after it: beside it the two share one interpreter
                # (100k, load 7.7: BM25 answer 1.50-1.58 s with it, 0.70-1.13 s without)
                _preload_vector_store()
                return prompt_context(mem, payload, mode)
        if not full:
            return prompt_context(mem, payload, mode)
        if skipped_warm_up():  # the service is opening this index: BM25 now, on one of its own
            with own_index():
                return prompt_context(mem, payload, "bm25", fallback=True)
        # the service (warm index): the BM25 answer is only made when the full pipeline is
        # still busy at half the deadline, instead of before it on every prompt
        def late_fallback() -> None:
            if "full" not in box:
                box["fallback"] = prompt_context(mem, payload, "bm25", fallback=True)

        # in this hook's context, as the full recall: its deadline bounds a wait for another
        # request's opening of the index, a skipped warm-up's mark keeps it from opening one
        # (a timer's thread starts with an empty context)
        timer = threading.Timer(max(0.0, deadline.remaining() / 2),
                                contextvars.copy_context().run, args=(late_fallback,))
        timer.daemon = True
        timer.start()
        try:
            box["full"] = prompt_context(mem, payload, mode)
        finally:
            timer.cancel()
        return box["full"]

    run = run_guarded(work, deadline, name=f"lorestack-hook-{event}")
    if event == "session-start" and run.timed_out:
        from lorestack.app.session_start import wait_for_kept

        wait_for_kept(box, deadline, spent, payload, root)
    return _answer(event, client, payload, run, box, round(deadline.seconds * 1000), empty)


def _session_start_work(mem, payload: HookPayload, box: dict[str, Any],
                        deadline) -> str | None:
    """The context that needs no index or model first, kept in `box` for a deadline that
    passes, then the whole session start (lorestack/app/session_start.py). Not in the service:
    warm, its whole session start takes ~9 ms of CPU at 10k events and an index another request
    is opening is answered from what needs no search already; the kept context cost it ~3 ms
    a session start for nothing."""
    from lorestack.memory_layers import parse_cache

    if parse_cache.enabled():
        return session_start(mem, payload)
    box["fallback"] = session_context(mem, payload, "none")
    box["ready"].set()
    if deadline.remaining() <= 0:  # it is the answer: a search now would only slow its writing
        box["late"] = True  # said here too: the deadline may pass between two polls of the wait
        return None
    return session_start(mem, payload)


def _answer(event: str, client: str, payload: HookPayload, run, box: dict[str, Any],
            limit: int, empty: str) -> HookRun:
    """The client's reply from the guarded run: its value, the kept BM25 recall when the
    full prompt recall missed the deadline, else the empty answer (logged). The notices in a
    reply go to whoever writes it (`secret_notice.hand_on`): told once that reply is out."""
    mem = box.get("mem")
    if run.ok:
        hand_on(box.get("held", []))
    else:  # its notices are not in this reply: their claims go back for the next hook
        give_back(box.get("held", []))
    if event == "prompt" and (run.ok or run.timed_out):
        chosen = run.value if run.ok else box.get("fallback")
        if chosen is not None:
            if not run.ok:
                log_failure(f"prompt ({client}): deadline of {limit} ms passed during full "
                            "recall; answered with BM25 recall", mem=mem)
            text, shown, reinforce = chosen
            # recorded once it is out: what the session received, and its usage
            hand_on([partial(remember_shown, mem, payload, shown),
                     partial(record_usage, mem, reinforce)])
            if client_spec(client).prompt_context:  # else its answer cannot carry text
                text = with_notice(text, session_notice(mem, payload.session_id))
            return HookRun(format_output(client, event, text), ok=run.ok,
                           timed_out=run.timed_out, elapsed_ms=run.elapsed_ms)
        if run.ok:  # no memory here
            return HookRun(format_output(client, event, None), elapsed_ms=run.elapsed_ms)
    if event == "session-start" and (run.timed_out or box.get("late")) and box.get("fallback") is not None:
        from lorestack.app.session_start import answered

        log_failure(f"session-start ({client}): deadline of {limit} ms passed; answered with "
                    "what needs no search (resident tier, catalog, journal)", mem=mem)
        text = answered(mem, payload, box["fallback"])
        return HookRun(format_output(client, event, text), ok=False, timed_out=True,
                       elapsed_ms=run.elapsed_ms)
    if run.timed_out:
        log_failure(f"{event} ({client}): deadline of {limit} ms passed; answered empty", mem=mem)
        if mem is not None and event == "session-start":
            from lorestack.app.hook_spawns import spawn_warmup

            spawn_warmup(mem)
        return HookRun(empty, ok=False, timed_out=True, error="deadline", elapsed_ms=run.elapsed_ms)
    if not run.ok:
        log_failure(f"{event} ({client}): {run.error}\n{run.trace or ''}", mem=mem)
        return HookRun(empty, ok=False, error=run.error, elapsed_ms=run.elapsed_ms)
    return HookRun(format_output(client, event, run.value), elapsed_ms=run.elapsed_ms)
