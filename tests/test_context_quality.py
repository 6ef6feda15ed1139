"""Context quality gate on the shipped small sets (coding and chat style), real index and model.

1. The loader never loses what the retriever found: at every budget, the default context holds
   every evidence event that packing the hook's own ranking whole, in rank order, holds
   (bench/ask.py `hook_floor`: the same search, no neighbour turns, no excerpts).
2. The default (the prompt hook's context) never loses to its own parts: at 300, 1000 and
   2000 tokens its context holds all the evidence of as many questions as bm25's or plain
   rrf's ranking packed by the same loader, overall and per category within two questions
   (the same rule is reported on locomo-dev in docs/recall.md).
3. Rendering stays cheap: mean overhead per shown item (tokens beyond the item's own text).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lorestack.bench.dataset import read_dataset
from lorestack.bench.retrieval import bench_line

from .conftest import model_dir

pytestmark = pytest.mark.slow  # builds indexes / runs servers: minutes under load

DATA = Path(__file__).parent / "data"
SETS = {"code": DATA / "bench_small.jsonl", "chat": DATA / "bench_small_chat.jsonl"}
BUDGETS = (300, 1000, 2000)
MODES = ("default", "bm25", "rrf")


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """{(style, budget, mode): [QuestionOutcome]} — each line ingested once for all budgets,
    through the bench's own path (`default` = the prompt hook's context)."""
    home = tmp_path_factory.mktemp("quality-home")
    out: dict = {}
    with pytest.MonkeyPatch.context() as mp:
        for var in list(os.environ):
            if var.startswith("LORESTACK_"):
                mp.delenv(var, raising=False)
        mp.setenv("HOME", str(home))
        mp.setenv("LORESTACK_HOME", str(home / ".lorestack"))
        mp.setenv("LORESTACK_EMBEDDING__MODEL_DIR", str(model_dir()))
        mp.setenv("ANONYMIZED_TELEMETRY", "False")
        for style, path in SETS.items():
            for line in read_dataset(path):
                result = bench_line(line, list(BUDGETS), list(MODES))
                for o in result.outcomes:
                    out.setdefault((style, o.budget, o.mode), []).append(o)
    return out


def _context_all(results) -> int:
    return sum(all(o.in_context.values()) for o in results)


@pytest.mark.parametrize("style", sorted(SETS))
@pytest.mark.parametrize("budget", BUDGETS)
def test_the_loader_never_loses_what_the_retriever_found(outcomes, style, budget):
    """Loader against loader: the default context holds every evidence event that packing the
    same ranking (the hook's own search) whole, in rank order, into the budget holds."""
    results = outcomes[(style, budget, "default")]
    assert results
    lost = [
        (o.question_id, e)
        for o in results
        for e, packed in o.floor_in.items()
        if packed and not o.in_context[e]
    ]
    assert not lost, lost
    assert all(o.context_tokens <= budget for o in results)


@pytest.mark.parametrize("style", sorted(SETS))
@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("mode", ("bm25", "rrf"))
def test_the_default_never_loses_to_its_own_parts(outcomes, style, budget, mode):
    """Ranking against ranking, each packed by the same loader: the default holds all the
    evidence of at least as many questions as bm25 alone and as plain rrf, overall and in
    each category within two questions."""
    default = outcomes[(style, budget, "default")]
    other = outcomes[(style, budget, mode)]
    assert _context_all(default) >= _context_all(other), (mode, _context_all(other))
    for category in {o.category for o in default}:
        mine = _context_all([o for o in default if o.category == category])
        theirs = _context_all([o for o in other if o.category == category])
        assert mine >= theirs - 2, (category, mode, theirs, mine)


def test_grouped_rendering_costs_few_tokens_per_item(mem):
    """Events of one session under one heading, one line each: ≤ 6 tokens beyond the text."""
    from datetime import datetime, timedelta, timezone

    from lorestack.memory_layers.models import JournalEvent
    from lorestack.retrieval.loader import assemble_context
    from lorestack.retrieval.tokens import TokenCounter

    now = datetime(2024, 5, 20, 18, 0, tzinfo=timezone.utc)
    texts = [
        f"Ana: the import job for shard {n} finished after the index rebuild" for n in range(30)
    ]
    events = [
        JournalEvent(text=t, time=now - timedelta(hours=2, minutes=n), session="s1",
                     kind="decision")  # notable: a busy day of notes is summarised
        for n, t in enumerate(texts)
    ]
    mem.journal.append_many(events)
    result = assemble_context(mem, budget=4000, tiers=("topk",), now=now)
    count = TokenCounter(mem.settings.tokens.encoding)
    shown = [e for e in events if e.id in result.full_ids]
    assert len(shown) == 30
    overhead = (result.tokens - sum(count(e.text) for e in shown)) / len(shown)
    assert overhead <= 6, overhead


def test_one_recall_mode_vocabulary():
    from lorestack.core.errors import LorestackError
    from lorestack.retrieval.modes import RecallMode, parse_mode

    assert parse_mode("hybrid") is parse_mode("default") is RecallMode.DEFAULT
    assert parse_mode("rrf") is RecallMode.RRF
    assert parse_mode("none", allow_none=True) is RecallMode.NONE
    with pytest.raises(LorestackError, match="not a search mode"):
        parse_mode("none")
    with pytest.raises(LorestackError, match="unknown recall mode 'fast'"):
        parse_mode("fast")


def test_hits_wrap_the_indexed_document(mem):
    from lorestack.memory_layers.operations import remember
    from lorestack.retrieval.hits import ScoredDoc
    from lorestack.retrieval.index import search

    item = remember(mem, "The export worker retries ERR_POOL_TIMEOUT twice", "fact").item
    hits = search(mem, "ERR_POOL_TIMEOUT", k=3, mode="bm25")
    assert isinstance(hits[0], ScoredDoc) and hits[0].doc.id == item.id == hits[0].id
    assert hits[0].as_dict()["title"] == hits[0].doc.title


def test_short_ids_are_accepted_by_show_and_forget(mem):
    from lorestack.memory_layers.listing import show
    from lorestack.memory_layers.operations import forget, log_event, remember
    from lorestack.retrieval.render_context import short_id

    item = remember(mem, "Staging runs on the small cluster", "fact").item
    event = log_event(mem, "Dana: moved staging to the small cluster", "note")
    assert show(mem, short_id(event.id)).id == event.id
    assert show(mem, short_id(item.id)).item.id == item.id
    forget(mem, short_id(item.id), "test")
    assert show(mem, item.id).item.status == "archived"


def test_import_chat_export_and_jsonl_once_each(mem, tmp_path):
    import json

    from lorestack.consolidation.bulk_import import import_files

    chat = tmp_path / "chat.json"
    chat.write_text(
        json.dumps(
            [
                {
                    "conversation": {
                        "speaker_a": "Ana",
                        "speaker_b": "Bo",
                        "session_1_date_time": "1:56 pm on 8 May, 2023",
                        "session_1": [
                            {
                                "speaker": "Ana",
                                "dia_id": "D1:1",
                                "text": "Last Saturday I ran a 10k.",
                            },
                            {"speaker": "Bo", "dia_id": "D1:2", "text": "Nice! How did it go?"},
                        ],
                    }
                }
            ]
        )
    )
    events = tmp_path / "events.jsonl"
    events.write_text(
        json.dumps({"time": "2023-05-09T10:00:00", "text": "note one"})
        + "\n"
        + json.dumps({"time": "2023-05-09T11:00:00", "text": "pref", "type": "preference"})
        + "\n"
    )
    first = import_files(mem, [chat, events], index=False)
    assert (first.events, first.items, first.files) == (3, 1, 2)
    again = import_files(mem, [chat, events], index=False)
    assert (again.events, again.items, again.skipped) == (0, 0, 4)
    stored = {e.id: e for e in mem.journal.read_all().events}
    assert stored["D1:1"].text == "Ana: Last Saturday I ran a 10k."
    assert stored["D1:1"].session == "session_1" and stored["D1:1"].speaker == "Ana"
    assert stored["D1:1"].time.isoformat().startswith("2023-05-08T13:56")
