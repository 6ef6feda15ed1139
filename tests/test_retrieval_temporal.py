"""Date-aware recall: parsing the day a question names, and the date retriever on real files
(journal day files, real tantivy for "the day after X", the full default pipeline)."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from lorestack.memory_layers.operations import log_event
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.lexical import Filters
from lorestack.retrieval.temporal import DateRetriever, parse_date_query

ASKED = datetime(2024, 3, 4, 9, 0, tzinfo=timezone.utc)  # a Monday


def _at(day: int, hour: int) -> datetime:
    return datetime(2024, 2, day, hour, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("query,days", [
    ("What did we ship on Friday, February 23?", [date(2024, 2, 23)]),
    ("what happened on Feb 23", [date(2024, 2, 23)]),
    ("notes from 23rd of February", [date(2024, 2, 23)]),
    ("anything on 2024-02-23?", [date(2024, 2, 23)]),
    ("what did we do yesterday", [date(2024, 3, 3)]),
    ("what broke last Friday?", [date(2024, 3, 1)]),
    ("what did we do on Friday?", [date(2024, 3, 1)]),
    ("what did we do 3 days ago", [date(2024, 3, 1)]),
    # no year: the most recent such day before the question, never a future one
    ("what happened on December 24", [date(2023, 12, 24)]),
])
def test_absolute_and_relative_days_are_read_relative_to_the_question_time(query, days):
    parsed = parse_date_query(query, ASKED)
    assert parsed is not None and parsed.days == days


def test_queries_without_a_day_name_none_even_with_numbers_and_versions():
    for query in ("What went into v1.7.0?", "Why do we retry E-AUTH-2231 three times?",
                  "which port does the gateway use, 8080?", "may we drop the cache?",
                  "what is our policy on Friday deploys?"):
        assert parse_date_query(query, ASKED) is None, query
    parsed = parse_date_query("What did we do the day after gateway went down?", ASKED)
    assert parsed.days == [] and parsed.offset == 1 and parsed.anchor_text == "gateway went down"


@pytest.fixture
def history(mem):
    ids = {
        "outage": log_event(mem, "Outage: gateway was down for 40 minutes; the TLS certificate "
                                 "expired.", "blocker", time=_at(20, 10)).id,
        "same_day": log_event(mem, "Reviewed the billing dashboard copy.", "progress",
                              time=_at(20, 15)).id,
        "fixup": log_event(mem, "Added an expiry alert for every certificate under "
                                "monitoring/alerts/gateway.yaml.", "progress", time=_at(21, 11)).id,
        "postmortem": log_event(mem, "Wrote the postmortem for the gateway incident.", "progress",
                                time=_at(21, 14)).id,
        "ship": log_event(mem, "Tagged v1.4.0 and deployed it: CSV export and webhook retries.",
                          "progress", time=_at(23, 16)).id,
        "ship_noise": log_event(mem, "Renamed a helper in the export module.", "progress",
                                time=_at(23, 9)).id,
        "later": log_event(mem, "Tagged v1.5.0 and deployed it: SSO login.", "progress",
                           time=_at(27, 16)).id,
    }
    index = MemoryIndex(mem)
    index.sync()
    yield mem, index, ids
    index.close()


def test_date_retriever_returns_the_named_days_events_best_overlap_first(history):
    mem, index, ids = history
    retriever = DateRetriever(mem.journal, index.lexical, ASKED, index.catalog.get_docs)
    got = [i for i, _ in retriever.retrieve("What did we ship on Friday, February 23?", 10)]
    assert set(got) == {ids["ship"], ids["ship_noise"]}
    got = [i for i, _ in retriever.retrieve("the CSV export on Feb 23", 10)]
    assert got[0] == ids["ship"]  # shares "csv" and "export"; the other only "export"
    assert retriever.retrieve("What did we ship on Friday, February 23?", 10,
                              Filters(types=["fact"])) == []
    assert retriever.retrieve("What went into v1.4.0?", 10) == []


def test_the_day_after_an_event_is_found_through_bm25_then_the_next_day(history):
    mem, index, ids = history
    retriever = DateRetriever(mem.journal, index.lexical, ASKED, index.catalog.get_docs)
    got = [i for i, _ in retriever.retrieve("What did we do the day after gateway went down?", 10)]
    assert set(got) == {ids["fixup"], ids["postmortem"]}
    before = [i for i, _ in retriever.retrieve("what happened the day before the v1.5.0 "
                                               "release?", 10)]
    assert before == []  # Feb 26 has no events: nothing rather than something unrelated


def test_events_after_the_question_time_are_never_returned(history):
    mem, index, ids = history
    early = datetime(2024, 2, 21, 12, 0, tzinfo=timezone.utc)
    retriever = DateRetriever(mem.journal, index.lexical, early, index.catalog.get_docs)
    got = [i for i, _ in retriever.retrieve("what happened today?", 10)]
    assert got == [ids["fixup"]]  # the postmortem (14:00) is still in the future


def test_default_pipeline_recalls_a_day_that_bm25_and_plain_rrf_cannot(history):
    _mem, index, ids = history
    query = "What did we ship on Friday, February 23?"
    default = [h.id for h in index.search(query, k=3, now=ASKED, record_access=False)]
    assert ids["ship"] in default and ids["ship_noise"] in default
    hybrid = [h.id for h in index.search(query, k=3, mode="rrf", now=ASKED,
                                         record_access=False)]
    assert ids["ship_noise"] not in hybrid
