"""The loader's first step, *gather*: every candidate block of a context, before any budget.

A block is one whole line group member — an item, an event, a catalog line — with its token
cost and the group it belongs to (events: one group per day and session; items: one per type
and verdict). The planner (`loader_plan`) pays a group's heading once, with its first block.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import JournalEvent
from lorestack.memory_layers.sealed_names import DEFAULT_THRESHOLD, is_sealed, names, seal, seals
from lorestack.retrieval.context_cache import RootCache, RootView
from lorestack.retrieval.hits import Hit
from lorestack.retrieval.render_context import (
    TokenMemo,
    bullet,
    event_day_label,
    event_group_heading,
    event_month_heading,
    id_tail,
    item_body,
    item_group_heading,
    today_utc,
)

RESIDENT_RANK = {"criterion": 1, "caveat": 2}  # identity card 0, profile 3, the rest 4
VERDICT_RANK = {"block": 0, "warn": 1}


@dataclass
class Block:
    tier: str
    id: str | None
    kind: str
    text: str
    tokens: int
    source: str = ""  # resident | journal | todo | retrieved | excerpt | catalog
    order: float = 0.0  # render order inside its group (event time)
    group: str = ""  # blocks with the same group share one heading
    head: str = ""  # that heading ("" for none)
    head_tokens: int = 0
    group_order: str = ""  # render order of groups inside the tier
    session: str | None = None
    day_file: str | None = None
    words: frozenset[str] = field(default_factory=frozenset)
    raw: str = ""  # the source text (for excerpts)
    seq: int = 0  # position in its day file (turns of one session may share a time)
    # an event's other form: under its month's heading with the day on the line, cheaper
    # while few of its day-and-session group are shown (the planner picks; see Budgeter)
    alt: Block | None = None
    base: Block | None = None  # on that other form: the day-and-session form it stands for


def _heading(memo: TokenMemo, text: str) -> tuple[str, int]:
    return text, memo(text)


# ---- events ----------------------------------------------------------------------------------
def event_block(
    event, now: datetime, memo: TokenMemo, source: str, path: str | None = None, seq: int = 0,
    threshold: float = DEFAULT_THRESHOLD,
) -> Block:
    """One journal event, its text redacted and its id (typed around a key by hand) sealed at
    the guard's threshold, as `done`/`show` answer it."""
    from lorestack.memory_layers.secret_guard import redact_for_reading
    from lorestack.retrieval.temporal import relative_dates

    resolved = relative_dates(event.text, event.time)
    note = ", ".join(f"{phrase} = {day.isoformat()}" for phrase, day in resolved)
    # plain events are identified by their day/session heading and text; todos and blockers
    # keep their short id, since a later event closes them by naming it
    shown_id = seal(event.id, threshold)
    tail = (
        id_tail(shown_id, 1.0, note)
        if event.kind in ("todo", "blocker")
        else (f" ({note})" if note else "")
    )
    said = redact_for_reading(event.text, threshold)[0]
    text = bullet(said or event.kind, tail, threshold)
    day = today_utc(event.time)
    head, head_tokens = _heading(memo, event_group_heading(day, event.session, now))
    block = Block(
        "topk",
        shown_id,
        "event",
        text,
        memo(text),
        source,
        event.time.timestamp(),
        group=f"ev\x1f{day}\x1f{event.session or ''}",
        head=head,
        head_tokens=head_tokens,
        group_order=f"1{day}{event.session or ''}",
        session=event.session,
        day_file=path,
        words=_words(event.text),
        raw=said,
        seq=seq,
    )
    lone = f"- {event_day_label(day, event.session)}: {text[2:]}"
    month_head, month_tokens = _heading(memo, event_month_heading(day))
    block.alt = replace(
        block,
        text=lone,
        tokens=memo(lone),
        group=f"ev\x1f{day:%Y-%m}",
        head=month_head,
        head_tokens=month_tokens,
        group_order=f"1{day:%Y-%m}",
        base=block,
    )
    return block


def item_block(
    item,
    memo: TokenMemo,
    tier: str,
    source: str,
    body: str | None = None,
    body_tokens: int | None = None,
    verdict: str = "",
    anchors=None,
    threshold: float = DEFAULT_THRESHOLD,
) -> Block | None:
    """An L1/L2 item as one line group member; None for an empty placeholder file.
    `anchors` (an `AnchorIndex`) marks an item whose anchored code changed."""
    body = item_body(item, threshold) if body is None else body
    if not body.strip():
        return None
    if item.id == "project":
        text = body
        head, group, order = "", "identity", "0"
    elif item.id == "profile":
        text = body
        head, group, order = "### profile\n", "profile", "3"
    else:
        # a confidence figure is for review: an item that is in use (accepted) shows none
        shown = float(item.confidence) if item.status == "pending" else 1.0
        text = bullet(body, id_tail(seal(item.id, threshold), shown, _stale(anchors, item)),
                      threshold)
        head = item_group_heading(item.type, verdict)
        group = f"{item.type}\x1f{verdict}"
        order = f"{RESIDENT_RANK.get(item.type, 4)}{VERDICT_RANK.get(verdict, 2)}{item.type}"
    tokens = memo(text)
    return Block(
        tier,
        seal(item.id, threshold),  # as the index and the loader's cache hold it (sessions keep it)
        item.type,
        text,
        tokens,
        source,
        group=group,
        head=head,
        head_tokens=memo(head),
        group_order="0" + order,
        words=_words(body),
        raw=body,
    )


def _stale(anchors, item) -> str:
    """"may be stale: …" when the code the item is anchored to changed since it was written."""
    if anchors is None or not getattr(item, "anchors", None):
        return ""
    from lorestack.memory_layers.anchors import stale_note, stale_states

    extra = getattr(item, "model_extra", None)
    anchored = (extra or {}).get("anchored") if extra is not None else item.anchored
    commit = (extra or {}).get("anchor_commit") if extra is not None else item.anchor_commit
    stale = stale_states(anchors.check(list(item.anchors), dict(anchored or {}), commit or ""))
    return stale_note(stale) if stale else ""


def resident_blocks(items: Sequence, memo: TokenMemo, anchors=None,
                    threshold: float = DEFAULT_THRESHOLD) -> list[Block]:
    """Identity card, criteria (block before warn), caveats, profile — in that order."""
    active = [i for i in items if i.status == "active"]

    def rank(i) -> tuple:
        first = 0 if i.id == "project" else 3 if i.id == "profile" else RESIDENT_RANK.get(i.type, 4)
        return (first, VERDICT_RANK.get(i.verdict, 2), -i.importance, -i.updated_ts)

    out = []
    for i in sorted(active, key=rank):
        block = item_block(i, memo, "resident", "resident", i.body, i.body_tokens, i.verdict,
                           anchors=anchors, threshold=threshold)
        if block is not None:
            out.append(block)
    return out


def cached_view(mem: Memory, memo: TokenMemo):
    """(resident items, lazy catalog rows, catalog size, problems, views) from the cache."""
    repo = mem.project.repo_dir if mem.project else None
    home_dir = Path.home()
    rescan = mem.settings.loader.catalog_rescan_s
    limit = mem.settings.limits.max_file_bytes
    threshold = mem.settings.guard.entropy_threshold  # names sealed at the guard's threshold
    project = (
        RootCache(mem.project, "project", memo, repo_dir=repo, home=home_dir,
                  max_file_bytes=limit, threshold=threshold).load(rescan)
        if mem.project
        else None
    )
    global_ = RootCache(mem.home, "global", memo, repo_dir=None, home=home_dir,
                        max_file_bytes=limit, threshold=threshold).load(rescan)
    resident, rows = merged_view(project, global_)
    problems = (project.problems if project else []) + global_.problems
    total = (project.line_count if project else 0) + global_.line_count
    return resident, rows, total, problems, [v for v in (project, global_) if v is not None]


# ---- the journal -----------------------------------------------------------------------------
def recent_events(mem: Memory, now: datetime, days: int, todo_days: int):
    """(today's + last working days' events, older open todos/blockers) from the journal."""
    if mem.journal is None:
        return [], []
    today = today_utc(now)
    all_days = [d for d in mem.journal.days() if d <= today]
    recent_days = [today] if today in all_days else []
    earlier = [d for d in all_days if d < today]
    recent_days.extend(reversed(earlier[-max(0, days - 1) :] if days > 1 else []))
    todo_from = today - timedelta(days=todo_days)
    events: list[JournalEvent] = []
    for day in sorted({*recent_days, *(d for d in all_days if d >= todo_from)}):
        events.extend(e for e in mem.journal.read_day(day).events if e.time <= now)
    events.sort(key=lambda e: e.time)
    recent_set = set(recent_days)
    recent = [e for e in events if today_utc(e.time) in recent_set]
    recent_ids = {e.id for e in recent}
    open_items = [
        e
        for i, e in enumerate(events)
        if e.kind in ("todo", "blocker") and e.id not in recent_ids and is_open(e, events[i + 1 :])
    ]
    return recent, open_items


def is_open(event, events) -> bool:
    """A todo is open until a later event names its id (or its seal: `done` on an id typed
    around a key writes `closes:<sealed id>`)."""
    later = [e for e in events if e.time >= event.time and e.id != event.id]
    return not any(event.id in e.text or names(" ".join(e.tags), event.id) for e in later)


class DayCache:
    """Journal day files read at most once per assembly, with their events by id. Each file is
    parsed only as far as the events asked for (`Journal.iter_file`): without the service a
    hit's day was parsed whole, ~180 events at 100k for the one shown (~40% of the cold
    BM25 answer's time there)."""

    def __init__(self, mem: Memory):
        self.mem = mem
        self._days: dict[str, list] = {}  # day file -> its events parsed so far, in order
        self._at: dict[str, dict[str, int]] = {}  # day file -> event id -> position
        self._rest: dict[str, Iterator | None] = {}  # day file -> its events not parsed yet
        self._paths: dict[str, Path] = {}
        self._files: dict[str, bool] = {}

    def _upto(self, path: Path, event_id: str | None) -> int | None:
        """The position of `event_id` in its day file (its first entry), parsing on to it
        (to the end for None or an id the file lacks)."""
        key = str(path)
        at = self._at.setdefault(key, {})
        if event_id is not None and event_id in at:
            return at[event_id]
        if key not in self._rest:
            journal = self.mem.journal
            self._rest[key] = journal.iter_file(path) if journal else None
        rest, events = self._rest[key], self._days.setdefault(key, [])
        for event in rest or ():
            events.append(event)
            at.setdefault(event.id, len(events) - 1)
            if event.id == event_id:
                return len(events) - 1  # (not seen before: the check above)
        self._rest[key] = None
        return None if event_id is None else at.get(event_id)

    def events(self, path: Path) -> list:
        self._upto(path, None)
        return self._days[str(path)]

    def position(self, path: Path, event_id: str) -> int:
        found = self._upto(path, event_id)
        return 0 if found is None else found

    def find(self, hit: Hit):
        """(event, its day file) for an event hit, or (None, None)."""
        if self.mem.journal is None:
            return None, None
        found = self._find_in(str(hit.path), hit.id) if hit.path else None
        if found is None and isinstance(hit.time, datetime):
            found = self._find_in(str(self.mem.journal.day_file(today_utc(hit.time))), hit.id)
        return found or (None, None)

    def _find_in(self, key: str, event_id: str):
        path = self._paths.get(key)
        if path is None:
            path = self._paths[key] = Path(key)
            self._files[key] = key in self._days or path.is_file()
        if not self._files[key]:
            return None  # only a file is read (a stale path is simply skipped)
        i = self._upto(path, event_id)
        return None if i is None else (self._days[str(path)][i], path)


# ---- retrieval hits ----------------------------------------------------------------------------
def hit_block(
    mem: Memory,
    hit: Hit,
    now: datetime,
    memo: TokenMemo,
    days: DayCache,
    known_path: str | None = None,
    anchors=None,
) -> Block | None:
    """A hit rendered as its *whole* item or event (the index may hold only a chunk)."""
    if hit.type == "event":
        event, path = days.find(hit)
        if event is None:
            return None
        return event_block(event, now, memo, "retrieved", str(path), days.position(path, event.id),
                           mem.settings.guard.entropy_threshold)
    from lorestack.memory_layers import parse_cache

    path = known_path or hit.path
    stamp = _stamp(path) if path and parse_cache.enabled() else None
    key = (str(path), memo.encoding)
    if stamp is not None:
        kept = _ITEM_BLOCKS.get(key)
        if kept is not None and kept[0] == stamp and kept[1] == hit.id:
            return kept[2]
    loaded = _load_item(mem, hit, known_path)
    threshold = mem.settings.guard.entropy_threshold
    if (loaded is None or not _same_id(loaded.item.id, hit.id)
            or loaded.item.status != "active"):
        block = None
    else:
        item = loaded.item
        verdict = item.criterion.verdict if item.criterion else ""
        block = item_block(item, memo, "topk", "retrieved", verdict=verdict, anchors=anchors,
                           threshold=threshold)
        if item.anchors:
            return block  # its "may be stale" note follows the code, not the file: not kept
    if stamp is not None and loaded is not None:
        if len(_ITEM_BLOCKS) >= _ITEM_BLOCKS_MAX:
            _ITEM_BLOCKS.clear()
        _ITEM_BLOCKS[key] = (stamp, hit.id, block)
    return block


# A long-lived process (the service, where `parse_cache` is on) keeps each hit's rendered
# block by its file's stat: a prompt that fills its budget renders hundreds of hits, mostly
# the same ones again. Blocks are never changed after they are made, so one is shared.
_ITEM_BLOCKS: dict[tuple[str, str], tuple[tuple[int, int, int], str, Block | None]] = {}
_ITEM_BLOCKS_MAX = 200_000


def _stamp(path: str) -> tuple[int, int, int] | None:
    import os

    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size, info.st_ino)


def _same_id(item_id: str, hit_id: str) -> bool:
    """The hit is this item: the index holds an id with a key in it sealed."""
    return item_id == hit_id or seals(item_id, hit_id)  # by hash, whatever the threshold


def _load_item(mem: Memory, hit: Hit, known_path: str | None):
    from lorestack.memory_layers.store import MemoryStore

    raw = known_path or hit.path
    path = Path(raw) if raw else None
    for scope, paths in (("project", mem.project), ("global", mem.home)):
        if paths is None:
            continue
        # the memory's own stores carry its limits (max_file_bytes)
        store = (mem.project_store if scope == "project" else mem.global_store) or MemoryStore(
            paths, scope)
        try:
            if path is not None and paths.root in path.parents:
                return store.load_file(path)
            if path is None:  # slow path: callers without a path
                return mem.get(hit.id) if is_sealed(hit.id) else store.find(hit.id)
        except Exception:  # noqa: BLE001 - a vanished or broken file is simply not shown
            continue
    return None


_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def merged_view(project: RootView | None, global_: RootView):
    """(resident items, catalog rows iterator): project items override global ones
    with the same id or (type, title), as `Memory.load_items` does."""
    import heapq

    from lorestack.memory_layers.scopes import ProjectShadow, visible_global

    p_resident = project.resident if project else []
    resident = list(visible_global(p_resident, global_.resident, lambda i: (i.id, i.type, i.title)))
    resident += p_resident
    if global_.empty:
        return resident, (project.rows() if project else iter(()))
    shadow = ProjectShadow()
    for row in project.rows() if project else ():
        shadow.add_key(row.id, row.key)
    g_rows = (r for r in global_.rows() if not shadow.hides_key(r.id, r.key))
    streams = [project.rows(), g_rows] if project else [g_rows]
    return resident, heapq.merge(*streams, key=lambda r: r.sort)
