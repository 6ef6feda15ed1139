"""The resident service's fast paths give the context the one-shot path gives (issue 23).

In the service (`parse_cache` on) the loader keeps each hit's rendered block by its file's
stat, one token-count table per memory and the catalog's id -> path index; a store's cache
is refreshed by one request at a time. None of it may change what a prompt receives.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest

from lorestack.bench.hooks import build_store
from lorestack.memory_layers import parse_cache
from lorestack.memory_layers.memory import Memory
from lorestack.retrieval import context_cache, loader_blocks
from lorestack.retrieval.loader import assemble_context

from .conftest import model_dir

NOW = datetime.now(timezone.utc)
PROMPTS = ["why does the billing service retry Kafka calls?",
           "fix the flaky search test that talks to Redis 7",
           "what did we decide about uv in gateway?",
           "how do we deploy auth changes?"]


@pytest.fixture
def big(tmp_path):
    from lorestack.retrieval.index import MemoryIndex

    repo = build_store(tmp_path / "store", 240, journal_days=10, events_per_day=12)
    mem = Memory.open(repo, **{"embedding.model_dir": str(model_dir())})
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
    finally:
        index.close()
    yield mem
    parse_cache.enable(False)


def _prompt(mem, text: str):
    """What the prompt hook assembles (`app.hooks.prompt_context`), without recording use."""
    return assemble_context(mem, query=text, budget=mem.settings.loader.prompt_budget,
                            tiers=("topk",), recent=False, k=mem.settings.hooks.prompt_k,
                            sync=False, now=NOW, record=False)


def _same(a, b) -> None:
    assert (a.text, a.full_ids, a.ids, a.tokens) == (b.text, b.full_ids, b.ids, b.tokens)


def test_the_service_path_gives_the_one_shot_context(big):
    parse_cache.enable(False)
    before = [_prompt(big, p) for p in PROMPTS]
    assert all(r.text for r in before)
    # the budget was filled from further down the ranking: the path the caches speed up
    assert any(any("more ranked hit" in n for n in r.notes) for r in before)
    loader_blocks._ITEM_BLOCKS.clear()
    parse_cache.enable(True)
    first = [_prompt(big, p) for p in PROMPTS]
    assert loader_blocks._ITEM_BLOCKS  # the blocks were kept ...
    again = [_prompt(big, p) for p in PROMPTS]  # ... and the second round is served from them
    for one_shot, served, kept in zip(before, first, again, strict=True):
        _same(one_shot, served)
        _same(one_shot, kept)


def test_a_kept_block_follows_its_file(big):
    parse_cache.enable(True)
    loader_blocks._ITEM_BLOCKS.clear()
    result = _prompt(big, PROMPTS[0])
    path = next(Path(p) for (p, _enc), (_st, kept_id, block) in loader_blocks._ITEM_BLOCKS.items()
                if kept_id in result.full_ids and block is not None)
    text = path.read_text("utf-8")
    path.write_text(text.replace("The ", "Rewritten: the ", 1), "utf-8")
    changed = _prompt(big, PROMPTS[0])
    parse_cache.enable(False)
    _same(_prompt(big, PROMPTS[0]), changed)
    assert "Rewritten: the" in changed.text


def test_path_index_matches_a_scan_of_the_catalog(big):
    from lorestack.retrieval.loader import _memo

    cache = context_cache.RootCache(big.project, "project", _memo(big), repo_dir=None, home=None)
    view = cache.load()
    rows = list(view.rows())
    wanted = {rows[0].id, rows[len(rows) // 2].id, rows[-1].id, "no-such-id"}
    assert view.paths_for(wanted) == {
        r.id: str(big.project.root / r.path) for r in rows if r.id in wanted}


def test_requests_that_arrive_together_parse_the_store_once(big, monkeypatch):
    from lorestack.memory_layers.store import MemoryStore
    from lorestack.retrieval.loader import _memo

    parsed: list[str] = []
    real_parse = MemoryStore.parse_loaded
    real_scan = context_cache.scan_root
    scans = []

    def counting_parse(self, path, raw, note=None):
        parsed.append(str(path))
        return real_parse(self, path, raw, note)

    def slow_scan(paths, folders=None, **kw):
        if folders is None:
            scans.append(1)
            if len(scans) == 1:
                time.sleep(0.5)  # the second request arrives while the first one scans
        return real_scan(paths, folders, **kw)

    monkeypatch.setattr(MemoryStore, "parse_loaded", counting_parse)
    monkeypatch.setattr(context_cache, "scan_root", slow_scan)
    views = []

    def request() -> None:
        cache = context_cache.RootCache(big.project, "project", _memo(big), repo_dir=None,
                                        home=None)
        views.append(cache.load())

    threads = [threading.Thread(target=request) for _ in range(2)]
    for t in threads:
        t.start()
        time.sleep(0.1)
    for t in threads:
        t.join()
    assert len(views) == 2 and views[0].line_count == views[1].line_count > 200
    assert len(parsed) == len(set(parsed))  # no file was parsed twice


def test_prepared_hit_blocks_serve_a_prompt_without_reading_an_item(big, monkeypatch):
    from lorestack.memory_layers.store import MemoryStore
    from lorestack.retrieval.loader import _memo, prepare_hit_blocks

    parse_cache.enable(False)
    before = [_prompt(big, p) for p in PROMPTS]
    assert prepare_hit_blocks(big) == 0  # only a long-lived process keeps blocks
    parse_cache.enable(True)
    loader_blocks._ITEM_BLOCKS.clear()
    items = sum(1 for _ in context_cache.RootCache(
        big.project, "project", _memo(big), repo_dir=None, home=None).load().rows())
    assert prepare_hit_blocks(big) == items > 200
    parsed: list[str] = []
    real_parse = MemoryStore.parse_loaded

    def counting_parse(self, path, raw, note=None):
        parsed.append(str(path))
        return real_parse(self, path, raw, note)

    monkeypatch.setattr(MemoryStore, "parse_loaded", counting_parse)
    served = [_prompt(big, p) for p in PROMPTS]
    assert not parsed  # every hit was a prepared block
    for one_shot, prepared in zip(before, served, strict=True):
        _same(one_shot, prepared)


def test_a_kept_view_is_reused_only_while_its_files_are_unchanged(big):
    from lorestack.retrieval import cache_memo
    from lorestack.retrieval.loader import _memo

    def load():
        return context_cache.RootCache(big.project, "project", _memo(big), repo_dir=None,
                                       home=None).load()

    load()  # the store's first look: the cache files are written
    first = load()
    assert first.resident and load() is first  # unchanged files: the view made before
    item = first.resident[0]
    path = big.project.root / item.path
    path.write_text(path.read_text("utf-8").replace(item.title, item.title + " (edited)", 1),
                    "utf-8")
    changed = load()
    assert changed is not first
    assert any(i.id == item.id and i.title == item.title + " (edited)" for i in changed.resident)
    cache_memo.RESIDENTS.clear()
    cache_memo.CATALOGS.clear()
    read_again = load()  # what a process that kept nothing reads from the same files
    assert [vars(i) for i in read_again.resident] == [vars(i) for i in changed.resident]
    assert list(read_again.rows()) == list(changed.rows())


def test_prepared_journal_days_serve_event_hits_without_parsing_a_day(big, monkeypatch):
    """Event hits are found in their day's parsed events: the service parses every day ahead
    (at 100k events a prompt meeting unparsed days took up to ~1 s), and the context stays."""
    from lorestack.memory_layers.journal import Journal
    from lorestack.retrieval.loader import prepare_hit_blocks

    parse_cache.enable(False)
    before = [_prompt(big, p) for p in PROMPTS]
    assert any(i.startswith("ev-") for r in before for i in r.full_ids)  # events are shown
    parse_cache.enable(True)
    prepare_hit_blocks(big)
    days = [big.journal.day_file(d) for d in big.journal.days()]
    assert len(days) == 10 and all(parse_cache.holds(p, "journal") for p in days)
    parsed: list[str] = []
    real_read = Journal._read_file

    def counting_read(self, path):
        parsed.append(str(path))
        return real_read(self, path)

    monkeypatch.setattr(Journal, "_read_file", counting_read)
    served = [_prompt(big, p) for p in PROMPTS]
    assert parsed == []
    for one_shot, prepared in zip(before, served, strict=True):
        _same(one_shot, prepared)
