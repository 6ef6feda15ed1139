"""The pages you read: overview, context, items, an item, journal, search, review, criteria.

Each handler is a plain function (Starlette runs it in a worker thread), calls the same
library function the matching CLI command calls, and renders a template.
"""

from __future__ import annotations

import shlex
from collections import Counter
from datetime import timezone
from pathlib import Path
from typing import Any

from starlette.requests import Request

from lorestack.core.errors import LorestackError
from lorestack.integrations.viewer.app import PAGE_SIZE, render
from lorestack.integrations.viewer.state import ViewerState
from lorestack.memory_layers.models import FILE_ITEM_TYPES
from lorestack.memory_layers.sealed_names import seal

LAYER_NAMES = {
    "L1": "project facts",
    "L2": "profile & criteria",
    "L3": "journal events",
    "L4": "index",
}
ITEM_TYPES = FILE_ITEM_TYPES
STATUSES = ("active", "pending", "archived")
HOOK_LOG_LINES = 15


def _state(request: Request) -> ViewerState:
    state: ViewerState = request.app.state.viewer
    state.inventory.refresh()  # cheap: folder mtimes, plus the files of changed folders
    return state


def _page(request: Request) -> int:
    try:
        return max(1, int(request.query_params.get("page", "1")))
    except ValueError:
        return 1


def _paginate(rows: list, page: int, size: int = PAGE_SIZE) -> tuple[list, dict]:
    pages = max(1, (len(rows) + size - 1) // size)
    page = min(page, pages)
    return rows[(page - 1) * size : page * size], {"page": page, "pages": pages, "total": len(rows)}


def _tail(path: Path, lines: int) -> list[str]:
    """The last lines of a log without reading all of it."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, 2)
            end = fh.tell()
            fh.seek(max(0, end - 64 * 1024))
            data = fh.read().decode("utf-8", "replace")
    except OSError:
        return []
    return [ln for ln in data.splitlines() if ln.strip()][-lines:]


# ---- overview ------------------------------------------------------------------------------
def overview(request: Request):
    state = _state(request)
    snap = state.inventory.snapshot()
    days = state.inventory.days()
    layers: list[dict[str, Any]] = []
    for layer in ("L1", "L2"):
        rows = [s for s in snap.items if s.layer == layer]
        by_status = Counter(s.status for s in rows)
        layers.append(
            {
                "layer": layer,
                "name": LAYER_NAMES[layer],
                "count": len(rows),
                "active": by_status["active"],
                "pending": by_status["pending"],
                "archived": by_status["archived"],
                "tokens": sum(s.tokens for s in rows if s.status == "active"),
                "types": Counter(s.type for s in rows if s.status == "active"),
            }
        )
    events = sum(len(d.events) for d in days)
    layers.append(
        {
            "layer": "L3",
            "name": LAYER_NAMES["L3"],
            "count": events,
            "days": len(days),
            "tokens": sum(d.tokens for d in days),
            "kinds": Counter(e.kind for d in days for e in d.events),
        }
    )
    layers.append(
        {
            "layer": "L4",
            "name": LAYER_NAMES["L4"],
            "count": state.index_docs(),
            "bytes": state.index_bytes(),
        }
    )
    last_run, run_problem = None, ""
    try:
        from lorestack.consolidation.checkpoint import Checkpoint

        if state.mem.project is not None:
            last_run = Checkpoint(state.mem.project).load_state().last_run
    except LorestackError as exc:
        run_problem = str(exc)
    hooks = _tail(state.mem.primary.index_dir / "hooks.log", HOOK_LOG_LINES)
    journal_problems = [str(p) for d in days for p in d.problems]
    timings = {route: max(samples) * 1000 for route, samples in state.timing.samples.items()}
    return render(
        request,
        "overview.html",
        active="overview",
        layers=layers,
        last_run=last_run,
        run_problem=run_problem,
        doctor=state.doctor,
        hooks=list(reversed(hooks)),
        problems=snap.problems + journal_problems,
        timings=timings,
        pending=sum(1 for s in snap.items if s.status == "pending"),
    )


# ---- context -------------------------------------------------------------------------------
def context(request: Request):
    from lorestack.memory_layers.models import now_utc
    from lorestack.retrieval.loader import TIERS, assemble_context

    state = _state(request)
    params = request.query_params
    query = (params.get("query") or "").strip() or None
    mode = params.get("mode", "hybrid")
    if mode not in ("hybrid", "bm25", "vector", "none"):
        mode = "hybrid"
    budget_text = (params.get("budget") or "").strip()
    try:
        budget = int(budget_text) if budget_text else None
        if budget is not None and budget < 0:
            raise ValueError
    except ValueError:
        return render(
            request,
            "context.html",
            status=400,
            active="context",
            result=None,
            error=f"budget must be a whole number ≥ 0, not {budget_text!r}",
            params=dict(params),
            tiers=TIERS,
            chosen=TIERS,
        )
    chosen = tuple(t for t in TIERS if t in params.getlist("tier")) or TIERS
    recent = params.get("no_recent") is None
    now = now_utc()
    hits, warnings = None, []
    if query and mode != "none" and "topk" in chosen:
        # the loader's own search, without reinforcing what a person merely looked at
        try:
            hits, warnings = state.search(
                query,
                k=state.mem.settings.loader.candidates,
                mode="default" if mode == "hybrid" else mode,
                record_access=False,
                now=now,
            )
        except Exception as exc:  # noqa: BLE001 - the loader also goes on without recall
            hits, warnings = [], [f"retrieval skipped: {type(exc).__name__}: {exc}"]
    result = assemble_context(
        state.mem,
        query=query,
        budget=budget,
        tiers=chosen,
        recent=recent,
        retrieval=mode,
        hits=hits,
        now=now,
    )
    result.notes.extend(f"retrieval: {w}" for w in warnings)
    command = ["lorestack", "context"]
    if query:
        command += ["--query", query]
    if budget is not None:
        command += ["--budget", str(budget)]
    if chosen != TIERS:
        command += ["--tiers", ",".join(chosen)]
    if mode != "hybrid":
        command += ["--mode", mode]
    if not recent:
        command.append("--no-recent")
    command.append("--report")
    return render(
        request,
        "context.html",
        active="context",
        result=result,
        error="",
        params=dict(params),
        tiers=TIERS,
        chosen=chosen,
        command=" ".join(shlex.quote(c) for c in command),
    )


# ---- journal -------------------------------------------------------------------------------
def journal(request: Request):
    from lorestack.retrieval.loader import open_todos

    state = _state(request)
    params = request.query_params
    kind = params.get("kind") or None
    day = params.get("day") or None
    events = [
        e
        for e in reversed(state.inventory.events())
        if (kind is None or e.kind == kind)
        and (day is None or e.time.astimezone(timezone.utc).date().isoformat() == day)
    ]
    shown, pager = _paginate(events, _page(request), size=200)
    timeline: list[dict] = []
    for event in shown:
        d = event.time.astimezone(timezone.utc).date().isoformat()
        session = event.session or "no session"
        if not timeline or timeline[-1]["day"] != d:
            timeline.append({"day": d, "sessions": []})
        sessions = timeline[-1]["sessions"]
        if not sessions or sessions[-1]["session"] != session:
            sessions.append({"session": session, "events": []})
        sessions[-1]["events"].append(event)
    todos = open_todos(state.mem) if state.mem.journal is not None else []
    threshold = state.mem.settings.guard.entropy_threshold
    todos = [t.model_copy(update={"id": seal(t.id, threshold)}) for t in todos]  # as `show` names it
    days = [d.day.isoformat() for d in reversed(state.inventory.days())][:60]
    return render(
        request,
        "journal.html",
        active="journal",
        timeline=timeline,
        pager=pager,
        params=dict(params),
        todos=todos,
        days=days,
    )


# ---- search --------------------------------------------------------------------------------
def search(request: Request):
    state = _state(request)
    params = request.query_params
    query = (params.get("q") or "").strip()
    mode = params.get("mode", "default")
    if mode not in ("default", "hybrid", "bm25", "vector"):
        mode = "default"
    try:
        k = max(1, min(200, int(params.get("k") or state.mem.settings.retrieval.k)))
    except ValueError:
        k = state.mem.settings.retrieval.k
    statuses = tuple(s for s in params.getlist("status") if s in (*STATUSES, "superseded")) or (
        "active",
    )
    hits, warnings, error = [], [], ""
    if query:
        try:
            hits, warnings = state.search(
                query,
                k=k,
                types=[params["type"]] if params.get("type") else None,
                layers=[params["layer"]] if params.get("layer") else None,
                mode=mode,
                include_status=statuses,
                explain=True,
                record_access=False,
            )
        except LorestackError as exc:
            error = str(exc)
    return render(
        request,
        "search.html",
        active="search",
        query=query,
        hits=hits,
        warnings=warnings,
        error=error,
        params=dict(params),
        mode=mode,
        k=k,
        types=(*ITEM_TYPES, "event"),
        statuses=statuses,
    )


# ---- criteria ------------------------------------------------------------------------------
def criteria(request: Request):
    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import from_text

    state = _state(request)
    snap = state.inventory.snapshot()
    rows = [s for s in snap.items if s.type == "criterion" and s.status != "archived"]
    rows.sort(key=lambda s: (s.status, s.title.lower()))
    proposal = (request.query_params.get("proposal") or "").strip()
    result, error, outcomes = None, "", {}
    if proposal:
        try:
            result = check(state.mem, from_text(proposal, label="viewer"))
        except LorestackError as exc:
            error = str(exc)
        if result is not None:
            for finding in (*result.violations, *result.notes, *result.satisfied):
                outcomes[finding.id] = finding
    trace = None
    trace_id = request.query_params.get("trace") or ""
    if proposal and trace_id:
        from lorestack.guardrail.trace import test_criterion

        try:  # `lorestack criteria test ID PROPOSAL`: every step of one criterion
            trace = test_criterion(state.mem, trace_id, from_text(proposal, label="viewer"))
        except LorestackError as exc:
            error = str(exc)
    return render(
        request,
        "criteria.html",
        active="criteria",
        rows=rows,
        proposal=proposal,
        result=result,
        error=error,
        outcomes=outcomes,
        trace=trace,
    )


# the item pages live beside this module; their names stay reachable here for the routes
from lorestack.integrations.viewer.item_pages import (  # noqa: E402,F401 - re-exported
    item,
    item_context,
    items,
    load_current,
)
