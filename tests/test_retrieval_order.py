"""The same turns give the same ranking, however the index was built (docs/recall.md §12).

Tantivy orders equal BM25 scores by where a doc sits in its segments, and Chroma's HNSW graph
differs from one build to the next; neither may decide what a search returns. Two stores hold
the same turns, indexed in a different order (one sync, or two syncs in reverse day order), and
must rank them identically, equal scores in id order. Real tantivy, Chroma and ONNX model."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from lorestack.consolidation.bulk_import import ImportEvent, import_events
from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.index import MemoryIndex

ASKED = datetime(2023, 7, 1, 9, 0, tzinfo=timezone.utc)
DRINKS = ["milk", "coffee", "juice", "water", "cocoa"]


def _turns(day: int) -> list[ImportEvent]:
    # every turn says "tea" once and is as long as the others: BM25 ties on "tea"
    return [ImportEvent(id=f"T{day}{n:02d}", time=datetime(2023, 5, day, 10, n, tzinfo=timezone.utc),
                        session=f"session_{day}", speaker="Sami" if n % 2 else "Gus",
                        text=f"we had tea and {DRINKS[n % 5]} at {n} o'clock")
            for n in range(12)]


def _store(root, batches: list[list[ImportEvent]]) -> MemoryIndex:
    root.mkdir(exist_ok=True)
    Memory.init(root)
    mem = Memory.open(root)
    index = MemoryIndex(mem, warn=lambda _m: None)
    for batch in batches:  # one sync per batch: a segment (and HNSW insertions) per batch
        result = import_events(mem, batch)
        assert result.events == len(batch) and not result.warnings
        index.sync()
    return index


@pytest.fixture
def two_stores(repo, tmp_path):
    first = _store(tmp_path / "one", [_turns(8) + _turns(9)])
    second = _store(tmp_path / "two", [_turns(9), _turns(8)])
    yield first, second
    first.close()
    second.close()


def test_equal_bm25_scores_come_in_id_order_and_the_cut_does_not_depend_on_the_build(two_stores):
    for index in two_stores:
        hits = index.lexical.search("tea", 5)
        assert [doc_id for doc_id, _ in hits] == ["T800", "T801", "T802", "T803", "T804"]
        assert len({round(score, 5) for _, score in hits}) == 1  # a real tie, cut by id
        everything = index.lexical.search("tea", 100)
        assert [doc_id for doc_id, _ in everything] == sorted(doc_id for doc_id, _ in everything)
        assert len(everything) == 24


@pytest.mark.parametrize("mode", ["bm25", "vector", "rrf", "default"])
def test_two_builds_of_the_same_turns_rank_them_the_same(two_stores, mode):
    one, two = two_stores
    for query in ("Did Gus have tea with juice?", "what did they drink at 7 o'clock", "tea"):
        ranked = [[(h.doc.id, h.score) for h in index.search(
            query, k=20, mode=mode, now=ASKED, sync=False, record_access=False)]
            for index in (one, two)]
        assert ranked[0] and ranked[0] == ranked[1], (mode, query)


def test_a_new_collection_searches_with_the_wide_beam(two_stores):
    from lorestack.retrieval.vectors import EF_SEARCH

    for index in two_stores:
        hnsw = index.vectors.collection(create=False).configuration_json["hnsw"]
        assert hnsw["ef_search"] == EF_SEARCH and hnsw["space"] == "cosine"


def test_a_collection_made_with_the_narrow_beam_is_widened(tmp_path):
    import chromadb

    from lorestack.retrieval.vectors import EF_SEARCH, VectorStore, chroma_settings

    old = chromadb.PersistentClient(path=str(tmp_path / "chroma"), settings=chroma_settings())
    made = old.get_or_create_collection("lorestack", metadata={"hnsw:space": "cosine"},
                                        embedding_function=None)
    assert made.configuration_json["hnsw"]["ef_search"] < EF_SEARCH  # Chroma's own default
    store = VectorStore(tmp_path / "chroma")
    try:
        hnsw = store.collection(create=False).configuration_json["hnsw"]
        assert hnsw["ef_search"] == EF_SEARCH and hnsw["space"] == "cosine"
    finally:
        store.close()
