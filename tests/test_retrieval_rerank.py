"""Decay maths, rerankers (LLM through litellm's real HTTP path), the LlamaIndex adapter."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from lorestack.core.settings import DecaySettings
from lorestack.memory_layers.operations import remember
from lorestack.retrieval.decay import retention
from lorestack.retrieval.index import MemoryIndex

from .retrieval_helpers import NOW, build_corpus


def test_retention_per_type_and_reinforcement():
    s = DecaySettings()
    old = NOW - timedelta(days=60)
    event = retention("event", old, NOW, s)
    fact = retention("fact", old, NOW, s)
    pref = retention("preference", old, NOW, s)
    assert event < fact < pref < 1.0
    assert retention("caveat", NOW - timedelta(days=3650), NOW, s) == 1.0
    assert retention("criterion", old, NOW, DecaySettings(criterion=30.0), human_confirmed=True) == 1.0
    assert retention("criterion", old, NOW, DecaySettings(criterion=30.0)) < 1.0
    assert retention("event", old, NOW, s, access_count=3) > event
    assert retention("event", old, NOW, s, last_access=NOW - timedelta(days=1)) > event
    capped = retention("event", old, NOW, s, access_count=100)
    assert capped == pytest.approx(retention("event", old, NOW, s, access_count=50))


def test_decay_reranker_prefers_fresh_over_faded(mem, monkeypatch):
    """The decay reranker (opt-in since locomo-dev showed it costing recall) ranks the fresh
    twin of a faded event first."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import log_event

    monkeypatch.setenv("LORESTACK_RETRIEVAL__RERANKER", "decay")
    mem = Memory.open(mem.project.repo_dir)

    old = log_event(mem, "deploy pipeline uses blue green switch", "note",
                    time=NOW - timedelta(days=200)).id
    new = log_event(mem, "deploy pipeline uses blue green switch now", "note",
                    time=NOW - timedelta(hours=1)).id
    index = MemoryIndex(mem)
    hits = index.search("deploy pipeline blue green", k=2, explain=True, now=NOW)
    assert [h.id for h in hits] == [new, old]
    assert hits[1].explain["decay"] < 0.01 < hits[0].explain["decay"]
    hybrid = index.search("deploy pipeline blue green", k=2, mode="rrf", now=NOW)
    assert {h.id for h in hybrid} == {new, old}


def test_llm_reranker_orders_by_the_models_reply(mem, fake_llm, monkeypatch):
    ids = build_corpus(mem)
    server = fake_llm(responder=None, script=['{"ranking": [3, 1]}'])
    monkeypatch.setenv("LORESTACK_RETRIEVAL__RERANKER", "llm")
    monkeypatch.setenv("LORESTACK_RETRIEVAL__LLM_RERANK_MAX_ITEMS", "4")
    from lorestack.memory_layers.memory import Memory

    mem = Memory.open(mem.project.repo_dir)
    index = MemoryIndex(mem)
    baseline = index.search("tokens keys retries", k=4, mode="rrf", record_access=False)
    hits = index.search("tokens keys retries", k=4, record_access=False)
    prompt = server.prompts()[0]
    assert "Query: tokens keys retries" in prompt and prompt.count("\n[") == 4
    assert len(server.requests) == 1
    # the entry shown third is now first, the one shown first second
    shown = [line for line in prompt.splitlines() if line.startswith("[")]
    assert hits[0].title.split()[0] in shown[2] and hits[1].title.split()[0] in shown[0]
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert {h.id for h in hits} <= {h.id for h in baseline} | set(ids.values())


def test_llm_reranker_failure_falls_back_with_a_warning(mem, fake_llm, monkeypatch):
    build_corpus(mem)
    fake_llm(script=[{"status": 400}] * 5)
    monkeypatch.setenv("LORESTACK_RETRIEVAL__RERANKER", "llm")
    from lorestack.memory_layers.memory import Memory

    warnings = []
    index = MemoryIndex(Memory.open(mem.project.repo_dir), warn=warnings.append)
    hits = index.search("RS256", k=3)
    assert hits and "RS256" in hits[0].text
    assert any("llm reranker failed" in w for w in warnings)


def test_cross_encoder_without_the_extra_says_what_to_install(mem, monkeypatch):
    import sys

    build_corpus(mem)
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # force ImportError
    monkeypatch.setenv("LORESTACK_RETRIEVAL__RERANKER", "cross-encoder")
    from lorestack.core.errors import MissingExtra
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.rerank import CrossEncoderReranker

    with pytest.raises(MissingExtra, match=r"lorestack\[rerank\]"):
        CrossEncoderReranker("x")._model()
    warnings = []
    index = MemoryIndex(Memory.open(mem.project.repo_dir), warn=warnings.append)
    assert index.search("RS256", k=1)[0].title.startswith("API tokens")
    assert any("rerank" in w for w in warnings)


def test_llamaindex_retriever_returns_nodes(mem):
    from llama_index.core.schema import NodeWithScore, QueryBundle

    from lorestack.retrieval.llamaindex import LorestackRetriever

    ids = build_corpus(mem)
    retriever = LorestackRetriever(mem, k=3)
    nodes = retriever.retrieve("getUserById")
    assert nodes and isinstance(nodes[0], NodeWithScore)
    assert nodes[0].node.node_id == ids["user"]
    assert nodes[0].node.metadata["type"] == "caveat" and nodes[0].score > 0
    assert retriever.retrieve(QueryBundle("RS256"))[0].node.metadata["id"] == ids["jwt"]
    json.dumps(nodes[0].node.metadata)  # metadata stays serialisable for vector stores


def test_global_items_are_indexed_with_project_ones(mem):
    g = remember(mem, "Global: I review diffs before every commit", "preference", scope="global")
    hits = MemoryIndex(mem).search("review diffs before commit", k=3)
    assert hits[0].id == g.item.id and hits[0].scope == "global"
