"""The loader's top-k tier: it packs from the retriever's whole candidate list, takes back what
a small catalog does not need, and searches (and reinforces) at the caller's time."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from memstrata.memory_layers.operations import log_event, remember
from memstrata.retrieval.loader import assemble_context
from memstrata.retrieval.usage import UsageStore

NOW = datetime(2024, 6, 3, 9, 0, tzinfo=timezone.utc)


def _events(mem, n):
    out = []
    for i in range(n):
        when = NOW - timedelta(days=10, minutes=i)
        event = log_event(mem, f"Profiled the export worker, batch {i}: p95 stayed under "
                               f"{100 + i} ms with the new pool size.", "progress", time=when)
        out.append(SimpleNamespace(id=event.id, type="event", path=None, time=when,
                                   scope="project"))
    return out


def test_unused_catalog_reserve_flows_to_top_k(mem):
    remember(mem, "The export worker runs on the batch queue", "fact")
    hits = _events(mem, 60)  # far more than the budget holds
    budget = 1200
    result = assemble_context(mem, query="export worker", budget=budget, hits=hits,
                              retrieval="none", recent=False, now=NOW)
    assert result.tokens <= budget
    assert "## Catalog" in result.text and "export-worker-runs" in result.text
    share = mem.settings.loader.catalog_share
    rest = budget - result.overhead - result.tiers["resident"].used
    # top-k got more than its old fixed share, and only scraps are left unused
    assert result.tiers["topk"].used > int(rest * (1 - share))
    assert budget - result.tokens < 40  # every event block here costs more than 40 tokens
    shown = [h.id for h in hits if h.id in result.ids]
    assert shown == [h.id for h in hits][:len(shown)]  # rank order, no gaps


def test_a_large_catalog_keeps_its_share(mem):
    for n in range(40):
        remember(mem, f"The reporting service exports CSV batch {n} nightly to S3", "fact")
    hits = _events(mem, 60)
    result = assemble_context(mem, query="export worker", budget=1200, hits=hits,
                              retrieval="none", recent=False, now=NOW)
    assert result.tokens <= 1200
    rest = 1200 - result.overhead - result.tiers["resident"].used
    assert result.tiers["catalog"].used >= int(rest * mem.settings.loader.catalog_share) - 40


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
