"""The loader: what a session receives, in three tiers, under one token budget it never exceeds.

gather (`loader_blocks`) → plan the budget (`loader_plan`) → render. The tiers:

1. resident — identity card, decision criteria (block before warn), caveats, the profile,
   from the cache in `context_cache`, so the common path reads one JSON file;
2. catalog  — one line per memory file (path · type · tokens · title), by priority;
3. top-k    — the retriever's hits for the query (first, in rank order), adjacent turns of
   the same session, today's and the last working day's journal, open todos.

Rendering is grouped: events under one heading per day and session, items under one heading
per type (and verdict), one line each with a short id; confidence only when below 1.
Only whole items are shown (an excerpt is marked as one), no id appears twice, and the
total — counted with tiktoken — is at most the budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import partial

from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.hits import Hit, LightHit
from lorestack.retrieval.loader_blocks import (
    Block,
    DayCache,
    cached_view,
    event_block,
    hit_block,
    is_open,
    recent_events,
    resident_blocks,
)
from lorestack.retrieval.loader_plan import (
    MIN_CATALOG_LINE_TOKENS,
    NEIGHBOUR_HITS,
    TIERS,
    Budgeter,
    Candidates,
    Dropped,
    More,
    plan,
    render,
)
from lorestack.retrieval.loader_session import remembered_hits, summarise_routine
from lorestack.retrieval.modes import RecallMode, parse_mode
from lorestack.retrieval.recall import index_is_warm, lexical_hits, record_shown, search_hits
from lorestack.retrieval.render_context import (
    SECTION_TITLES,
    TokenMemo,
    fence_for,
    longest_tilde_fence,
    preface_for,
    topk_title,
)

__all__ = [
    "MIN_CATALOG_LINE_TOKENS",
    "TIERS",
    "Block",
    "ContextResult",
    "Dropped",
    "TierReport",
    "assemble_context",
    "candidates_for",
    "open_todos",
    "search_hits",
]


@dataclass
class TierReport:
    name: str
    budget: int = 0
    used: int = 0
    items: list[str] = field(default_factory=list)
    dropped: int = 0


@dataclass
class ContextResult:
    """The assembled context and the budget report (`--report`)."""

    text: str
    tokens: int
    budget: int
    encoding: str
    tiers: dict[str, TierReport]
    ids: list[str]
    dropped: list[Dropped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    query: str | None = None
    overhead: int = 0
    cache_warm: bool = True  # False when the tokenizer had to be loaded (new or changed text)
    index_cold: bool = False  # recall came from catalog titles: the index was cold or broken
    full_ids: list[str] = field(default_factory=list)  # shown whole (not just a catalog line)

    @property
    def empty(self) -> bool:
        return not self.text


def candidates_for(mem: Memory, budget: int) -> int:
    """How many hits to ask the retriever for: enough to fill the budget with short items
    (a short conversation turn renders in ~8-15 tokens), never fewer than `loader.candidates`."""
    return max(mem.settings.loader.candidates, budget // 8)


def _memo(mem: Memory) -> TokenMemo:
    from lorestack.memory_layers import parse_cache

    index_dir = mem.primary.index_dir
    return TokenMemo(
        mem.settings.tokens.encoding,
        index_dir / "loader" / "tokens.json" if index_dir.parent.is_dir() else None,
        shared=parse_cache.enabled(),  # the service: one table per memory, not a read per request
    )


def warm_cache(mem: Memory) -> None:
    """Bring the loader's cache (resident items, catalog) up to date, as a session start would."""
    memo = _memo(mem)
    cached_view(mem, memo)
    memo.save()


def open_todos(mem: Memory, now: datetime | None = None) -> list:
    """Todos and blockers of the last `loader.todo_days` days that no later event refers to."""
    from lorestack.memory_layers.models import now_utc

    cfg = mem.settings.loader
    recent, open_items = recent_events(mem, now or now_utc(), cfg.journal_days, cfg.todo_days)
    return [
        *open_items,
        *(e for e in recent if e.kind in ("todo", "blocker") and is_open(e, recent)),
    ]


# ---- gather ------------------------------------------------------------------------------------
@dataclass
class _Request:
    mem: Memory
    query: str | None
    now: datetime
    memo: TokenMemo
    mode: RecallMode
    k: int
    sync: bool
    excluded: set[str]
    notes: list[str] = field(default_factory=list)
    searched: bool = False
    index_cold: bool = False
    record: bool = True  # reinforce what the context shows (a bench turns it off)
    anchors: object = None  # the repository's AnchorIndex: marks items whose code changed


def catalog_hits(views, query: str, k: int) -> list[LightHit]:
    """Items whose catalog line (title, path) shares words with the query, most shared first.

    The fallback when no index can answer: crude, but it is recall from what still works.
    """
    import re

    words = set(re.findall(r"[a-z0-9]{3,}", query.lower()))
    if not words or k <= 0:
        return []
    scored = []
    for view in views:
        for n, row in enumerate(view.rows()):
            shared = len(words & set(re.findall(r"[a-z0-9]{3,}", row.line.lower())))
            if shared:
                path = str(view.root / row.path) if view.root else row.path
                scored.append((-shared, n, LightHit(row.id, "item", path)))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [hit for _s, _n, hit in scored[:k]]


def _retrieve(req: _Request, views) -> list:
    """The retriever's hits for the query (or none, with a note saying why)."""
    if not (req.query and req.query.strip()) or req.mode is RecallMode.NONE:
        return []
    if not req.sync and not index_is_warm(req.mem):
        # the lexical index is missing: answer from the catalog titles we already hold
        found = catalog_hits(views, req.query, req.k)
        req.notes.append("retrieval degraded: the lexical index is cold; answered from catalog "
                         f"titles ({len(found)} match(es)) and the journal")
        req.index_cold = True
        return found
    warnings: list[str] = []
    try:
        if req.mode is RecallMode.BM25 and not req.sync:
            return lexical_hits(req.mem, req.query, req.k, views)
        req.searched = True  # the full pipeline reinforces what it recalls
        return search_hits(
            req.mem,
            req.query,
            k=req.k,
            mode=req.mode,
            sync=req.sync,
            warnings=warnings,
            now=req.now,
            record_access=False,
        )
    except Exception as exc:  # noqa: BLE001 - context without recall beats none
        found = catalog_hits(views, req.query, req.k)
        req.notes.append(f"retrieval degraded: {type(exc).__name__}: {exc}; answered from "
                         f"catalog titles ({len(found)} match(es)) and the journal")
        req.index_cold = not req.sync
        return found
    finally:
        req.notes.extend(f"retrieval: {w}" for w in warnings)


def _hit_blocks(
    req: _Request, hits: Sequence[Hit], views, days: DayCache, expand: bool
) -> tuple[list[Block], list[Block]]:
    """(whole blocks of the hits in rank order, neighbour turns of the best event hits)."""
    item_ids = {h.id for h in hits if h.type != "event"}
    known: dict[str, str] = {}
    for view in views:
        known.update(view.paths_for(item_ids - set(known)))
    blocks: list[Block] = []
    seen: set[str] = set()
    for hit in hits:
        if hit.id in seen or hit.id in req.excluded:
            continue
        seen.add(hit.id)
        block = hit_block(req.mem, hit, req.now, req.memo, days, known.get(hit.id),
                          anchors=req.anchors)
        if block is not None:
            blocks.append(block)
    neighbours: list[Block] = []
    if expand:
        for block in [b for b in blocks if b.kind == "event"][:NEIGHBOUR_HITS]:
            when = datetime.fromtimestamp(block.order, tz=timezone.utc)
            event, path = days.find(LightHit(block.id or "", "event", block.day_file, when))
            for other in days.neighbours(event, path) if event else []:
                if other.time <= req.now and other.id not in req.excluded:
                    neighbours.append(
                        event_block(
                            other,
                            req.now,
                            req.memo,
                            "neighbour",
                            str(path),
                            days.position(path, other.id),
                        )
                    )
    return blocks, neighbours


def _gather(
    req: _Request,
    tiers: tuple[str, ...],
    recent: bool,
    hits: list | None,
    expand: bool,
    more_hits: Callable[[int], list] | None = None,
) -> tuple[Candidates, list, More | None]:
    """Every candidate block, the resident items (for the fence width), and how to draw more
    of the ranking when the budget is not spent (None when there is no ranking to extend)."""
    resident_items, rows, total, problems, views = cached_view(req.mem, req.memo)
    req.notes.extend(f"unreadable memory file skipped: {p}" for p in problems[:20])
    c = Candidates(catalog=rows if "catalog" in tiers else (), catalog_total=total)
    if "resident" in tiers:
        c.resident = resident_blocks(resident_items, req.memo, anchors=req.anchors)
    if "topk" in tiers:
        days = DayCache(req.mem)
        if recent:
            cfg = req.mem.settings.loader
            events, open_items = recent_events(req.mem, req.now, cfg.journal_days, cfg.todo_days)
            shown, summaries = summarise_routine(events, req.now, req.memo)
            keep = {e.id for e in shown}
            c.recent = summaries + [
                event_block(e, req.now, req.memo, "journal", seq=n)
                for n, e in reversed(list(enumerate(events))) if e.id in keep
            ]
            c.recent += [
                event_block(e, req.now, req.memo, "todo", seq=n)
                for n, e in reversed(list(enumerate(open_items)))
            ]
        found = _retrieve(req, views) if hits is None else hits
        if hits is None and recent and not (req.query and req.query.strip()):
            found = remembered_hits(views)  # no query: what was remembered before the log
        c.hits, c.neighbours = _hit_blocks(req, found, views, days, expand)
        fetch = more_hits
        if fetch is None and hits is None and req.query and req.mode is not RecallMode.NONE:
            fetch = partial(_retrieve_k, req, views)
        if fetch is not None and found and req.mem.settings.loader.fill_budget:
            grower = _Grower(req, views, days, expand, fetch, found, searched=hits is None)
            return c, resident_items, grower
    return c, resident_items, None


def _retrieve_k(req: _Request, views, k: int) -> list:
    saved, req.k = req.k, k
    try:
        return _retrieve(req, views)
    finally:
        req.k = saved
        req.notes[:] = list(dict.fromkeys(req.notes))  # a degraded search says so once


class _Grower:
    """Draws further hits of the same ranking, in steps, when the budget still has room.

    The hits already gathered keep their places: a larger pool may reorder the ranking's
    head (fusion and rerank see more candidates), so only ids not seen before are appended,
    in the larger ranking's order. Stops at `loader.max_candidates` or when the retriever
    returns fewer hits than asked (nothing more to find).
    """

    def __init__(self, req: _Request, views, days: DayCache, expand: bool,
                 fetch: Callable[[int], list], found: list, searched: bool):
        self.req, self.views, self.days, self.expand, self.fetch = req, views, days, expand, fetch
        # hits the caller supplied: as many as given; our own search: as many as asked
        self.k = max(req.k, len(found)) if searched else max(len(found), 1)
        self.seen = {h.id for h in found}
        self.cap = max(req.mem.settings.loader.max_candidates, self.k)
        self.done = (searched and len(found) < req.k) or self.k >= self.cap
        self.max_tilde = 0  # the fence is fixed before growing: longer ~~~ runs are skipped
        self.pending: list = []  # drawn hits not yet turned into blocks

    def __call__(self, room: int) -> list[Block] | None:
        if not self.pending:
            if self.done:
                return None
            # enough new hits for the room at ~10 tokens a short turn, at least twice the pool
            k = min(self.cap, max(2 * self.k, self.k + room // 5))
            found = self.fetch(k)
            self.done = len(found) < k or k >= self.cap
            self.k = k
            self.pending = [h for h in found if h.id not in self.seen]
            self.seen.update(h.id for h in self.pending)
        # blocks only for as many hits as the room could show (reading and counting a hit
        # costs more than ranking it)
        take = max(room // 6, 16)
        batch, self.pending = self.pending[:take], self.pending[take:]
        blocks, neighbours = _hit_blocks(self.req, batch, self.views, self.days, self.expand)
        return [b for b in [*blocks, *neighbours] if longest_tilde_fence(b.text) <= self.max_tilde]


# ---- assemble ----------------------------------------------------------------------------------
def assemble_context(
    mem: Memory,
    *,
    query: str | None = None,
    budget: int | None = None,
    tiers: Sequence[str] = TIERS,
    recent: bool = True,
    exclude_ids: Iterable[str] = (),
    retrieval: str = "default",
    k: int | None = None,
    hits: list | None = None,
    sync: bool = True,
    now: datetime | None = None,
    expand: bool = True,
    more_hits: Callable[[int], list] | None = None,
    record: bool = True,
) -> ContextResult:
    """Assemble the session context within `budget` tokens (default: settings.loader.budget).

    `hits` supplies retrieval results directly (anything with the `Hit` protocol; otherwise
    the index is searched for `query` in `retrieval` mode); `exclude_ids` are never shown
    again (what the session already received); `expand=False` packs only whole hits (no
    neighbour turns, no excerpts), as the bench's single-retriever modes do. When the budget
    is not spent, the loader draws more of the ranking (`loader.fill_budget`): by searching
    again with a larger k, or through `more_hits(k)` when the caller supplied the hits.
    `record=False` leaves usage (access reinforcement) alone: a bench asks independent
    questions of one store.
    """
    from lorestack.memory_layers.models import now_utc

    cfg = mem.settings.loader
    budget = cfg.budget if budget is None else int(budget)
    tiers = tuple(t for t in TIERS if t in set(tiers))
    req = _Request(
        mem,
        query,
        now or now_utc(),
        _memo(mem),
        parse_mode(retrieval, allow_none=True),
        k or candidates_for(mem, budget),
        sync,
        set(exclude_ids),
        record=record,
    )
    from lorestack.memory_layers.anchors import index_for

    req.anchors = index_for(mem)
    reports = {t: TierReport(t) for t in tiers}
    result = ContextResult("", 0, budget, mem.settings.tokens.encoding, reports, [], query=query)
    if budget <= 0 or not tiers:
        return result
    c, resident_items, more = _gather(req, tiers, recent, hits, expand, more_hits)
    _plan_and_render(req, c, resident_items, result, expand, more)
    result.cache_warm = not req.memo.encoder_loaded
    req.memo.save()
    if req.anchors is not None:
        req.anchors.save()
    return result


def _plan_and_render(
    req: _Request,
    c: Candidates,
    resident_items: list,
    result: ContextResult,
    expand: bool,
    more: More | None = None,
) -> None:
    """Steps two and three: fence, budget plan, render and report, then reinforce."""
    cfg = req.mem.settings.loader
    budget = result.budget
    longest = max(
        [i.tilde for i in resident_items]
        + [longest_tilde_fence(b.text) for b in [*c.recent, *c.hits, *c.neighbours]]
        + [0]
    )
    fence_open, fence_close = fence_for(longest)
    if isinstance(more, _Grower):
        more.max_tilde = max(longest, 3)
    preface = preface_for(req.mem)
    result.overhead = req.memo(preface) + req.memo(fence_open) + req.memo(fence_close)
    avail = budget - result.overhead
    result.notes = req.notes
    result.index_cold = req.index_cold
    if avail <= 0:
        result.notes.append(
            f"budget {budget} is below the fixed overhead of {result.overhead} tokens"
        )
        return
    bud = Budgeter(req.memo, req.excluded, {**SECTION_TITLES, "topk": topk_title(req.now)})
    skipped, notes = plan(
        c,
        bud,
        avail,
        resident_cap=cfg.resident_budget,
        journal_share=cfg.journal_share,
        catalog_share=cfg.catalog_share,
        query=req.query,
        expand=expand,
        more=more,
        excerpt_tokens=cfg.excerpt_tokens if cfg.excerpts else 0,
    )
    result.notes.extend(notes)
    if "catalog" in result.tiers:
        result.tiers["catalog"].dropped = skipped
        if skipped:
            result.notes.append(
                f"catalog: {skipped} lines left out for budget (lowest priority first)"
            )
    _finish(result, bud, fence_open, fence_close, budget, avail, preface)
    if req.searched and req.record:
        shown = [b.id for b in bud.chosen["topk"] if b.source == "retrieved" and b.id]
        record_shown(req.mem, shown, req.now)


def _finish(
    result: ContextResult, bud: Budgeter, fence_open: str, fence_close: str, budget: int,
    avail: int, preface: str,
) -> None:
    memo = bud.memo
    text, total = render(bud, fence_open, fence_close, preface)
    # The block sums are exact by construction (see render_context); whenever the encoder is
    # loaded anyway, check the whole and trim lowest-priority blocks if it ever disagrees.
    if memo.encoder_loaded and text:
        exact = memo.exact(text)
        while exact > budget and text:
            for tier in ("catalog", "topk", "resident"):
                if bud.chosen[tier]:
                    block = bud.chosen[tier].pop()
                    bud.dropped.append(Dropped(block.id or "?", tier, "trimmed after exact count"))
                    break
            text, total = render(bud, fence_open, fence_close, preface)
            exact = memo.exact(text) if text else 0
        if text and exact != total:
            result.notes.append(f"token sum {total} differed from exact count {exact}")
        total = exact if text else 0
    result.text, result.tokens = text, total
    shown = [b for tier in TIERS for b in bud.chosen[tier] if b.id]
    result.ids = list(dict.fromkeys(b.id for b in shown if b.id))
    result.full_ids = [
        b.id for b in shown if b.id and b.tier != "catalog" and b.source != "excerpt"
    ]
    _report(result, bud, avail)


def _report(result: ContextResult, bud: Budgeter, avail: int) -> None:
    shown = set(result.ids)
    seen: set[tuple[str, str]] = set()
    result.dropped = []
    for d in bud.dropped:
        trimmed = d.reason == "trimmed after exact count"
        if (d.id in shown and not trimmed) or (d.id, d.tier) in seen:
            continue
        seen.add((d.id, d.tier))
        result.dropped.append(d)
    for tier, report in result.tiers.items():
        blocks = bud.chosen[tier]
        report.items = [b.id for b in blocks if b.id]
        report.used = (
            sum(b.tokens for b in blocks)
            + sum(bud.memo(h) for h in {b.head for b in blocks if b.head})
            + (bud.memo(bud.titles[tier]) if blocks else 0)
        )
        report.budget = avail
        if tier == "resident":
            report.dropped = bud.resident_left
        elif tier != "catalog":
            report.dropped = sum(1 for d in result.dropped if d.tier == tier)
