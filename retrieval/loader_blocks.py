"""The loader's first step, *gather*: every candidate block of a context, before any budget.

A block is one whole line group member — an item, an event, a catalog line — with its token
cost and the group it belongs to (events: one group per day and session; items: one per type
and verdict). The planner (`loader_plan`) pays a group's heading once, with its first block.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from memstrata.memory_layers.memory import Memory
from memstrata.memory_layers.models import JournalEvent
from memstrata.retrieval.context_cache import RootCache
from memstrata.retrieval.hits import Hit
from memstrata.retrieval.render_context import (
    TokenMemo,
    bullet,
    event_group_heading,
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
    source: str = ""  # resident | journal | todo | retrieved | neighbour | excerpt | catalog
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


def _heading(memo: TokenMemo, text: str) -> tuple[str, int]:
    return text, memo(text)


# ---- events ----------------------------------------------------------------------------------
def event_block(
    event, now: datetime, memo: TokenMemo, source: str, path: str | None = None, seq: int = 0
) -> Block:
    from memstrata.retrieval.temporal import relative_dates

    resolved = relative_dates(event.text, event.time)
    note = ", ".join(f"{phrase} = {day.isoformat()}" for phrase, day in resolved)
    # plain events are identified by their day/session heading and text; todos and blockers
    # keep their short id, since a later event closes them by naming it
    tail = (
        id_tail(event.id, 1.0, note)
        if event.kind in ("todo", "blocker")
        else (f" ({note})" if note else "")
    )
    text = bullet(event.text or event.kind, tail)
    day = today_utc(event.time)
    head, head_tokens = _heading(memo, event_group_heading(day, event.session, now))
    return Block(
        "topk",
        event.id,
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
        raw=event.text,
        seq=seq,
    )


def item_block(
    item,
    memo: TokenMemo,
    tier: str,
    source: str,
    body: str | None = None,
    body_tokens: int | None = None,
    verdict: str = "",
) -> Block | None:
    """An L1/L2 item as one line group member; None for an empty placeholder file."""
    body = item_body(item) if body is None else body
    if not body.strip():
        return None
    if item.id == "project":
        text = body
        head, group, order = "", "identity", "0"
    elif item.id == "profile":
        text = body
        head, group, order = "### profile\n", "profile", "3"
    else:
        text = bullet(body, id_tail(item.id, float(item.confidence)))
        head = item_group_heading(item.type, verdict)
        group = f"{item.type}\x1f{verdict}"
        order = f"{RESIDENT_RANK.get(item.type, 4)}{VERDICT_RANK.get(verdict, 2)}{item.type}"
    tokens = memo(text)
    return Block(
        tier,
        item.id,
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


def resident_blocks(items: Sequence, memo: TokenMemo) -> list[Block]:
    """Identity card, criteria (block before warn), caveats, profile — in that order."""
    active = [i for i in items if i.status == "active"]

    def rank(i) -> tuple:
        first = 0 if i.id == "project" else 3 if i.id == "profile" else RESIDENT_RANK.get(i.type, 4)
        return (first, VERDICT_RANK.get(i.verdict, 2), -i.importance, -i.updated_ts)

    out = []
    for i in sorted(active, key=rank):
        block = item_block(i, memo, "resident", "resident", i.body, i.body_tokens, i.verdict)
        if block is not None:
            out.append(block)
    return out


def cached_view(mem: Memory, memo: TokenMemo):
    """(resident items, lazy catalog rows, catalog size, problems, views) from the cache."""
    from memstrata.retrieval.context_cache import merged_view

    repo = mem.project.repo_dir if mem.project else None
    home_dir = Path.home()
    rescan = mem.settings.loader.catalog_rescan_s
    limit = mem.settings.limits.max_file_bytes
    project = (
        RootCache(mem.project, "project", memo, repo_dir=repo, home=home_dir,
                  max_file_bytes=limit).load(rescan)
        if mem.project
        else None
    )
    global_ = RootCache(mem.home, "global", memo, repo_dir=None, home=home_dir,
                        max_file_bytes=limit).load(rescan)
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
    """A todo is open until a later event names its id."""
    later = [e for e in events if e.time >= event.time and e.id != event.id]
    return not any(event.id in e.text or event.id in " ".join(e.tags) for e in later)


class DayCache:
    """Journal day files read at most once per assembly."""

    def __init__(self, mem: Memory):
        self.mem = mem
        self._days: dict[str, list] = {}
        self._ids: dict[str, dict[str, int]] = {}  # day file -> event id -> position
        self._is_file: dict[str, bool] = {}

    def events(self, path: Path) -> list:
        key = str(path)
        if key not in self._days:
            self._days[key] = self.mem.journal.read_file(path).events if self.mem.journal else []
            self._ids[key] = {}
            for i, e in enumerate(self._days[key]):
                self._ids[key].setdefault(e.id, i)
        return self._days[key]

    def position(self, path: Path, event_id: str) -> int:
        self.events(path)
        return self._ids[str(path)].get(event_id, 0)

    def _exists(self, raw: str) -> bool:
        if raw not in self._is_file:
            self._is_file[raw] = Path(raw).is_file()
        return self._is_file[raw]

    def find(self, hit: Hit):
        """(event, its day file) for an event hit, or (None, None)."""
        if self.mem.journal is None:
            return None, None
        candidates = []
        if hit.path and self._exists(str(hit.path)):
            candidates.append(Path(str(hit.path)))
        if isinstance(hit.time, datetime):
            candidates.append(self.mem.journal.day_file(today_utc(hit.time)))
        for path in candidates:
            events = self.events(path)
            at = self._ids[str(path)].get(hit.id)
            if at is not None:
                return events[at], path
        return None, None

    def neighbours(self, event, path: Path, width: int = 1) -> list:
        """The turns just before and after `event` in the same session (nearest first)."""
        if not event.session:
            return []
        same = [e for e in self.events(path) if e.session == event.session]
        same.sort(key=lambda e: e.time)
        at = next((i for i, e in enumerate(same) if e.id == event.id), None)
        if at is None:
            return []
        out: list[JournalEvent] = []
        for step in range(1, width + 1):
            out.extend(same[j] for j in (at - step, at + step) if 0 <= j < len(same))
        return out


# ---- retrieval hits ----------------------------------------------------------------------------
def hit_block(
    mem: Memory,
    hit: Hit,
    now: datetime,
    memo: TokenMemo,
    days: DayCache,
    known_path: str | None = None,
) -> Block | None:
    """A hit rendered as its *whole* item or event (the index may hold only a chunk)."""
    if hit.type == "event":
        event, path = days.find(hit)
        if event is None:
            return None
        return event_block(event, now, memo, "retrieved", str(path), days.position(path, event.id))
    loaded = _load_item(mem, hit, known_path)
    if loaded is None or loaded.item.id != hit.id or loaded.item.status != "active":
        return None
    item = loaded.item
    verdict = item.criterion.verdict if item.criterion else ""
    return item_block(item, memo, "topk", "retrieved", verdict=verdict)


def _load_item(mem: Memory, hit: Hit, known_path: str | None):
    from memstrata.memory_layers.store import MemoryStore

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
            if path is None:
                return store.find(hit.id)  # slow path: callers without a path
        except Exception:  # noqa: BLE001 - a vanished or broken file is simply not shown
            continue
    return None


_WORD = re.compile(r"[a-z0-9]+")
# a passage boundary: after a sentence's end, or at a line break (logs and notes are lines)
_PASSAGE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_STOP = frozenset(
    "a an and are as at be been but by did do does for from had has have he her his how i if in "
    "into is it its me my not of on or our she so that the their them then there they this to "
    "up was we were what when where which who why will with would you your".split()
)
EXCERPT_WORDS = 60  # a passage longer than this many words is cut into pieces of this size


def _words(text: str) -> frozenset[str]:
    return frozenset(_WORD.findall(text.lower()))


def _stem(word: str) -> str:
    """A light suffix strip so "deploys", "deployed" and "deploying" meet."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _terms(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP}


def passages(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences / lines of `text`, long ones cut into pieces."""
    spans: list[tuple[int, int]] = []
    at = 0
    for m in [*_PASSAGE_END.finditer(text), None]:
        end = m.start() if m else len(text)
        piece = text[at:end]
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            spans.extend(_cut(text, at + lead, end))
        at = m.end() if m else len(text)
    return spans


def _cut(text: str, start: int, end: int) -> list[tuple[int, int]]:
    words = list(re.finditer(r"\S+", text[start:end]))
    if len(words) <= EXCERPT_WORDS:
        return [(start, end)]
    out = []
    for n in range(0, len(words), EXCERPT_WORDS):
        group = words[n : n + EXCERPT_WORDS]
        out.append((start + group[0].start(), start + group[-1].end()))
    return out


def loaded_embedder():
    """The local sentence embedder if this process already loaded it (a search did), else
    None: an excerpt never pays for loading a model (session hooks stay fast)."""
    import sys

    module = sys.modules.get("memstrata.retrieval.embedding")
    if module is None:
        return None
    return next((e for e in module._CACHE.values() if isinstance(e, module.OnnxMiniLMEmbedder)),
                None)


_GROUP_WORDS = 1  # passages are embedded in runs of about this many words
_VECTORS: dict[str, tuple[list[tuple[int, int]], object]] = {}  # text digest -> (runs, vectors)


def _semantic(text: str, spans: list[tuple[int, int]], query: str, embedder) -> list[float]:
    """Per passage, how much closer its run of passages is to the query than the average run
    (0 for average or worse, 1 for the closest), from the sentence embedder."""
    import hashlib

    import numpy as np

    key = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
    cached = _VECTORS.get(key)
    if cached is None:
        runs: list[tuple[int, int]] = []
        start, words = 0, 0
        for i, (a, b) in enumerate(spans):
            words += len(text[a:b].split())
            if words >= _GROUP_WORDS or i == len(spans) - 1:
                runs.append((start, i))
                start, words = i + 1, 0
        vectors = embedder.embed([text[spans[lo][0] : spans[hi][1]] for lo, hi in runs])
        if len(_VECTORS) > 256:
            _VECTORS.clear()
        _VECTORS[key] = cached = (runs, vectors)
    runs, vectors = cached
    sims = np.asarray(vectors) @ np.asarray(embedder.embed([query]))[0]
    top, mean = float(sims.max()), float(sims.mean())
    out = [0.0] * len(spans)
    for (lo, hi), sim in zip(runs, sims):
        rel = max(0.0, (float(sim) - mean) / (top - mean)) if top > mean else 0.0
        for i in range(lo, hi + 1):
            out[i] = rel * rel
    return out


def best_window(text: str, query: str, memo: TokenMemo, max_tokens: int,
                embedder=None) -> tuple[int, int] | None:
    """The run of passages of `text` that best matches `query` within `max_tokens`.

    Passages are scored by the query terms they hold, each weighted by how rare it is among
    the passages (a word every line repeats tells nothing) plus — when `embedder` is given —
    how close each is to the query in meaning (the index's own sentence model, so paraphrased
    questions find their passage). The window that fits and holds the best passage wins (the
    highest total among those), and is then widened with its neighbours while room is left.
    None when no passage matches at all.
    """
    import math

    spans = passages(text)
    wanted = _terms(query)
    if not spans or not (wanted or embedder is not None):
        return None
    terms = [_terms(text[a:b]) & wanted for a, b in spans]
    df: dict[str, int] = {}
    for found in terms:
        for t in found:
            df[t] = df.get(t, 0) + 1
    n = len(spans)
    scores = [sum(math.log(1 + n / df[t]) for t in found) for found in terms]
    if embedder is not None and n > 1:
        try:
            meaning = _semantic(text, spans, query, embedder)
        except Exception:  # noqa: BLE001 - words alone still choose a passage
            meaning = None
        if meaning is not None:  # meaning first (paraphrases), words to break ties
            top = max(scores) or 1.0
            scores = [m + (s / top) ** 2 for m, s in zip(meaning, scores)]
    if not any(scores):
        return None
    cost = [memo(text[a:b]) + 1 for a, b in spans]
    best, best_key = None, None
    lo, total, tokens = 0, 0.0, 0
    for hi in range(n):  # two pointers: the best-scoring window that fits
        total += scores[hi]
        tokens += cost[hi]
        while tokens > max_tokens and lo <= hi:
            total -= scores[lo]
            tokens -= cost[lo]
            lo += 1
        if lo <= hi:
            key = (round(max(scores[lo : hi + 1]), 6), round(total, 6), -(hi - lo))
            if best_key is None or key > best_key:
                best, best_key = (lo, hi), key
    if best is None:
        return None
    lo, hi = best
    while lo > 0 and scores[lo] == 0 and lo < hi:  # a window that starts or ends on nothing
        lo += 1
    while hi > lo and scores[hi] == 0:
        hi -= 1
    used = sum(cost[lo : hi + 1])
    while True:  # widen with the surrounding passages (context) while they fit
        grown = False
        for j in (hi + 1, lo - 1):
            if 0 <= j < n and used + cost[j] <= max_tokens:
                used += cost[j]
                lo, hi = min(lo, j), max(hi, j)
                grown = True
        if not grown:
            break
    return spans[lo][0], spans[hi][1]


def excerpt_block(block: Block, query: str, memo: TokenMemo, max_tokens: int = 90) -> Block | None:
    """The passage of a long block that best matches the query, marked as an excerpt with
    how to read the whole (`memstrata show <id>`); at most `max_tokens` tokens."""
    if block.tokens <= max_tokens or not query or not block.raw.strip():
        return None
    short = id_tail(block.id or "", 1.0).strip()
    whole = f"memstrata show {short.lstrip('~')}" if block.id else ""
    marker = f"[excerpt of {block.tokens} tok" + (f"; whole: `{whole}`]" if whole else "]")
    room = max_tokens - memo(bullet(marker + " … …")) - 2
    if room <= 0:
        return None
    raw = block.raw
    span = None
    embedder = loaded_embedder()
    for _ in range(4):  # the window is sized by its passages; shrink until the line fits
        span = best_window(raw, query, memo, room, embedder)
        if span is None:
            return None
        line = _excerpt_line(raw, span, marker)
        tokens = memo(line)
        if tokens <= max_tokens:
            break
        room -= tokens - max_tokens + 4
        if room <= 0:
            return None
    else:
        return None
    return Block(
        block.tier,
        block.id,
        block.kind,
        line,
        tokens,
        "excerpt",
        block.order,
        block.group,
        block.head,
        block.head_tokens,
        block.group_order,
        session=block.session,
        day_file=block.day_file,
        seq=block.seq,
    )


def _excerpt_line(raw: str, span: tuple[int, int], marker: str) -> str:
    start, end = span
    body = raw[start:end].strip()
    lead = "… " if raw[:start].strip() else ""
    trail = " …" if raw[end:].strip() else ""
    return bullet(f"{marker} {lead}{body}{trail}")
