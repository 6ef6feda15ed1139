"""Operations that maintain memory: import, export, consolidate, review."""

from __future__ import annotations

from lorestack.app.models import (
    ConsolidateRequest,
    ConsolidateResponse,
    ExportRequest,
    ExportResponse,
    ImportMemoryRequest,
    ImportMemoryResponse,
    ImportRequest,
    ImportResponse,
    ReviewRequest,
    ReviewResponse,
)
from lorestack.app.opening import Opener, jsonable, open_memory
from lorestack.core.errors import LorestackError
from lorestack.memory_layers.secret_guard import redact_for_reading


def export(request: ExportRequest, opener: Opener = open_memory) -> ExportResponse:
    """Every file of one memory as records (`import-memory` reads them back)."""
    from lorestack.memory_layers.portable import export_records

    mem = opener(request.caller, request.scope == "project")
    paths = mem.project if request.scope == "project" else mem.home
    assert paths is not None  # a project scope required the project to open
    redacted: dict[str, list[str]] = {}
    records = list(export_records(paths, scope=request.scope, redacted=redacted,
                                  entropy_threshold=mem.settings.guard.entropy_threshold))
    ids = [name for names in redacted.values() for name in names]
    if ids:  # the header says it too: a tool reading the export knows it is not byte for byte
        records[0]["redacted"] = {"files": len(redacted), "ids": ids}
    return ExportResponse(records=records, root=str(paths.root), redacted=ids,
                          redacted_files=len(redacted))


def import_memory(request: ImportMemoryRequest,
                  opener: Opener = open_memory) -> ImportMemoryResponse:
    """An export read back into a memory: identical files left alone, differing ones conflicts
    unless `replace`; any unreadable record and nothing is written; secrets redacted."""
    from lorestack.memory_layers.portable import import_records

    mem = opener(request.caller, request.scope == "project")
    paths = mem.project if request.scope == "project" else mem.home
    assert paths is not None  # a project scope required the project to open
    report = import_records(paths, request.records, scope=request.scope,
                            replace=request.replace, dry_run=request.dry_run,
                            entropy_threshold=mem.settings.guard.entropy_threshold)
    return ImportMemoryResponse(written=[str(p) for p in report.written],
                                unchanged=[str(p) for p in report.unchanged],
                                conflicts=[str(p) for p in report.conflicts],
                                problems=[str(p) for p in report.problems],
                                redacted=report.redacted, dry_run=report.dry_run)


def import_(request: ImportRequest, opener: Opener = open_memory,
            progress=None) -> ImportResponse:
    """Many events at once into the journal (redacted, deduplicated by id) and the index."""
    from lorestack.consolidation.bulk_import import import_files

    mem = opener(request.caller, True)
    result = import_files(mem, list(request.sources), request.format, index=request.index,
                          progress=progress)
    data = {k: v for k, v in vars(result).items() if k not in ("stored_ids", "texts", "timeline")}
    return ImportResponse(result=jsonable({**data, "events_per_s": result.events_per_s}))


def consolidate(request: ConsolidateRequest, opener: Opener = open_memory,
                progress=None) -> ConsolidateResponse:
    """Fold new journal events into stable items (the LLM if configured, else extractively)."""
    from datetime import date

    from lorestack.consolidation.job import run_consolidation

    caller = request.caller
    if request.model:
        caller = caller.model_copy(update={"flags": {**caller.flags, "llm.model": request.model}})
    since = None
    if request.since:
        try:
            since = date.fromisoformat(request.since)
        except ValueError as exc:
            raise LorestackError(f"{request.since!r} is not a date (YYYY-MM-DD)") from exc
    mem = opener(caller, True)
    report = run_consolidation(mem, dry_run=request.dry_run, since=since,
                               max_tokens=request.max_tokens, progress=progress,
                               commit=request.commit, require_llm=request.require_llm,
                               retry_dropped=request.retry_dropped)
    data = jsonable(report)
    data["changed"] = report.changed
    data["total_tokens"] = report.total_tokens
    return ConsolidateResponse(report=data)


def review(request: ReviewRequest, opener: Opener = open_memory) -> ReviewResponse:
    """List the machine claims waiting for review, or accept / reject them. Ids leave sealed
    and text redacted, as `list` and `show` print them (a claim typed around a key by hand)."""
    from lorestack.consolidation import review as claims

    mem = opener(request.caller, True)
    threshold = mem.settings.guard.entropy_threshold
    # read once: the pending claims and the stale anchors are both among the active items
    loaded = mem.require_project().store.load_all(include_archived=False)
    pending = claims.list_pending(mem, loaded)
    if request.action == "list":
        from lorestack.memory_layers.anchors import stale_items, stale_note

        stale = [_shown({"id": item.id, "title": item.title, "note": stale_note(states)},
                        threshold) for item, states in stale_items(mem, loaded)]
        return ReviewResponse(pending=[_shown(c, threshold) for c in jsonable(pending)],
                              stale=stale)
    chosen = [p.id for p in pending] if request.all else list(request.ids)
    if not chosen and request.all:
        raise LorestackError(f"nothing to {request.action}: no claim waits for review")
    if not chosen:
        raise LorestackError(f"give the ids to {request.action} (see `lorestack review`) or --all")
    if request.action == "accept":
        result = claims.accept(mem, chosen)
    else:
        result = claims.reject(mem, chosen, request.reason)
    return ReviewResponse(result=_shown(jsonable(result), threshold))


_ID_KEYS = ("id", "replaces", "merges_into")
_ID_LISTS = ("events", "accepted", "rejected", "archived")
_TEXT_KEYS = ("title", "text", "replaces_title", "note")


def _shown(row: dict, threshold: float) -> dict:
    """A review row or result with every id sealed and every text redacted for reading."""
    from lorestack.app.item_json import named
    from lorestack.memory_layers.sealed_names import seal

    out = named(row, threshold) if "path" in row else dict(row)
    for key in _ID_KEYS:
        if out.get(key):
            out[key] = seal(str(out[key]), threshold)
    for key in _ID_LISTS:
        if key in out:
            out[key] = [seal(str(i), threshold) for i in out[key] or []]
    for key in _TEXT_KEYS:
        if isinstance(out.get(key), str):
            out[key] = redact_for_reading(out[key], threshold)[0]
    if "notes" in out:
        out["notes"] = [redact_for_reading(str(n), threshold)[0] for n in out["notes"] or []]
    return out
