"""A process without the service parses a hit's journal day only as far as its event.

The cold prompt's BM25 answer parsed every hit's day file whole: at 100k events a day holds
~180 entries for the one shown, ~0.3 s of a 1.2 s whole process under load (py-spy, twentieth
session). The answer is the same text as with each day parsed whole (the service's parse
cache); only fewer entries are parsed. Real files, real tantivy."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from lorestack.memory_layers import parse_cache
from lorestack.memory_layers.models import JournalEvent
from lorestack.memory_layers.operations import log_event
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.loader import assemble_context

DAY = datetime(2026, 11, 20, 8, 0, tzinfo=timezone.utc)


def _answer(mem) -> str:
    return assemble_context(mem, query="which broker does the invoice worker use?", budget=600,
                            tiers=("topk",), recent=False, retrieval="bm25", k=8, sync=False,
                            search_deeper=False, now=DAY + timedelta(days=2)).text


def test_a_hit_early_in_its_day_is_answered_without_parsing_the_rest(mem, monkeypatch):
    log_event(mem, "The invoice worker now uses the RabbitMQ broker on amqp-3", "decision",
              time=DAY)
    for n in range(40):  # the rest of that day: nothing the prompt asks about
        log_event(mem, f"Routine note {n}: bumped lint rule set {n}", "note",
                  time=DAY + timedelta(minutes=n + 1))
    index = MemoryIndex(mem)
    index.sync()
    index.close()

    parsed: list[str] = []
    real = JournalEvent.model_validate.__func__

    def counting(cls, data, *args, **kwargs):
        parsed.append(data.get("id", ""))
        return real(cls, data, *args, **kwargs)

    monkeypatch.setattr(JournalEvent, "model_validate", classmethod(counting))
    cold = _answer(mem)
    assert "RabbitMQ broker on amqp-3" in cold
    assert len(parsed) < 10  # its entry is the day's first: the 40 after it are not parsed
    parse_cache.enable(True)  # as the service: each day parsed whole (and kept)
    try:
        assert _answer(mem) == cold
    finally:
        parse_cache.enable(False)
