"""Operations that write memory: remember, log, and forget / supersede / restore."""

from __future__ import annotations

from typing import Any

from lorestack.app.models import (
    ChangeRequest,
    ChangeResponse,
    Draft,
    LogRequest,
    LogResponse,
    RememberRequest,
    RememberResponse,
)
from lorestack.app.opening import Opener, jsonable, open_memory, text_or_none


def _criterion(mem, request: RememberRequest):
    """The criterion to store and how it was drafted (one policy for every front end)."""
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec

    c = request.criterion
    spec = CriterionSpec(
        applies_to=AppliesTo(paths=list(c.paths), keywords=list(c.keywords), topics=list(c.topics)),
        condition=c.condition, forbid=list(c.forbid), require=list(c.require),
        unless=list(c.unless), verdict=c.verdict, rationale=c.rationale,
        review_when=c.review_when,
    )
    if c.draft is False or (c.draft is None and not mem.settings.guardrail.draft):
        return spec, None
    from lorestack.guardrail.drafting import draft_criterion

    drafted = draft_criterion(mem.settings, c.condition or request.text, spec)
    return drafted.spec, drafted


def remember(request: RememberRequest, opener: Opener = open_memory) -> RememberResponse:
    from lorestack.memory_layers.models import Source
    from lorestack.memory_layers.operations import remember as do_remember

    mem = opener(request.caller, request.scope == "project")
    spec = drafted = None
    if request.type == "criterion":
        spec, drafted = _criterion(mem, request)
    written = do_remember(
        mem, request.text, request.type, title=request.title, tags=request.tags,
        scope=request.scope, supersedes=request.supersedes, confidence=request.confidence,
        importance=request.importance, criterion=spec, redact=request.redact,
        force=request.force, source=Source(kind=request.source), about=request.about,
    )
    draft = None
    if drafted is not None:
        draft = Draft(drafted_by=drafted.drafted_by, notes=list(drafted.notes),
                      kind=str(getattr(drafted.draft, "kind", "") or ""))
    # a reinforced or superseded item may be one named after a key by hand: named sealed
    from lorestack.memory_layers.sealed_names import seal, seal_path

    threshold = mem.settings.guard.entropy_threshold
    archived = text_or_none(written.archived)
    return RememberResponse(item=_sealed_item(jsonable(written.item), threshold),
                            path=seal_path(str(written.path), threshold),
                            archived=seal_path(archived, threshold) if archived else archived,
                            duplicate_of=seal(written.duplicate_of, threshold)
                            if written.duplicate_of else written.duplicate_of, draft=draft)


def log(request: LogRequest, opener: Opener = open_memory) -> LogResponse:
    from lorestack.memory_layers.operations import log_event

    mem = opener(request.caller, True)
    event = log_event(mem, request.text, request.kind, tags=request.tags, redact=request.redact)
    journal = mem.require_project().journal
    notes = [f"{path} was saved as UTF-16 (an editor's 'Unicode'): rewritten as UTF-8, every "
             "entry kept, and this one added" for path in journal.resaved]
    notes += [f"{why}; this entry was added after it in UTF-8 and every entry is read — do not "
              "re-save the day in an editor" for _, why in journal.kept_utf16]
    journal.resaved.clear()  # a long-lived process (MCP, viewer) tells each day once
    journal.kept_utf16.clear()
    return LogResponse(event=jsonable(event), notes=notes)


def change(request: ChangeRequest, opener: Opener = open_memory) -> ChangeResponse:
    """Archive (`forget`, a reason required), replace (`supersede`), bring back (`restore`) or
    close a todo (`done`)."""
    from lorestack.memory_layers import operations

    mem = opener(request.caller, True)
    if request.action == "forget":
        full_id = _full_id(mem, request.id)  # a short id (as the context shows) answers whole
        copies: list = []
        path = operations.forget(mem, request.id, request.reason, copies=copies)
        done = ChangeResponse(action="forget", id=full_id, archived=str(path),
                              also_archived=[str(c) for c in copies])
    elif request.action == "supersede":
        written = operations.supersede(mem, request.id, request.text, title=request.title,
                                       tags=request.tags, redact=request.redact)
        done = ChangeResponse(action="supersede", id=written.item.id, path=str(written.path),
                              archived=text_or_none(written.archived),
                              item=jsonable(written.item))
    elif request.action == "done":
        from lorestack.memory_layers.event_archive import close_todo

        event = close_todo(mem, request.id, request.text)
        done = ChangeResponse(action="done", id=event.id, item=jsonable(event))
    else:
        restored = operations.restore(mem, request.id)
        done = ChangeResponse(action="restore", id=restored.item.id, path=str(restored.path),
                              item=jsonable(restored.item),
                              was_superseded_by=restored.was_superseded_by)
    return _sealed(done, mem.settings.guard.entropy_threshold)


def _sealed(done: ChangeResponse, threshold: float) -> ChangeResponse:
    """The answer with every id and path naming an item whose id or file name holds a key
    (typed by hand) sealed, as `list` shows them: the CLI, MCP, the service and the viewer
    print it, and a sealed id or path is found again (`Memory.get`, `unseal_path`)."""
    from lorestack.memory_layers.sealed_names import seal, seal_path

    return done.model_copy(update={
        "id": seal(done.id, threshold),
        "path": seal_path(done.path, threshold) if done.path else done.path,
        "archived": seal_path(done.archived, threshold) if done.archived else done.archived,
        "item": _sealed_item(done.item, threshold) if done.item is not None else None,
        "was_superseded_by": _ids(done.was_superseded_by, threshold)})


def _ids(value: Any, threshold: float) -> Any:
    from lorestack.memory_layers.sealed_names import seal

    if isinstance(value, list):
        return [seal(v, threshold) if isinstance(v, str) else v for v in value]
    return seal(value, threshold) if isinstance(value, str) else value


def _sealed_item(item: dict[str, Any], threshold: float) -> dict[str, Any]:
    """An item's JSON as an answer shows it: its id and links sealed, the rest redacted."""
    from lorestack.memory_layers.secret_guard import redact_tree

    links = {k: _ids(item[k], threshold) for k in ("id", "supersedes", "superseded_by")
             if k in item}
    rest = redact_tree({k: v for k, v in item.items() if k not in links}, threshold)[0]
    return {k: links[k] if k in links else rest[k] for k in item}


def _full_id(mem, given: str) -> str:
    """The full id of the item or journal event GIVEN names (by full or short id)."""
    from lorestack.core.errors import ItemNotFound
    from lorestack.memory_layers.event_archive import find_event

    try:
        return mem.get(given).item.id
    except ItemNotFound:
        found = find_event(mem, given)
        return found.event.id if found is not None else given
