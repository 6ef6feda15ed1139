"""Reading memory as files: `list` (items by type, layer and status, the journal's events
too) and `show` (one item or event, by full or short id), each redacted on request for output
that leaves the process. The writes are in `operations`."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lorestack.core.errors import InvalidItem, ItemNotFound
from lorestack.memory_layers.hand_edits import archived_in_live_folder, hidden_note
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import TYPE_LAYER, MemoryItem, Source
from lorestack.memory_layers.sealed_names import seal


@dataclass
class Listing:
    items: list[MemoryItem]
    paths: dict[str, Path]
    problems: list[InvalidItem]
    total: int = 0  # how many matched before `offset`/`limit` kept a page of them
    named: set[str] = field(default_factory=set)  # redacted: ids whose id or file name holds a key
    read: set[str] = field(default_factory=set)  # the files read as items (a problem of one is
    # told, not "skipped": read truncated, or with merge-conflict markers)


def display_status(item: MemoryItem) -> str:
    """`superseded` for an archived item another one replaced; otherwise its status."""
    return "superseded" if item.status == "archived" and item.superseded_by else item.status


def list_items(mem: Memory, *, item_type: str | None = None, layer: str | None = None,
               status: str | None = "active", include_events: bool = False,
               redact: bool = False, offset: int = 0, limit: int | None = None) -> Listing:
    """Items by type/layer/status; status `superseded` is the archived items something replaced
    (`archived` lists every archived item, superseded ones included). `offset`/`limit` keep one
    page (a negative offset counts from the end); only that page is redacted."""
    # archive/ is read for every status: an archived copy of an id holds it (`dup_ids`), so a
    # live file left with a forgotten id is not listed as the active item
    loaded = mem.load_items(include_archived=True)
    items, paths = [], {}
    hidden: list[InvalidItem] = []  # a file moved back by hand into a live folder, archived
    sums = {id(li.item): f"{li.path}\0{li.checksum}" if li.checksum else None
            for li in loaded.items}
    for li in loaded.items:
        it = li.item
        if item_type and it.type != item_type:
            continue
        if layer and it.layer != layer:
            continue
        if status == "superseded":
            if display_status(it) != "superseded":
                continue
        elif status and it.status != status:
            if archived_in_live_folder(mem, li.path, it) and status != "archived":
                hidden.append(InvalidItem(li.path, hidden_note(
                    seal(it.id, mem.settings.guard.entropy_threshold), li.path.parent.name)))
            continue
        items.append(it)
        paths[it.id] = li.path
    if hidden:  # named as every problem is: a file named after a key sealed
        from lorestack.memory_layers.sealed_names import sealed_problem

        threshold = mem.settings.guard.entropy_threshold
        loaded.problems = [*loaded.problems, *(sealed_problem(p, threshold) for p in hidden)]
    if include_events and item_type in (None, "event") and layer in (None, "L3"):
        _add_events(mem, status, items, paths, loaded.problems)
    items.sort(key=lambda i: (TYPE_LAYER[i.type], i.type, i.created))
    total, start = len(items), offset if offset >= 0 else max(0, len(items) + offset)
    items = items[start:None if limit is None else start + limit]
    named: set[str] = set()
    if redact:
        from lorestack.memory_layers.redacted_view import redacted_item

        shown = []
        for it in items:
            copy, holds_key = redacted_item(mem, it, sums.get(id(it)), paths.get(it.id))
            shown.append(copy)
            if holds_key:
                named.add(it.id)
        items = shown
    read = {str(li.path) for li in loaded.items if li.note or li.item.conflict_lines}
    return Listing(items, paths, loaded.problems, total, named, read)


def _day_problem(p) -> InvalidItem:
    """A journal problem as a list row's: one at a line (an entry skipped, the day's other
    entries listed) is a note on a day read, not a day skipped."""
    return InvalidItem(p.path, p.problem, read=p.read or p.line > 0, line=p.line)


def _add_events(mem: Memory, status: str | None, items: list[MemoryItem],
                paths: dict[str, Path], problems: list[InvalidItem]) -> None:
    """The journal's events (all active) and the forgotten ones `forget` moved to
    archive/events/ (archived, with the reason), as `status` asks, as list rows."""
    if mem.journal is None or status not in (None, "active", "archived"):
        return
    live: set[str] = set()
    if status in (None, "active"):
        journal = mem.journal.read_all()
        problems.extend(map(_day_problem, journal.problems))
        for ev in journal.events:
            items.append(_event_row(ev))
            live.add(ev.id)
            if ev.id in journal.files:
                paths[ev.id] = journal.files[ev.id]
    if status in (None, "archived"):
        from lorestack.memory_layers.event_archive import archived_events

        gone = archived_events(mem)
        problems.extend(map(_day_problem, gone.problems))
        for ev in gone.events:
            if ev.id in live:  # a forget cut short: still in its day file, listed there once
                continue
            extra = ev.model_extra or {}
            items.append(_event_row(ev, status="archived", **{
                key: extra[key] for key in ("archived_reason", "archived_at") if key in extra}))
            paths[ev.id] = gone.files[ev.id]


def _event_row(ev, **more) -> MemoryItem:
    return MemoryItem(id=ev.id, type="event", title=ev.title, body=ev.text, created=ev.time,
                      updated=ev.time, tags=ev.tags, confidence=ev.confidence,
                      source=Source(kind=ev.source), **more)


def show(mem: Memory, item_id: str, *, redact: bool = False):
    """An item (with its path) or a journal event; `redact` for output that leaves the process."""
    try:
        loaded = mem.get(item_id)
    except ItemNotFound:
        from lorestack.memory_layers.event_archive import find_archived_event as gone
        from lorestack.memory_layers.event_archive import find_event, sealed_event

        found = find_event(mem, item_id) or gone(mem, item_id)  # forgotten: in the archive
        if found is not None:
            return sealed_event(mem, found.event) if redact else found.event
        raise
    if redact:
        from dataclasses import replace

        from lorestack.memory_layers.redacted_view import redacted_item

        return replace(loaded, item=redacted_item(mem, loaded.item, path=loaded.path)[0])
    return loaded
