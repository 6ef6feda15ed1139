"""A doc whose file went while no service ran is taken out of the word index by the cold
prompt's text-only catch-up, but its vectors stay until the next full sync: its row is kept,
marked removed, so that sync deletes them. That row must not reach an answer or a count: the
dense ranking still finds its vectors, and the catalog handed its stored text to the search
(a fact deleted by hand came back in `vector` and `default` recall). Real files, tantivy,
Chroma and the ONNX model."""

from __future__ import annotations

from lorestack.app.cold_recall import catch_up_text
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import remember
from lorestack.retrieval.index import MemoryIndex


def test_a_removed_row_reaches_no_search_and_no_count(repo):
    mem = Memory.open(repo)
    remember(mem, "The ZEBRAFISH pipeline listens on port 7781", "fact")
    remember(mem, "Refunds go through the ledger service", "fact")
    index = MemoryIndex(mem)
    index.sync()
    before = index.catalog.count_docs()
    index.close()
    gone = next(p for p in (repo / ".memory" / "facts").glob("*.md") if "ZEBRAFISH" in p.read_text())
    gone.unlink()

    assert catch_up_text(Memory.open(repo), 60.0) is None  # the text-only catch-up
    index = MemoryIndex(Memory.open(repo))
    try:
        states = index.catalog.doc_states()
        assert "removed" in {s.doc_hash for s in states.values()}  # kept for the vectors' delete
        for mode in ("bm25", "vector", "rrf", "default"):
            hits = index.search("ZEBRAFISH pipeline port", k=5, mode=mode, sync=False,
                                record_access=False)
            assert not [h for h in hits if "ZEBRAFISH" in h.doc.text], mode
        assert index.catalog.count_docs() == before - 1
        assert "ZEBRAFISH" not in str(index.catalog.get_docs(list(states)))
        index.sync()  # the next full sync deletes the vectors and the row
        assert "removed" not in {s.doc_hash for s in index.catalog.doc_states().values()}
    finally:
        index.close()


def test_the_viewer_counts_the_live_docs_as_the_index_does(repo):
    """The viewer's L4 count (`ViewerState.index_docs`, read-only on catalog.sqlite) counted
    the row kept marked removed: one more document than `count_docs`, doctor and search."""
    from lorestack.integrations.viewer.state import ViewerState

    mem = Memory.open(repo)
    remember(mem, "The ZEBRAFISH pipeline listens on port 7781", "fact")
    remember(mem, "Refunds go through the ledger service", "fact")
    index = MemoryIndex(mem)
    index.sync()
    index.close()
    gone = next(p for p in (repo / ".memory" / "facts").glob("*.md") if "ZEBRAFISH" in p.read_text())
    gone.unlink()
    assert catch_up_text(Memory.open(repo), 60.0) is None  # leaves the row marked removed
    index = MemoryIndex(Memory.open(repo))
    try:
        live = index.catalog.count_docs()
    finally:
        index.close()
    state = ViewerState(Memory.open(repo), "token", run_doctor=False)
    assert state.index_docs() == live
