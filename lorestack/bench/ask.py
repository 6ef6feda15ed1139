"""Asking one question in one mode of `bench retrieval`: its ranking, its context at each
budget, and what evidence each held (see bench/retrieval.py for the modes)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timezone

from lorestack.bench.dataset import BenchQuestion, IngestedStore
from lorestack.bench.reference import REFERENCE_MODES, ReferenceIndex
from lorestack.core.errors import LorestackError

KS = (1, 5, 10)


@dataclass
class QuestionOutcome:
    """One question in one mode: what was found where, and how long it took."""

    question_id: str
    mode: str
    category: str
    ranked: list[str]
    found_at: dict[str, int | None]
    in_context: dict[str, bool]
    context_tokens: int
    search_ms: float
    context_ms: float
    floor_in: dict[str, bool] | None = None  # default mode: evidence in the plain packing
    answer_in: bool | None = None  # the answer string is in the context (None: no text answer)
    budget: int = 0



def normalise_ws(text: str) -> str:
    return " ".join(text.split())



# ---- contexts ------------------------------------------------------------------------------
def build_context(store: IngestedStore, query: str, budget: int, now, hits: list,
                  full: bool, more_hits=None):
    """The loader renders every mode's context, so block formats and token counts are equal.

    `full` is the default pipeline (resident + catalog + journal + hits); otherwise only the
    top-k tier: the given hits packed whole, in rank order, until the budget is used.
    """
    from lorestack.retrieval.loader import assemble_context

    if full:
        return assemble_context(store.mem, query=query, budget=budget, now=now, hits=hits,
                                sync=False, more_hits=more_hits)
    return assemble_context(store.mem, query=query, budget=budget, now=now, hits=hits,
                            tiers=("topk",), recent=False, sync=False, expand=False,
                            more_hits=more_hits)


def recency_hits(store: IngestedStore, now, budget: int) -> list:
    """The newest events before `now`, as hits (enough of them to overflow the budget)."""
    from lorestack.retrieval.hits import LightHit

    limit = budget // 10 + 10  # no event renders in fewer than ~10 tokens with its header
    hits = []
    for when, eid in reversed(store.timeline):
        if when > now:
            continue
        day = store.mem.journal.day_file(when.astimezone(timezone.utc).date())
        hits.append(LightHit(eid, "event", str(day), when))
        if len(hits) >= limit:
            break
    return hits


# ---- one question in one mode -----------------------------------------------------------------
def reference_hits(store: IngestedStore, ref: ReferenceIndex, mode: str, query: str, now,
                   k: int) -> list:
    """A reference ranking (bench/reference.py) of the events said before `now`, as hits."""
    import numpy as np

    from lorestack.retrieval.hits import LightHit

    when = store.when
    allowed = np.array([when[i] <= now for i in ref.ids], dtype=bool)
    vec = store.index._embed_query(query) if mode != "plain-bm25" else None
    out = []
    for eid in ref.rank(mode, query, vec, allowed, k):
        day = store.mem.journal.day_file(when[eid].astimezone(timezone.utc).date())
        out.append(LightHit(eid, "event", str(day), when[eid]))
    return out


def hook_context(mem, query: str, budget: int, now, *, record: bool = False):
    """The context the prompt hook gives for `query` (lorestack/app/hooks.py,
    `prompt_context`): the top-k tier alone, no journal, `hooks.prompt_k` hits in
    `hooks.prompt_retrieval` mode, searched by the loader itself, with `budget` in place of
    `loader.prompt_budget`. A test holds the two to the same text."""
    from lorestack.retrieval.loader import assemble_context

    hooks = mem.settings.hooks
    return assemble_context(mem, query=query, budget=budget, tiers=("topk",), recent=False,
                            retrieval=hooks.prompt_retrieval, k=hooks.prompt_k, sync=False,
                            now=now, record=record)


def hook_floor(mem, query: str, budget: int, now):
    """Plain packing of the hook's own ranking: the same search as `hook_context` (its k,
    its mode, grown the same way while room is left), whole hits in rank order, no excerpts. The shipped loader is held to at least this (loader against
    loader: the ranking is the same, only what the loader adds around it differs)."""
    from lorestack.retrieval.loader import assemble_context

    hooks = mem.settings.hooks
    return assemble_context(mem, query=query, budget=budget, tiers=("topk",), recent=False,
                            retrieval=hooks.prompt_retrieval, k=hooks.prompt_k, sync=False,
                            now=now, record=False, expand=False)


def _ranking(store: IngestedStore, q: BenchQuestion, mode: str, k: int,
             ref: ReferenceIndex | None, budget: int):
    """(hits, more_hits) of a mode: its ranking of `k` and how to draw more of it."""
    now = q.time
    if mode == "recency":
        return recency_hits(store, now, budget), None
    if mode in REFERENCE_MODES:
        if ref is None:
            raise LorestackError(f"mode {mode} needs the reference index of the line")

        def more_ref(n: int) -> list:
            return reference_hits(store, ref, mode, q.question, now, n)
        return more_ref(k), more_ref
    search = "default" if mode == "wide" else mode

    def more(n: int) -> list:
        return store.index.search(q.question, k=n, mode=search, now=now, sync=False,
                                  record_access=False)
    return more(k), more


def ask(store: IngestedStore, q: BenchQuestion, mode: str, budgets: list[int],
        ref: ReferenceIndex | None = None) -> list[QuestionOutcome]:
    """One question in one mode, one outcome per budget (the ranking is searched once).

    `default` is the prompt hook's own path (`hook_context`); `wide` is the former research
    path: `candidates_for(budget)` hits and the whole session context (resident, catalog,
    journal). Every other mode packs its ranking whole, in rank order (`build_context`)."""
    from lorestack.retrieval.loader import candidates_for

    now = q.time
    pack_k = max(max(KS), *(candidates_for(store.mem, b) for b in budgets))
    started = time.perf_counter()
    if mode == "default":  # the ranking the hook's search sees, for recall@k
        hits = store.index.search(q.question, k=max(KS), mode="default", now=now, sync=False,
                                  record_access=False)
        more = None
    else:
        hits, more = _ranking(store, q, mode, pack_k, ref, max(budgets))
    search_ms = (time.perf_counter() - started) * 1000
    ids = [m for m in dict.fromkeys(store.store_ids.get(h.id) for h in hits) if m is not None]
    ranked = ids[: max(KS)]
    found_at = {e: (ranked.index(e) if e in ranked else None) for e in q.evidence}
    out = []
    full = hits if mode == "wide" else None
    for budget in budgets:
        started = time.perf_counter()
        if mode == "default":
            result = hook_context(store.mem, q.question, budget, now)
        elif mode == "recency":
            result = build_context(store, q.question, budget, now, hits, False)
        else:
            cut = hits[:candidates_for(store.mem, budget)] if mode == "wide" else hits
            result = build_context(store, q.question, budget, now, cut, mode == "wide", more)
        # a context needs its search too, so its time includes it
        context_ms = (time.perf_counter() - started) * 1000 + (
            0.0 if mode == "default" else search_ms)
        floor_in = None
        if mode == "default":  # the plain packing of the hook's own ranking
            floor_in = _present(store, q.evidence,
                                hook_floor(store.mem, q.question, budget, now).text)
        elif mode == "wide":  # the plain packing of the ranking into budget − resident
            resident = result.tiers["resident"].used if "resident" in result.tiers else 0
            if full is None:
                full = store.index.search(q.question, k=pack_k, mode="default", now=now,
                                          sync=False, record_access=False)
            packed = build_context(store, q.question, budget - resident, now,
                                   full[:candidates_for(store.mem, budget)], False)
            floor_in = _present(store, q.evidence, packed.text)
        out.append(QuestionOutcome(q.id, mode, q.category, ranked, found_at,
                                   _present(store, q.evidence, result.text), result.tokens,
                                   search_ms, context_ms, floor_in,
                                   answer_present(q.answer, result.text), budget))
    return out


def answer_present(answer, context: str) -> bool | None:
    """Whether a text (or number) answer appears in the context as whole words, case and
    spacing ignored ("43" is not found in "latency=2431ms")."""
    if isinstance(answer, bool) or not isinstance(answer, (str, int, float)):
        return None
    import re

    wanted = normalise_ws(str(answer)).lower()
    if not wanted:
        return False
    pattern = r"(?<!\w)" + re.escape(wanted) + r"(?!\w)"
    return re.search(pattern, normalise_ws(context).lower()) is not None


def _present(store: IngestedStore, evidence: list[str], context: str) -> dict[str, bool]:
    flat = normalise_ws(context)
    return {e: normalise_ws(store.texts[e]) in flat for e in evidence}
