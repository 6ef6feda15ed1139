"""Write and read operations on memory: remember, log, list, show, forget, supersede.

Every write runs the secret guard before anything touches disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from memstrata.memory_layers.memory import Memory
from memstrata.memory_layers.models import (
    TYPE_LAYER,
    CriterionSpec,
    JournalEvent,
    MemoryItem,
    Source,
    new_id,
    now_utc,
)

from memstrata.core.errors import InvalidItem, ItemNotFound, MemstrataError


@dataclass
class Written:
    item: MemoryItem
    path: Path
    archived: Path | None = None


class CriterionNotDecidable(MemstrataError):
    pass


def _guard_item(mem: Memory, item: MemoryItem, redact: bool | None) -> MemoryItem:
    item.title = mem.guard(item.title, redact=redact, where="title")
    item.body = mem.guard(item.body, redact=redact, where="text")
    item.tags = [mem.guard(t, redact=redact, where="tags") for t in item.tags]
    if item.criterion:
        spec = item.criterion
        spec.condition = mem.guard(spec.condition, redact=redact, where="condition")
        spec.rationale = mem.guard(spec.rationale, redact=redact, where="rationale")
        spec.forbid = [mem.guard(t, redact=redact, where="forbid") for t in spec.forbid]
        spec.require = [mem.guard(t, redact=redact, where="require") for t in spec.require]
        spec.unless = [mem.guard(t, redact=redact, where="unless") for t in spec.unless]
    return item


def build_item(text: str, item_type: str, *, title: str | None = None, tags=None,
               scope: str = "project", confidence: float = 1.0, importance: float = 0.5,
               source: Source | None = None, criterion: CriterionSpec | None = None,
               status: str = "active") -> MemoryItem:
    text = (text or "").strip()
    if not text and not title:
        raise MemstrataError("nothing to remember: give the text (or --title)")
    if item_type == "event":
        raise MemstrataError("events go to the journal: use `memstrata log`")
    if title is None:
        first = text.splitlines()[0].strip().lstrip("# ")
        title = first if len(first) <= 90 else first[:87].rstrip() + "..."
    # validated from user-given strings (type, status): pydantic names what is wrong
    return MemoryItem.model_validate(dict(
        id=new_id(item_type), type=item_type, scope="global" if scope == "global" else "project",
        title=title, body=text, tags=list(tags or []), confidence=confidence,
        importance=importance, source=source or Source(kind="user"), criterion=criterion,
        status=status,
    ))


def remember(mem: Memory, text: str, item_type: str = "fact", *, title: str | None = None,
             tags=None, scope: str = "project", supersedes: str | None = None,
             confidence: float = 1.0, importance: float = 0.5, criterion: CriterionSpec | None = None,
             source: Source | None = None, status: str = "active",
             redact: bool | None = None) -> Written:
    """Create an item (optionally superseding an older one, which is archived, not deleted)."""
    if item_type == "criterion":
        spec = criterion or CriterionSpec()
        if not spec.condition and text:
            spec.condition = text.strip()
        missing = spec.missing_parts()
        if missing:
            raise CriterionNotDecidable(
                "a criterion must be decidable; missing: " + "; ".join(missing)
                + " (e.g. --keyword one-off --forbid cron, or --applies-path 'infra/**' --require 'review note')"
            )
        bad = spec.regex_problems()
        if bad:
            raise CriterionNotDecidable("; ".join(bad) + " (/regex/ terms use Python syntax)")
        criterion = spec
    item = build_item(text, item_type, title=title, tags=tags, scope=scope,
                      confidence=confidence, importance=importance, source=source,
                      criterion=criterion, status=status)
    item = _guard_item(mem, item, redact)
    store = mem.store_for(item.scope)
    store.ensure_layout()
    old = mem.get(supersedes) if supersedes else None
    if old is not None:
        item.supersedes = [old.item.id]
    path = store.create(item)
    archived = None
    if old is not None:
        archived = _archive(mem, old, reason=f"superseded by {item.id}", superseded_by=item.id)
    return Written(item, path, archived)


def _archive(mem: Memory, loaded, *, reason: str, superseded_by: str | None = None) -> Path:
    store = mem.store_for(loaded.item.scope)
    if loaded.item.status == "archived":
        raise MemstrataError(f"'{loaded.item.id}' is already archived ({loaded.path})")
    return store.archive(loaded, reason=reason, superseded_by=superseded_by)


def supersede(mem: Memory, old_id: str, text: str, *, title: str | None = None, tags=None,
              confidence: float = 1.0, redact: bool | None = None) -> Written:
    """New information wins; the old item moves to archive/ with links both ways."""
    old = mem.get(old_id)
    return remember(
        mem, text, old.item.type, title=title, tags=tags if tags is not None else old.item.tags,
        scope=old.item.scope, supersedes=old_id, confidence=confidence,
        importance=old.item.importance, criterion=old.item.criterion if old.item.type == "criterion" else None,
        redact=redact,
    )


def forget(mem: Memory, item_id: str, reason: str) -> Path:
    """Archive an item (never delete)."""
    if not reason or not reason.strip():
        raise MemstrataError("say why: --reason is required so the archive explains itself")
    loaded = mem.get(item_id)
    if loaded.path.name in ("project.md", "profile.md"):
        raise MemstrataError(f"{loaded.path.name} is the identity card/profile; edit it instead")
    return _archive(mem, loaded, reason=mem.guard(reason, where="reason"))


def log_event(mem: Memory, text: str, kind: str = "note", *, tags=None, source: str = "user",
              time: datetime | None = None, event_id: str | None = None,
              session: str | None = None, redact: bool | None = None) -> JournalEvent:
    """Append one L3 event to today's journal."""
    text = (text or "").strip()
    if not text:
        raise MemstrataError("nothing to log: give the event text")
    journal = mem.require_project().journal
    event = JournalEvent.model_validate(dict(
        text=mem.guard(text, redact=redact, where="event text"), kind=kind,
        tags=[mem.guard(t, redact=redact, where="tags") for t in (tags or [])],
        source=source, time=time or now_utc(), session=session,
        **({"id": event_id} if event_id else {}),
    ))
    journal.append(event)
    return event


@dataclass
class Listing:
    items: list[MemoryItem]
    paths: dict[str, Path]
    problems: list[InvalidItem]


def list_items(mem: Memory, *, item_type: str | None = None, layer: str | None = None,
               status: str | None = "active", include_events: bool = False) -> Listing:
    loaded = mem.load_items(include_archived=status in (None, "archived"))
    items, paths = [], {}
    for li in loaded.items:
        it = li.item
        if item_type and it.type != item_type:
            continue
        if layer and it.layer != layer:
            continue
        if status and it.status != status:
            continue
        items.append(it)
        paths[it.id] = li.path
    if include_events and mem.journal and (item_type in (None, "event")) and layer in (None, "L3"):
        for ev in mem.journal.read_all().events:
            items.append(MemoryItem(id=ev.id, type="event", title=ev.title, body=ev.text,
                                    created=ev.time, updated=ev.time, tags=ev.tags,
                                    source=Source(kind=ev.source)))
    items.sort(key=lambda i: (TYPE_LAYER[i.type], i.type, i.created))
    return Listing(items, paths, loaded.problems)


def show(mem: Memory, item_id: str):
    """An item (with its path) or a journal event."""
    try:
        return mem.get(item_id)
    except ItemNotFound:
        if mem.journal is not None:
            events = mem.journal.read_all().events
            event = next((e for e in events if e.id == item_id), None)
            full = None if event else mem._expand_short_id(item_id, (e.id for e in events))
            event = event or next((e for e in events if e.id == full), None)
            if event is not None:
                return event
        raise
