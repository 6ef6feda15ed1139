"""The loader: what a session receives, in three tiers, under one token budget it never exceeds.

1. resident — identity card, decision criteria, active caveats (and the profile), rendered
   from the cache in `context_cache`, so the common path reads one JSON file;
2. catalog  — one line per memory file (path · type · tokens · title), by priority;
3. top-k    — today's and the last working day's journal, open todos and blockers, and the
   retriever's hits for the query, in the retriever's order.

Only whole blocks are ever emitted (an item that does not fit is skipped, never cut), no id
appears twice, and the total — counted with tiktoken — is at most the budget.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from memstrata.memory_layers.memory import Memory
from memstrata.retrieval.context_cache import RootCache
from memstrata.retrieval.recall import index_is_warm, lexical_hits, record_shown, search_hits
from memstrata.retrieval.render_context import (
    PREFACE,
    SECTION_TITLES,
    TokenMemo,
    fence_for,
    item_body,
    item_header,
    longest_tilde_fence,
    normalise_block,
    today_utc,
)

TIERS: tuple[str, ...] = ("resident", "catalog", "topk")
RETRIEVAL_MODES = ("hybrid", "bm25", "vector", "none")
MIN_CATALOG_LINE_TOKENS = 6  # "- p · fact · 1 tok · t" is more than this
_RESIDENT_ORDER = {"caveat": 1, "criterion": 2}


@dataclass
class Block:
    tier: str
    id: str | None
    kind: str
    text: str
    tokens: int
    source: str = ""  # resident | journal | todo | retrieved | catalog
    order: float = 0.0  # render order inside the top-k tier (event time for journal blocks)


@dataclass
class Dropped:
    id: str
    tier: str
    reason: str


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
    index_cold: bool = False  # no lexical index: recall came from catalog titles
    full_ids: list[str] = field(default_factory=list)  # shown whole (not just a catalog line)

    @property
    def empty(self) -> bool:
        return not self.text


def catalog_hits(views, query: str, k: int) -> list:
    """Items whose catalog line (title, path) shares words with the query, most shared first.

    The fallback when no index can answer: crude, but it is recall from what still works.
    """
    import re

    from memstrata.retrieval.recall import LightHit

    words = {w for w in re.findall(r"[a-z0-9]{3,}", query.lower())}
    if not words or k <= 0:
        return []
    scored = []
    for view in views:
        for n, row in enumerate(view.rows()):
            line = set(re.findall(r"[a-z0-9]{3,}", row.line.lower()))
            shared = len(words & line)
            if shared:
                path = str(view.root / row.path) if view.root else row.path
                scored.append((-shared, n, LightHit(row.id, "item", path)))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [hit for _s, _n, hit in scored[:k]]


def _memo(mem: Memory) -> TokenMemo:
    index_dir = mem.primary.index_dir
    return TokenMemo(mem.settings.tokens.encoding,
                     index_dir / "loader" / "tokens.json" if index_dir.parent.is_dir() else None)


def cached_view(mem: Memory, memo: TokenMemo):
    """(resident items, lazy catalog rows, catalog size, problems) from the stat-validated cache."""
    from memstrata.retrieval.context_cache import merged_view

    repo = mem.project.repo_dir if mem.project else None
    home_dir = Path.home()
    rescan = mem.settings.loader.catalog_rescan_s
    project = (RootCache(mem.project, "project", memo, repo_dir=repo, home=home_dir,
                         max_file_bytes=mem.settings.limits.max_file_bytes).load(rescan)
               if mem.project else None)
    global_ = RootCache(mem.home, "global", memo, repo_dir=None, home=home_dir,
                        max_file_bytes=mem.settings.limits.max_file_bytes).load(rescan)
    resident, rows = merged_view(project, global_)
    problems = (project.problems if project else []) + global_.problems
    total = (project.line_count if project else 0) + global_.line_count
    return resident, rows, total, problems, [v for v in (project, global_) if v is not None]


# ---- top-k sources -------------------------------------------------------------------------
def _recent_events(mem: Memory, now: datetime, days: int, todo_days: int):
    """(today's + last working days' events, older open todos/blockers) from the journal."""
    if mem.journal is None:
        return [], []
    today = today_utc(now)
    all_days = [d for d in mem.journal.days() if d <= today]
    recent_days = []
    if today in all_days:
        recent_days.append(today)
    earlier = [d for d in all_days if d < today]
    recent_days.extend(reversed(earlier[-max(0, days - 1):] if days > 1 else []))
    todo_from = today - timedelta(days=todo_days)
    scan_days = sorted({*recent_days, *(d for d in all_days if d >= todo_from)})
    events = []
    for day in scan_days:
        events.extend(mem.journal.read_day(day).events)
    events.sort(key=lambda e: e.time)
    recent_set = set(recent_days)
    recent = [e for e in events if e.time.date() in recent_set or today_utc(e.time) in recent_set]
    recent_ids = {e.id for e in recent}
    open_items = []
    for i, event in enumerate(events):
        if event.kind not in ("todo", "blocker") or event.id in recent_ids:
            continue
        if _is_open(event, events[i + 1:]):
            open_items.append(event)  # a later event that names its id resolves it
    return recent, open_items


def open_todos(mem: Memory, now: datetime | None = None) -> list:
    """Todos and blockers of the last `loader.todo_days` days that no later event refers to."""
    from memstrata.memory_layers.models import now_utc

    cfg = mem.settings.loader
    recent, open_items = _recent_events(mem, now or now_utc(), cfg.journal_days, cfg.todo_days)
    return [*open_items, *(e for e in recent if e.kind in ("todo", "blocker") and _is_open(e, recent))]


def _is_open(event, events) -> bool:
    later = [e for e in events if e.time >= event.time and e.id != event.id]
    return not any(event.id in e.text or event.id in " ".join(e.tags) for e in later)


def _event_block(event, now: datetime, memo: TokenMemo, source: str) -> Block:
    header = item_header(event.id, f"event/{event.kind}", event.time, 1.0, now)
    body = normalise_block(event.text) or normalise_block(event.kind)
    return Block("topk", event.id, "event", header + body, memo(header) + memo(body), source,
                 event.time.timestamp())


def _item_block(item, when, now: datetime, memo: TokenMemo, tier: str, source: str,
                body: str | None = None, body_tokens: int | None = None, verdict: str = "") -> Block:
    header = item_header(item.id, item.type, when, item.confidence, now, verdict)
    if body is None:
        body = item_body(item)
        body_tokens = memo(body)
    return Block(tier, item.id, item.type, header + body, memo(header) + int(body_tokens or 0), source)


def _catalog_need(rows, taken: set[str], heading: int, cap: int) -> int:
    """Tokens the catalog would use, counted only up to `cap` (the rows are parsed lazily)."""
    need = 0
    for row in rows:
        if need >= cap:
            break
        if row.id not in taken:
            need += row.line_tokens + (0 if need else heading)
    return min(need, cap)


def _hit_block(mem: Memory, hit, now: datetime, memo: TokenMemo,
               known_path: str | None = None) -> Block | None:
    """Render a hit as its *whole* item or event (the index may hold only a chunk)."""
    if getattr(hit, "type", None) == "event":
        event = _find_event(mem, hit)
        return _event_block(event, now, memo, "retrieved") if event else None
    from memstrata.memory_layers.store import MemoryStore

    path = known_path or getattr(hit, "path", None)
    path = Path(path) if path else None
    loaded = None
    for scope, paths in (("project", mem.project), ("global", mem.home)):
        if paths is None:
            continue
        store = (mem.project_store if scope == "project" else mem.global_store) or MemoryStore(
            paths, scope)
        try:
            if path is not None and paths.root in path.parents:
                loaded = store.load_file(path)
            elif path is None:
                loaded = store.find(hit.id)  # slow path: callers without a path
        except Exception:  # noqa: BLE001 - a vanished or broken file is simply not shown
            loaded = None
        if loaded is not None:
            break
    if loaded is None or loaded.item.id != hit.id or loaded.item.status != "active":
        return None
    item = loaded.item
    verdict = item.criterion.verdict if item.criterion else ""
    return _item_block(item, item.updated, now, memo, "topk", "retrieved", verdict=verdict)


def _find_event(mem: Memory, hit):
    if mem.journal is None:
        return None
    candidates = []
    hit_path = getattr(hit, "path", None)
    if hit_path and Path(str(hit_path)).is_file():
        candidates.append(Path(str(hit_path)))
    when = getattr(hit, "time", None)
    if isinstance(when, datetime):
        candidates.append(mem.journal.day_file(today_utc(when)))
    for path in candidates:
        for event in mem.journal.read_file(path).events:
            if event.id == hit.id:
                return event
    return None


# ---- assembly ------------------------------------------------------------------------------
class _Budgeter:
    def __init__(self, memo: TokenMemo):
        self.memo = memo
        self.chosen: dict[str, list[Block]] = {t: [] for t in TIERS}
        self.ids: set[str] = set()
        self.dropped: list[Dropped] = []

    def section_cost(self, tier: str) -> int:
        return 0 if self.chosen[tier] else self.memo(SECTION_TITLES[tier])

    def offer(self, block: Block, room: int) -> int:
        """Take the block if it (plus its section heading) fits in `room`; return tokens used."""
        if block.id and block.id in self.ids:
            return 0
        cost = block.tokens + self.section_cost(block.tier)
        if cost > room:
            if block.id:
                self.dropped.append(Dropped(block.id, block.tier, f"needs {block.tokens} tokens, "
                                                                  f"{max(room, 0)} left in tier"))
            return 0
        self.chosen[block.tier].append(block)
        if block.id:
            self.ids.add(block.id)
        return cost


def assemble_context(mem: Memory, *, query: str | None = None, budget: int | None = None,
                     tiers: Sequence[str] = TIERS, recent: bool = True,
                     exclude_ids: Iterable[str] = (), retrieval: str = "hybrid",
                     k: int | None = None, hits: list | None = None, sync: bool = True,
                     now: datetime | None = None) -> ContextResult:
    """Assemble the session context within `budget` tokens (default: settings.loader.budget).

    `hits` supplies retrieval results directly (otherwise the index is searched for `query`);
    `exclude_ids` are never shown again (what the session already received).
    """
    from memstrata.memory_layers.models import now_utc

    cfg = mem.settings.loader
    budget = cfg.budget if budget is None else int(budget)
    tiers = tuple(t for t in TIERS if t in set(tiers))
    now = now or now_utc()
    memo = _memo(mem)
    encoding = mem.settings.tokens.encoding
    reports = {t: TierReport(t) for t in tiers}
    result = ContextResult("", 0, budget, encoding, reports, [], query=query)
    if budget <= 0 or not tiers:
        return result
    excluded = set(exclude_ids)
    bud = _Budgeter(memo)
    bud.ids |= excluded

    resident_items, catalog_rows, catalog_total, problems, views = cached_view(mem, memo)
    result.notes.extend(f"unreadable memory file skipped: {p}" for p in problems[:20])

    # candidate blocks ------------------------------------------------------------------
    resident: list[Block] = []
    if "resident" in tiers:
        chosen = [i for i in resident_items if i.status == "active"]
        chosen.sort(key=lambda i: (0 if i.id == "project" else 3 if i.id == "profile"
                                   else _RESIDENT_ORDER.get(i.type, 4), -i.importance, -i.updated_ts))
        resident = [_item_block(i, i.updated_at, now, memo, "resident", "resident", i.body,
                                i.body_tokens, i.verdict) for i in chosen]
    recent_blocks: list[Block] = []
    hit_blocks: list[Block] = []
    searched = False
    if "topk" in tiers:
        if recent:
            events, open_items = _recent_events(mem, now, cfg.journal_days, cfg.todo_days)
            recent_blocks = [_event_block(e, now, memo, "journal") for e in reversed(events)]
            recent_blocks += [_event_block(e, now, memo, "todo") for e in reversed(open_items)]
        if hits is None and query and query.strip() and retrieval != "none":
            if not sync and not index_is_warm(mem):
                # the lexical index is missing: answer from the catalog titles we already hold
                hits = catalog_hits(views, query, k or cfg.candidates)
                result.notes.append(
                    "retrieval degraded: the lexical index is cold; answered from catalog "
                    f"titles ({len(hits)} match(es)) and the journal")
                result.index_cold = True
            else:
                warnings: list[str] = []
                try:
                    if retrieval == "bm25" and not sync:
                        hits = lexical_hits(mem, query, k or cfg.candidates, views)
                    else:
                        searched = True  # the full pipeline reinforces what it recalls
                        hits = search_hits(mem, query, k=k or cfg.candidates, mode=retrieval,
                                           sync=sync, warnings=warnings, now=now,
                                           record_access=False)
                except Exception as exc:  # noqa: BLE001 - context without recall beats none
                    hits = catalog_hits(views, query, k or cfg.candidates)
                    result.notes.append(
                        f"retrieval degraded: {type(exc).__name__}: {exc}; answered from "
                        f"catalog titles ({len(hits)} match(es)) and the journal")
                    result.index_cold = not sync
                result.notes.extend(f"retrieval: {w}" for w in warnings)
        # where each hit's file is now, per our own cache (the index may hold older paths)
        item_ids = {h.id for h in hits or [] if getattr(h, "type", None) != "event"}
        known: dict[str, str] = {}
        for view in views:
            known.update(view.paths_for(item_ids - set(known)))
        seen_hits: set[str] = set()
        for hit in hits or []:
            if hit.id in seen_hits or hit.id in excluded:
                continue
            seen_hits.add(hit.id)
            block = _hit_block(mem, hit, now, memo, known.get(hit.id))
            if block is not None:
                hit_blocks.append(block)
    longest = max([i.tilde for i in resident_items] +
                  [longest_tilde_fence(b.text) for b in recent_blocks + hit_blocks] + [0])
    fence_open, fence_close = fence_for(longest)
    overhead = memo(PREFACE) + memo(fence_open) + memo(fence_close)
    result.overhead = overhead
    avail = budget - overhead
    if avail <= 0:
        result.notes.append(f"budget {budget} is below the fixed overhead of {overhead} tokens")
        memo.save()
        return result

    # resident ---------------------------------------------------------------------------
    used = 0
    if "resident" in tiers:
        room = min(cfg.resident_budget, avail)
        reports["resident"].budget = room
        for block in resident:
            used += bud.offer(block, room - used)
        reports["resident"].used = used
    rest = avail - used

    # top-k ------------------------------------------------------------------------------
    topk_used = 0
    if "topk" in tiers:
        reserve = 0
        if "catalog" in tiers:  # a small catalog hands the rest of its share back to top-k
            need_rows, catalog_rows = itertools.tee(catalog_rows)
            reserve = _catalog_need(need_rows, bud.ids, memo(SECTION_TITLES["catalog"]),
                                    int(rest * cfg.catalog_share))
        room = rest - reserve
        reports["topk"].budget = room
        recent_room = int(room * cfg.journal_share) if hit_blocks else room
        for block in recent_blocks:
            topk_used += bud.offer(block, recent_room - topk_used)
        for block in hit_blocks:
            topk_used += bud.offer(block, room - topk_used)
        for block in recent_blocks:  # whatever the hits left over
            if block.id not in bud.ids:
                topk_used += bud.offer(block, room - topk_used)
        reports["topk"].used = topk_used
    rest -= topk_used

    # catalog ----------------------------------------------------------------------------
    if "catalog" in tiers:
        reports["catalog"].budget = rest
        cat_used = 0
        heading = memo(SECTION_TITLES["catalog"])
        for row in catalog_rows:
            room = rest - cat_used
            if room < MIN_CATALOG_LINE_TOKENS:
                break  # nothing more can fit; the rest stays unparsed
            if row.id in bud.ids:
                continue
            cost = row.line_tokens + (0 if bud.chosen["catalog"] else heading)
            if cost > room:
                continue
            bud.chosen["catalog"].append(Block("catalog", row.id, row.type, row.line,
                                               row.line_tokens, "catalog"))
            bud.ids.add(row.id)
            cat_used += cost
        # catalog lines neither listed nor shown whole elsewhere
        skipped = max(0, catalog_total - len(bud.ids - excluded))
        reports["catalog"].used = cat_used
        reports["catalog"].dropped = skipped
        if skipped:
            result.notes.append(f"catalog: {skipped} lines left out for budget (lowest priority first)")
        rest -= cat_used
    if "topk" in tiers and rest > 0:  # whatever the catalog did not use (its lines were shown)
        for block in [*hit_blocks, *recent_blocks]:
            if block.id not in bud.ids:
                extra = bud.offer(block, rest)
                rest -= extra
                reports["topk"].used += extra

    _finish(result, bud, memo, fence_open, fence_close, budget)
    if searched:
        record_shown(mem, [b.id for b in bud.chosen["topk"] if b.source == "retrieved" and b.id],
                      now)
    result.cache_warm = not memo.encoder_loaded
    memo.save()
    return result


def _render(bud: _Budgeter, fence_open: str, fence_close: str) -> tuple[str, int]:
    memo = bud.memo
    parts: list[str] = []
    total = 0
    for tier in TIERS:
        blocks = bud.chosen[tier]
        if not blocks:
            continue
        if tier == "topk":
            recent = sorted((b for b in blocks if b.source != "retrieved"), key=lambda b: b.order)
            blocks = [*recent, *(b for b in blocks if b.source == "retrieved")]
        parts.append(SECTION_TITLES[tier])
        total += memo(SECTION_TITLES[tier])
        for block in blocks:
            parts.append(block.text)
            total += block.tokens
    if not parts:
        return "", 0
    text = PREFACE + fence_open + "".join(parts) + fence_close
    return text, total + memo(PREFACE) + memo(fence_open) + memo(fence_close)


def _finish(result: ContextResult, bud: _Budgeter, memo: TokenMemo, fence_open: str,
            fence_close: str, budget: int) -> None:
    text, total = _render(bud, fence_open, fence_close)
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
            text, total = _render(bud, fence_open, fence_close)
            exact = memo.exact(text) if text else 0
        if text and exact != total:
            result.notes.append(f"token sum {total} differed from exact count {exact}")
        total = exact if text else 0
    result.text = text
    result.tokens = total
    result.ids = [b.id for tier in TIERS for b in bud.chosen[tier] if b.id]
    result.full_ids = [b.id for tier in ("resident", "topk") for b in bud.chosen[tier] if b.id]
    seen: set[tuple[str, str]] = set()
    result.dropped = []
    for d in bud.dropped:
        if d.id in bud.ids and d.reason != "trimmed after exact count" or (d.id, d.tier) in seen:
            continue
        seen.add((d.id, d.tier))
        result.dropped.append(d)
    for tier, report in result.tiers.items():
        report.items = [b.id for b in bud.chosen[tier] if b.id]
        if tier != "catalog":
            report.dropped = sum(1 for d in result.dropped if d.tier == tier)
