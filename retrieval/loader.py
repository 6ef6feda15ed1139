"""The loader: what a session receives, in three tiers, under one token budget it never exceeds.

gather (`loader_gather`, `loader_blocks`) → plan the budget (`loader_plan`) → render. The tiers:

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
from datetime import datetime

from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.loader_blocks import Block, cached_view, is_open, recent_events
from lorestack.retrieval.loader_gather import Grower, Request, catalog_hits, gather
from lorestack.retrieval.loader_plan import (
    MIN_CATALOG_LINE_TOKENS,
    TIERS,
    Budgeter,
    Candidates,
    Dropped,
    More,
    plan,
    render,
)
from lorestack.retrieval.modes import parse_mode
from lorestack.retrieval.recall import record_shown, search_hits
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
    "catalog_hits",
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
    # the retrieved items shown: what a recall reinforces (`recall.record_shown`); recorded
    # here unless `record=False`, when the caller records them once its reply is out
    reinforce: list[str] = field(default_factory=list)

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


def unreadable_files(mem: Memory) -> list[str]:
    """The memory files the loader's cache could not read (each one line, names sealed), as
    `context` notes them: `search` reads the index, which a sync kept up to date elsewhere
    (the service, a hook) without a word about them."""
    from lorestack.retrieval.loader_blocks import cached_view

    return list(cached_view(mem, _memo(mem))[3])


def warm_cache(mem: Memory) -> None:
    """Bring the loader's cache (resident items, catalog) up to date, as a session start would."""
    memo = _memo(mem)
    cached_view(mem, memo)
    memo.save()


# items whose hit blocks the service renders ahead; beyond, as prompts meet them. At 100k
# items a cap of 20k left the prompt hook at p50 70 ms (a hit beyond it is read, parsed and
# redacted when first met), all 100k prepared 48 ms, for +216 MB resident (730 -> 946 MB)
# and 83 s of warm-up behind the first request (docs/benchmarks.md, fifth session)
PREPARED_MAX = 100_000


def prepare_hit_blocks(mem: Memory, stop: Callable[[], bool] = lambda: False) -> int:
    """Render each catalogued item (the first `PREPARED_MAX` in catalog order) once as the
    block a hit shows, so a prompt's hits are look-ups (a long-lived process only:
    `parse_cache` on). A prompt that fills its budget draws hundreds of hits; rendering one
    reads, parses and redacts its file (7 ms at load 12), most of a prompt's time at 10k
    items. The blocks are the ones `hit_block` makes and keeps (by file stat), so the context
    is the same, only ready sooner. Every journal day is parsed into the cache too: an event
    hit is found in its day's parsed events, and at 100k events (563 days) a prompt meeting
    days not parsed yet took 300-1,000 ms (~5 ms a day). How many blocks were made."""
    from lorestack.memory_layers import parse_cache
    from lorestack.memory_layers.models import now_utc
    from lorestack.retrieval.hits import LightHit
    from lorestack.retrieval.loader_blocks import DayCache, hit_block

    if not parse_cache.enabled():
        return 0
    memo = _memo(mem)
    views = cached_view(mem, memo)[4]
    days, now, made = DayCache(mem), now_utc(), 0
    seen: set[str] = set()
    kinds = ("item:project", "item:global")
    for view in views:  # project first: its path wins for an id in both, as in a prompt
        # catalog order (resident kinds, important, recent first), at most PREPARED_MAX in all
        ids = [row.id for row in view.rows() if row.id not in seen][:PREPARED_MAX - len(seen)]
        paths = view.paths_for(set(ids))
        for item_id in ids:
            if stop():
                return made  # shutting down: nothing more to prepare or save
            path = paths.get(item_id)
            if path is None or item_id in seen:
                continue
            seen.add(item_id)
            parsed = [k for k in kinds if parse_cache.holds(path, k)]
            hit_block(mem, LightHit(item_id, "item", path), now, memo, days, path)
            for kind in kinds:  # the block is what is kept, not also the parsed file
                if kind not in parsed:
                    parse_cache.drop(path, kind)
            made += 1
    journal = mem.journal
    if journal is not None:
        for day in journal.days():
            if stop():
                return made
            journal.read_file(journal.day_file(day))
    memo.save()
    return made


def open_todos(mem: Memory, now: datetime | None = None) -> list:
    """Todos and blockers of the last `loader.todo_days` days that no later event refers to."""
    from lorestack.memory_layers.models import now_utc

    cfg = mem.settings.loader
    recent, open_items = recent_events(mem, now or now_utc(), cfg.journal_days, cfg.todo_days)
    return [
        *open_items,
        *(e for e in recent if e.kind in ("todo", "blocker") and is_open(e, recent)),
    ]


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
    search_deeper: bool = True,
) -> ContextResult:
    """Assemble the session context within `budget` tokens (default: settings.loader.budget).

    `hits` supplies retrieval results directly (anything with the `Hit` protocol; otherwise
    the index is searched for `query` in `retrieval` mode); `exclude_ids` are never shown
    again (what the session already received); `expand=False` packs only whole hits (no
    excerpts), as the bench's single-retriever modes do. When the budget
    is not spent, the loader draws more of the ranking (`loader.fill_budget`): by searching
    again with a larger k, or through `more_hits(k)` when the caller supplied the hits.
    `record=False` leaves usage (access reinforcement) alone: a bench asks independent
    questions of one store. `search_deeper=False` fills the budget from the first search's
    ranking alone: an answer that must be ready early (a hook's fallback) stays bounded.
    """
    from lorestack.memory_layers.models import now_utc

    cfg = mem.settings.loader
    budget = cfg.budget if budget is None else int(budget)
    tiers = tuple(t for t in TIERS if t in set(tiers))
    req = Request(
        mem,
        query,
        now or now_utc(),
        _memo(mem),
        parse_mode(retrieval, allow_none=True),
        k or candidates_for(mem, budget),
        sync,
        set(exclude_ids),
        record=record,
        search_deeper=search_deeper,
    )
    from lorestack.memory_layers.anchors import index_for

    req.anchors = index_for(mem)
    reports = {t: TierReport(t) for t in tiers}
    result = ContextResult("", 0, budget, mem.settings.tokens.encoding, reports, [], query=query)
    if budget <= 0 or not tiers:
        if budget <= 0:
            result.notes.append(f"budget {budget} leaves no room for any context")
        return result
    from lorestack.retrieval.pool import one_index

    with one_index(mem):  # the first search and the deeper ones share one open index
        c, resident_items, more = gather(req, tiers, recent, hits, more_hits)
        _plan_and_render(req, c, resident_items, result, expand, more)
    result.cache_warm = not req.memo.encoder_loaded
    req.memo.save()
    if req.anchors is not None:
        req.anchors.save()
    return result


def _plan_and_render(
    req: Request,
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
        + [longest_tilde_fence(b.text) for b in [*c.recent, *c.hits]]
        + [0]
    )
    fence_open, fence_close = fence_for(longest)
    if isinstance(more, Grower):
        more.max_tilde = max(longest, 3)
    preface = preface_for(req.mem)
    result.overhead = req.memo(preface) + req.memo(fence_open) + req.memo(fence_close)
    avail = budget - result.overhead
    result.notes = req.notes
    result.index_cold = req.index_cold
    if avail <= 0:
        result.notes.append(
            f"budget {budget} is below the fixed overhead of {result.overhead} tokens "
            "(the preface and fence every context carries)"
        )
        return
    bud = Budgeter(req.memo, req.excluded, {**SECTION_TITLES, "topk": topk_title(req.now)})
    if isinstance(more, Grower):
        more.cost = bud.least_cost
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
    if req.searched:
        result.reinforce = [b.id for b in bud.chosen["topk"] if b.source == "retrieved" and b.id]
        if req.record:
            record_shown(req.mem, result.reinforce, req.now)


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
