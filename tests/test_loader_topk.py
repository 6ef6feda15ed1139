"""The loader's top-k tier: the retriever's whole candidates come first (never fewer than packing
the ranking into budget − resident would hold), the catalog takes what is left, and the loader
searches (and reinforces) at the caller's time."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from lorestack.memory_layers.operations import log_event, remember
from lorestack.retrieval.hits import LightHit
from lorestack.retrieval.loader import assemble_context
from lorestack.retrieval.usage import UsageStore

NOW = datetime(2024, 6, 3, 9, 0, tzinfo=timezone.utc)


def _events(mem, n):
    out = []
    for i in range(n):
        when = NOW - timedelta(days=10, minutes=i)
        event = log_event(mem, f"Profiled the export worker, batch {i}: p95 stayed under "
                               f"{100 + i} ms with the new pool size.", "progress", time=when)
        out.append(LightHit(event.id, "event", None, when))
    return out


def test_hits_come_first_and_use_the_room_resident_leaves(mem):
    remember(mem, "The export worker runs on the batch queue", "fact")
    hits = _events(mem, 60)  # far more than the budget holds
    budget = 1200
    result = assemble_context(mem, query="export worker", budget=budget, hits=hits,
                              retrieval="none", recent=False, now=NOW)
    assert result.tokens <= budget
    shown = [h.id for h in hits if h.id in result.ids]
    first_gap = next(i for i, h in enumerate(hits) if h.id not in result.ids)
    assert first_gap >= len(shown) - 2  # rank order; later ones only where a shorter one fit
    assert budget - result.tokens < 30  # every event line here costs more than 30 tokens
    packed = assemble_context(mem, query="export worker", budget=budget - result.tiers["resident"].used,
                              hits=hits, tiers=("topk",), recent=False, expand=False, now=NOW)
    assert set(packed.ids) <= set(result.ids)


def test_without_a_query_the_catalog_gets_the_room(mem):
    for n in range(40):
        remember(mem, f"The reporting service exports CSV batch {n} nightly to S3", "fact")
    result = assemble_context(mem, budget=1200, retrieval="none", recent=False, now=NOW)
    assert result.tokens <= 1200
    assert result.tiers["catalog"].used > 1200 - result.overhead - 60


def test_loader_search_runs_at_the_callers_time_and_reinforces_only_what_it_shows(mem):
    fact = remember(mem, "The export worker retries ERR_POOL_TIMEOUT twice", "fact").item
    others = [remember(mem, f"The export worker note {n} about the billing dashboard colours",
                       "fact").item.id for n in range(8)]
    asked = datetime(2030, 1, 2, 3, 4, tzinfo=timezone.utc)  # not the wall clock
    result = assemble_context(mem, query="ERR_POOL_TIMEOUT export worker", budget=120,
                              retrieval="hybrid", recent=False, tiers=("topk",), now=asked)
    assert fact.id in result.ids
    assert set(others) - set(result.ids)  # some candidates did not fit
    store = UsageStore(mem.primary.index_dir / "usage.sqlite")
    try:
        usage = store.get([fact.id, *others])
    finally:
        store.close()
    assert usage[fact.id] == (1, asked)
    assert set(usage) == set(result.ids)  # candidates that were not shown are not reinforced
