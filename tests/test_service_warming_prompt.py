"""A prompt that reaches the service while it opens a memory's index answers from BM25.

Issue 21 item 8 (docs/recall.md §25): at 100k events a prompt sent right after the service came
up answered empty. The request that opens a memory runs the index warm-up (tantivy, Chroma's
HNSW graph, the ONNX model) in the opener, before its prompt's BM25 fallback is even scheduled;
a request arriving meanwhile waited for that warm-up up to its whole deadline. The warm-up is
made slow here on purpose: it waits until the test has its answer.
"""

from __future__ import annotations

import json
import threading

import pytest

from lorestack.app.events import hook_opener
from lorestack.app.hooks import run_hook
from lorestack.app.models import Caller
from lorestack.bench.hooks import build_store
from lorestack.integrations.service.warm import WarmMemories
from lorestack.memory_layers import parse_cache
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import remember
from lorestack.retrieval import pool as pool_module
from lorestack.retrieval import recall

from .conftest import model_dir

FACT = "The reporting read replica is ORCHID-7 on port 6432"


@pytest.fixture
def warming(tmp_path, monkeypatch):
    """(repo, WarmMemories, release): a service's warm memories whose index warm-up blocks
    until `release` is set."""
    from lorestack.retrieval.index import MemoryIndex

    repo = build_store(tmp_path / "store", 30, journal_days=3, events_per_day=5)
    monkeypatch.setenv("LORESTACK_EMBEDDING__MODEL_DIR", str(model_dir()))
    mem = Memory.open(repo)
    remember(mem, FACT, "fact")
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
    finally:
        index.close()
    release = threading.Event()
    real = recall.search_hits

    def slow_search_hits(mem, query, *args, **kwargs):
        if query == "warm up":  # the service's warm-up search, nothing else
            release.wait(60)
        return real(mem, query, *args, **kwargs)

    monkeypatch.setattr(recall, "search_hits", slow_search_hits)
    parse_cache.enable(True)
    pool = pool_module.IndexPool()
    pool_module.install(pool)
    warm = WarmMemories(pool, watch=False)
    try:
        yield repo, warm, release
    finally:
        release.set()
        warm.close()
        pool_module.install(None)
        parse_cache.enable(False)


def _prompt(repo, warm, session: str):
    payload = json.dumps({"session_id": session, "cwd": str(repo),
                          "prompt": "which read replica do the reports use?",
                          "hook_event_name": "UserPromptSubmit"})
    return run_hook("prompt", "claude-code", payload, root=None, deadline_ms=1500,
                    open_memory=hook_opener(Caller(cwd=str(repo)), warm.opener))


def test_the_prompt_that_opens_the_memory_answers_while_the_index_warms_up(warming):
    repo, warm, release = warming
    run = _prompt(repo, warm, "first")
    release.set()
    assert "ORCHID-7" in run.output  # before: the deadline passed in the warm-up, answered empty


def test_a_prompt_arriving_during_another_requests_warm_up_answers_too(warming):
    repo, warm, release = warming
    first = threading.Thread(target=_prompt, args=(repo, warm, "first"), daemon=True)
    first.start()
    second = _prompt(repo, warm, "second")
    release.set()
    first.join(60)
    assert "ORCHID-7" in second.output
