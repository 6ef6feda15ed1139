"""The loader's gathering step for one request: the retriever's hits for the query, their
whole blocks, the resident items and the journal, and — when the budget is not spent — more
of the same ranking, drawn in steps (`Grower`). `loader.assemble_context` plans and renders.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial

from lorestack.core.errors import IndexOpening
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.sealed_names import unseal_path
from lorestack.retrieval.hits import Hit, LightHit
from lorestack.retrieval.loader_blocks import (
    Block,
    DayCache,
    cached_view,
    event_block,
    hit_block,
    recent_events,
    resident_blocks,
)
from lorestack.retrieval.loader_plan import Candidates, More
from lorestack.retrieval.loader_session import remembered_hits, summarise_routine
from lorestack.retrieval.modes import RecallMode
from lorestack.retrieval.recall import index_is_warm, lexical_hits, search_ranking
from lorestack.retrieval.render_context import TokenMemo, longest_tilde_fence


# ---- gather ------------------------------------------------------------------------------------
@dataclass
class Request:
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
    # the last search's whole ranking: (depth, hits); any k up to depth is its first k hits
    ranking: tuple[int, list] | None = None
    recent: bool = True  # the context carries the recent journal itself (a session start)
    # False: growth draws from the first search's ranking only, never a deeper search
    search_deeper: bool = True


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
                path = unseal_path(str(view.root / row.path) if view.root else row.path)
                scored.append((-shared, n, LightHit(row.id, "item", path)))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [hit for _s, _n, hit in scored[:k]]


def _retrieve(req: Request, views) -> list:
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
        if req.mode is RecallMode.BM25 and not req.sync and req.recent:
            # a session start: its journal tier shows the recent events, the ranking is for
            # remembered items (tantivy alone). A prompt's BM25 ranks the journal too (below):
            # items alone left a store whose knowledge is in its events with nothing to say
            return lexical_hits(req.mem, req.query, req.k, views)
        req.searched = True  # the full pipeline reinforces what it recalls
        if req.ranking is not None and req.k <= req.ranking[0]:
            return req.ranking[1][:req.k]  # the same pool ranked again gives the same order
        req.ranking = search_ranking(req.mem, req.query, k=req.k, mode=req.mode.value,
                                     sync=req.sync, warnings=warnings, now=req.now)
        return req.ranking[1][:req.k]
    except Exception as exc:  # noqa: BLE001 - context without recall beats none
        found = catalog_hits(views, req.query, req.k)
        req.notes.append(f"retrieval degraded: {type(exc).__name__}: {exc}; answered from "
                         f"catalog titles ({len(found)} match(es)) and the journal")
        # an index another request is opening (the service) needs no rebuild behind
        req.index_cold = not req.sync and not isinstance(exc, IndexOpening)
        return found
    finally:
        req.notes.extend(f"retrieval: {w}" for w in warnings)


def _hit_blocks(req: Request, hits: Sequence[Hit], views, days: DayCache) -> list[Block]:
    """Whole blocks of the hits, in rank order."""
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
    return blocks


def gather(
    req: Request,
    tiers: tuple[str, ...],
    recent: bool,
    hits: list | None,
    more_hits: Callable[[int], list] | None = None,
) -> tuple[Candidates, list, More | None]:
    """Every candidate block, the resident items (for the fence width), and how to draw more
    of the ranking when the budget is not spent (None when there is no ranking to extend)."""
    resident_items, rows, total, problems, views = cached_view(req.mem, req.memo)
    req.notes.extend(f"unreadable memory file skipped: {p}" for p in problems[:20])
    c = Candidates(catalog=rows if "catalog" in tiers else (), catalog_total=total)
    if "resident" in tiers:
        c.resident = resident_blocks(resident_items, req.memo, anchors=req.anchors,
                                     threshold=req.mem.settings.guard.entropy_threshold)
    if "topk" in tiers:
        req.recent = recent
        days = DayCache(req.mem)
        if recent:
            cfg = req.mem.settings.loader
            threshold = req.mem.settings.guard.entropy_threshold
            events, open_items = recent_events(req.mem, req.now, cfg.journal_days, cfg.todo_days)
            shown, summaries = summarise_routine(events, req.now, req.memo)
            keep = {e.id for e in shown}
            c.recent = summaries + [
                event_block(e, req.now, req.memo, "journal", seq=n, threshold=threshold)
                for n, e in reversed(list(enumerate(events))) if e.id in keep
            ]
            c.recent += [
                event_block(e, req.now, req.memo, "todo", seq=n, threshold=threshold)
                for n, e in reversed(list(enumerate(open_items)))
            ]
        found = _retrieve(req, views) if hits is None else hits
        if hits is None and recent and not (req.query and req.query.strip()):
            found = remembered_hits(views)  # no query: what was remembered before the log
        c.hits = _hit_blocks(req, found, views, days)
        fetch = more_hits
        if fetch is None and hits is None and req.query and req.mode is not RecallMode.NONE:
            fetch = partial(_retrieve_k if req.search_deeper else _first_ranking, req, views)
        if fetch is not None and found and req.mem.settings.loader.fill_budget:
            grower = Grower(req, views, days, fetch, found, searched=hits is None)
            return c, resident_items, grower
    return c, resident_items, None


def _first_ranking(req: Request, views, k: int) -> list:
    """Up to k hits of the first search's whole ranking (none when it kept no ranking)."""
    return req.ranking[1][:k] if req.ranking is not None else []


def _retrieve_k(req: Request, views, k: int) -> list:
    saved, req.k = req.k, k
    try:
        return _retrieve(req, views)
    finally:
        req.k = saved
        req.notes[:] = list(dict.fromkeys(req.notes))  # a degraded search says so once


class Grower:
    """Draws further hits of the same ranking, in steps, when the budget still has room.

    The hits already gathered keep their places: a larger pool may reorder the ranking's
    head (fusion and rerank see more candidates), so only ids not seen before are appended,
    in the larger ranking's order. One further search is sized for the room (enough hits at
    ~5 tokens each, at least twice the pool) and drawn in slices. Once that ranking is spent,
    a larger one (k doubling) is searched for only while a typical hit would still fit: the
    room left is at least the median cost of the hit blocks drawn so far — what each costs in
    the context, its day heading or day prefix included (its text alone, median 16 tokens
    against a cost of 26 at 100k events, let 5 prompts of 40 grow to 1,000 hits in 6 searches
    that could show nothing). Past that point a
    deeper search rarely shows anything more (at 10k items, rounds up to k = 1,000 filled the
    last 13-33 tokens of a prompt's budget by nothing in 6 prompts of 16, and each was a
    whole hybrid search). Stops at `loader.max_candidates` or when the retriever returns
    fewer hits than asked (nothing more to find).
    """

    def __init__(self, req: Request, views, days: DayCache,
                 fetch: Callable[[int], list], found: list, searched: bool):
        self.req, self.views, self.days, self.fetch = req, views, days, fetch
        # hits the caller supplied: as many as given; our own search: as many as asked
        self.k = max(req.k, len(found)) if searched else max(len(found), 1)
        self.seen = {h.id for h in found}
        self.cap = max(req.mem.settings.loader.max_candidates, self.k)
        self.done = (searched and len(found) < req.k) or self.k >= self.cap
        self.max_tilde = 0  # the fence is fixed before growing: longer ~~~ runs are skipped
        self.pending: list = []  # drawn hits not yet turned into blocks
        self.sizes: list[int] = []  # what the hit blocks drawn so far cost in the context
        # a block's cost in the context (its heading or day prefix too); the planner sets it
        self.cost: Callable[[Block], int] = lambda b: b.tokens

    def _pays(self, room: int) -> bool:
        """Whether searching deeper may still show something: a typical hit fits the room."""
        if not self.sizes:
            return True
        sizes = sorted(self.sizes)
        return room >= sizes[len(sizes) // 2]

    def __call__(self, room: int) -> list[Block] | None:
        if not self.pending:
            if self.done or not self._pays(room):
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
        blocks = _hit_blocks(self.req, batch, self.views, self.days)
        self.sizes.extend(self.cost(b) for b in blocks)
        return [b for b in blocks if longest_tilde_fence(b.text) <= self.max_tilde]
