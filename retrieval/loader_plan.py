"""The loader's second and third steps: *plan* the budget over gathered blocks, then *render*.

Order of claims on the budget (each phase may use what the earlier ones left):

1. resident — identity card, criteria (block, then warn), caveats, profile, up to
   `loader.resident_budget`; what does not fit is reported and stays in the catalog;
2. hits — the retriever's ranking, whole, in rank order, skipping (never stopping at) one
   that does not fit. This phase is exactly "pack the ranking into budget − resident", so the
   context always holds at least what that packing would.
3. the journal (today, last working day, open todos) up to `loader.journal_share` of the rest;
4. *more* of the ranking: while the top-k tier still has room, the retriever is asked for
   further hits (the pool grows in steps up to `loader.max_candidates`), appended after the
   ones already ranked so the packing above is never reordered — before excerpts, so a
   small first k (the prompt hook's) still packs the ranking as plain packing would;
5. for long hits that did not fit whole, in rank order (the first k's, then those drawn in
   step 4), an excerpt around the passage holding the query's rarer words (sized to the
   room left, at most `loader.excerpt_tokens`) — leaving the catalog its share — then
   resident leftovers. (Adjacent turns of the best hits were offered here until the eighth
   session: on locomo-dev they changed no figure and cost 6 ms a context, docs/recall.md §16);
6. the catalog, one line per memory file;
7. whatever is still free goes back to the resident leftovers and the journal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from lorestack.retrieval.loader_blocks import Block
from lorestack.retrieval.loader_excerpt import excerpt_block
from lorestack.retrieval.render_context import PREFACE, SECTION_TITLES, TokenMemo

TIERS: tuple[str, ...] = ("resident", "catalog", "topk")
MIN_CATALOG_LINE_TOKENS = 6  # "- p · fact · 1 tok · t" is more than this
NEAR_DUPLICATE = 0.85  # word-set overlap above which a filler block adds nothing new
MIN_FILL_TOKENS = 12  # below this much room no further hit is worth a search
MIN_EXCERPT_TOKENS = 40  # an excerpt shorter than this says too little to be worth its line

# More = a callable giving the next hits' blocks for `room` tokens (None: nothing more to ask)
More = Callable[[int], "list[Block] | None"]


@dataclass
class Dropped:
    id: str
    tier: str
    reason: str


@dataclass
class Candidates:
    """Everything gathered for one context, before any budget decision."""

    resident: list[Block] = field(default_factory=list)
    hits: list[Block] = field(default_factory=list)
    recent: list[Block] = field(default_factory=list)
    catalog: Iterable = ()
    catalog_total: int = 0


class Budgeter:
    """Chosen blocks per tier; a block's cost includes its section title and group heading
    the first time either is needed."""

    def __init__(self, memo: TokenMemo, excluded: set[str], titles: dict[str, str] | None = None):
        self.memo = memo
        self.titles = titles or SECTION_TITLES
        self.chosen: dict[str, list[Block]] = {t: [] for t in TIERS}
        self.groups: dict[str, set[str]] = {t: set() for t in TIERS}
        self.ids: set[str] = set(excluded)
        self.texts: set[str] = set()
        self.shown_words: list[frozenset[str]] = []
        self.dropped: list[Dropped] = []
        self.used = 0
        self.resident_left = 0  # resident candidates shown nowhere but (maybe) the catalog
        self._count: dict[tuple[str, str], int] = {}  # (tier, group) -> blocks chosen in it
        self._lone: dict[tuple[str, str], list[Block]] = {}  # (tier, day group) -> its lone lines

    def cost(self, block: Block) -> int:
        cost = block.tokens
        if not self.chosen[block.tier]:
            cost += self.memo(self.titles[block.tier])
        if block.head and block.group not in self.groups[block.tier]:
            cost += block.head_tokens
        return cost

    def least_cost(self, block: Block) -> int:
        """What the block would cost now in its cheaper form (an event's other form too)."""
        cost = self.cost(block)
        return cost if block.alt is None else min(cost, self.cost(block.alt))

    def _form(self, block: Block) -> tuple[Block, int, list[Block]]:
        """(the form of an event to take, its cost, lone-form blocks it regroups).

        An event whose day-and-session heading is not shown yet can go under its month's
        heading with its day on the line instead (`- 27 am: …`): cheaper for a lone note, dearer
        once a session shows several turns. Whichever costs less now is taken; when the day's
        heading wins, the turns of that group already shown as lone lines move under it."""
        cost = self.cost(block)
        alt = block.alt
        if alt is None or block.group in self.groups[block.tier]:
            return block, cost, []
        lone = self._lone.get((block.tier, block.group), [])
        saved = sum(b.tokens - b.base.tokens for b in lone if b.base is not None)
        if lone and self._count.get((block.tier, alt.group), 0) == len(lone):
            saved += alt.head_tokens  # the month's heading goes with them
        alt_cost = self.cost(alt)
        # the month's heading is shared by the month's other lone lines: judged without it
        # (else the first lone line of a month would never pay it and none would follow)
        shared = alt.head_tokens if alt.group not in self.groups[block.tier] else 0
        if alt_cost - shared < cost - saved:
            return alt, alt_cost, []
        return block, cost - saved, lone

    def offer(self, block: Block, cap: int) -> bool:
        """Take the block if the total stays within `cap`; False (and why) otherwise."""
        if block.id and block.id in self.ids:
            return False
        block, cost, regroup = self._form(block)
        if self.used + cost > cap:
            if block.id:
                self.dropped.append(
                    Dropped(
                        block.id, block.tier, f"needs {cost} tokens, {max(cap - self.used, 0)} left"
                    )
                )
            return False
        tier, chosen = block.tier, self.chosen[block.tier]
        for lone in regroup:
            assert lone.base is not None
            chosen[chosen.index(lone)] = lone.base
            self._count[(tier, lone.group)] -= 1
            if not self._count[(tier, lone.group)]:
                self.groups[tier].discard(lone.group)
        if regroup:
            del self._lone[(tier, block.group)]
            self._count[(tier, block.group)] = len(regroup)
        chosen.append(block)
        self.groups[tier].add(block.group)
        self._count[(tier, block.group)] = self._count.get((tier, block.group), 0) + 1
        if block.base is not None:
            self._lone.setdefault((tier, block.base.group), []).append(block)
        if block.id:
            self.ids.add(block.id)
        self.texts.add(" ".join(block.raw.split()))
        if block.words:
            self.shown_words.append(block.words)
        self.used += cost
        return True

    def duplicate(self, block: Block, near: bool) -> bool:
        """Same text already shown (exact), or — for filler — nearly the same words."""
        if " ".join(block.raw.split()) in self.texts and block.raw.strip():
            return True
        if near and block.words:
            for words in self.shown_words:
                union = len(block.words | words)
                if union and len(block.words & words) / union >= NEAR_DUPLICATE:
                    return True
        return False


def plan(
    c: Candidates,
    bud: Budgeter,
    avail: int,
    *,
    resident_cap: int,
    journal_share: float,
    catalog_share: float,
    query: str | None,
    expand: bool,
    more: More | None = None,
    excerpt_tokens: int = 0,
) -> tuple[int, list[str]]:
    """Fill `bud` within `avail` tokens; (catalog lines left out, notes)."""
    notes: list[str] = []
    left_out = [b for b in c.resident if not bud.offer(b, min(resident_cap, avail))]
    for block in c.hits:
        if not bud.duplicate(block, near=False):
            bud.offer(block, avail)
    rest = avail - bud.used
    journal_cap = bud.used + (int(rest * journal_share) if c.hits else rest)
    for block in c.recent:
        if not bud.duplicate(block, near=True):
            bud.offer(block, journal_cap)
    need_rows, rows = _tee(c.catalog)
    reserve = _catalog_need(need_rows, bud, int((avail - bud.used) * catalog_share))
    later: list[Block] = []  # grown hits too long to fit whole: excerpts after the first k's
    if more is not None:
        # more of the ranking before excerpts: a small k (the prompt hook's 8) must not let
        # excerpts take the room of hits the ranking put higher
        grown = _grow(more, bud, avail - reserve, later)
        if grown:
            notes.append(f"top-k: {grown} more ranked hit(s) drawn to fill the budget")
    if expand:
        _expand([*c.hits, *later], bud, avail - reserve, query, excerpt_tokens)
    for block in left_out:  # room top-k did not need goes back to the resident tier
        bud.offer(block, avail - reserve)
    bud.resident_left = sum(1 for b in left_out if b.id not in bud.ids)
    if bud.resident_left:
        notes.append(
            f"resident: {bud.resident_left} left out for budget (listed in the catalog "
            f"when room allows): "
            f"{', '.join([b.id or '?' for b in left_out if b.id not in bud.ids][:8])}"
        )
    skipped = _catalog(rows, bud, avail, c.catalog_total)
    for block in [*left_out, *c.recent]:  # whatever is still free
        if not bud.duplicate(block, near=True):
            bud.offer(block, avail)
    return skipped, notes


def _expand(hits: list[Block], bud: Budgeter, cap: int, query: str | None,
            excerpt_tokens: int) -> None:
    """Excerpts of long hits that did not fit whole, in rank order."""
    for block in hits:
        _offer_excerpt(block, bud, cap, query, excerpt_tokens)


def _offer_excerpt(
    block: Block, bud: Budgeter, cap: int, query: str | None, excerpt_tokens: int
) -> bool:
    """The best-matching passage of a hit shown nowhere yet, cut to the room left."""
    if not query or excerpt_tokens <= 0 or (block.id and block.id in bud.ids):
        return False
    room = min(excerpt_tokens, cap - bud.used - bud.cost(block) + block.tokens)
    if room < MIN_EXCERPT_TOKENS or block.tokens <= room:
        return False
    excerpt = excerpt_block(block, query, bud.memo, room)
    return excerpt is not None and bud.offer(excerpt, cap)


def _grow(more: More, bud: Budgeter, cap: int, later: list[Block]) -> int:
    """Ask for further ranked hits while the tier has room; how many were shown."""
    shown = 0
    while cap - bud.used >= MIN_FILL_TOKENS:
        blocks = more(cap - bud.used)
        if blocks is None:
            break
        for block in blocks:
            if bud.duplicate(block, near=False):
                continue
            if bud.used + bud.cost(block) <= cap:  # extra hits that do not fit are not
                shown += bud.offer(block, cap) and block.source == "retrieved"  # "left out"
            elif block.source == "retrieved":
                later.append(block)
    return shown


def _tee(rows: Iterable) -> tuple[Iterator, Iterator]:
    import itertools

    a, b = itertools.tee(iter(rows))
    return a, b


def _catalog_need(rows: Iterator, bud: Budgeter, cap: int) -> int:
    """Tokens the catalog would use, counted only up to `cap` (rows are parsed lazily)."""
    need = 0
    heading = bud.memo(bud.titles["catalog"])
    for row in rows:
        if need >= cap:
            break
        if row.id not in bud.ids:
            need += row.line_tokens + (0 if need else heading)
    return min(need, cap)


def _catalog(rows: Iterator, bud: Budgeter, avail: int, total: int) -> int:
    """Catalog lines by priority until the budget is used; returns how many were left out."""
    for row in rows:
        if avail - bud.used < MIN_CATALOG_LINE_TOKENS:
            break  # nothing more can fit; the rest stays unparsed
        if row.id in bud.ids:
            continue
        bud.offer(Block("catalog", row.id, row.type, row.line, row.line_tokens, "catalog"), avail)
    listed = sum(1 for b in bud.chosen["catalog"])
    whole = sum(1 for t in ("resident", "topk") for b in bud.chosen[t] if b.source != "excerpt")
    return max(0, total - listed - whole)


# ---- render ----------------------------------------------------------------------------------
def render(bud: Budgeter, fence_open: str, fence_close: str,
           preface: str = PREFACE) -> tuple[str, int]:
    """The context text and its token count (the sum of its blocks' counts)."""
    memo = bud.memo
    parts: list[str] = []
    total = 0
    for tier in TIERS:
        if not bud.chosen[tier]:
            continue
        parts.append(bud.titles[tier])
        total += memo(bud.titles[tier])
        for head, blocks in _grouped(bud.chosen[tier]):
            if head:
                parts.append(head)
                total += memo(head)
            for block in blocks:
                parts.append(block.text)
                total += block.tokens
    if not parts:
        return "", 0
    text = preface + fence_open + "".join(parts) + fence_close
    return text, total + memo(preface) + memo(fence_open) + memo(fence_close)


def _grouped(blocks: list[Block]) -> list[tuple[str, list[Block]]]:
    """Blocks under their group headings: groups by their order key, events by time."""
    groups: dict[str, list[Block]] = {}
    for n, block in enumerate(blocks):
        groups.setdefault(block.group or f"\x00{n:06d}", []).append(block)
    ordered = sorted(groups.items(), key=lambda kv: (kv[1][0].group_order, kv[0]))
    out = []
    for _key, members in ordered:
        if members[0].kind == "event":
            members = sorted(members, key=lambda b: (b.order, b.seq))
        out.append((members[0].head, members))
    return out
