"""Whether a process without the service can still finish the full prompt recall in time.

The first prompt after boot finds no service and is answered in-process: the BM25 answer is
made first (0.1-0.7 s), then the full pipeline imports chromadb, starts the ONNX session,
opens Chroma's client, reads the HNSW graph, scans the known speakers and parses the journal
days of its hits. When that cannot end before the deadline, waiting for it only sends the
same BM25 answer at the deadline (~2.7 s whole process).

Measured (2026-12-05, 2 cores, load 1.5-5.5, the full pipeline let run to its end, 12 cold
prompts a size; docs/benchmarks.md, nineteenth session): after the BM25 answer it took
0.9-2.4 s at 1k vectors, 1.2-3.8 s at 10k and 1.3-6.1 s at 100k (6 s with the graph out of
the page cache). What decided whether it made a 2.5 s deadline was mostly the time left once
the BM25 answer was made, which is this process's own pace: a slow start and a slow BM25
answer came with a slow full pipeline. With less left than `needed` below (1.5 s at 1k
vectors, 1.9 s at 100k) it missed the deadline in 7 of 8 prompts; with more it made it in 16
of 28 (waiting made it 17 of 36). A bar of 1.8 s cut where waiting would have paid: at
load 8-9 it sent BM25 at once on 7 of 8 prompts at 1k where waiting got the full answer on 4.
"""

from __future__ import annotations

COLD_FULL_MS = 1500.0  # time left below which the cold full pipeline mostly missed
PER_1K_VECTORS_MS = 4.0  # the graph's read and the speakers' scan grow with the store


def too_late(mem, remaining_s: float) -> str | None:
    """Why the cold full recall cannot end in the `remaining_s` left (one line for hooks.log),
    or None when it may: a Chroma server (its size is not known here) is always tried."""
    from lorestack.retrieval.hnsw_files import vector_count

    if mem.settings.retrieval.chroma_url:
        return None
    vectors = vector_count(mem.primary.index_dir / "chroma")
    needed = COLD_FULL_MS + PER_1K_VECTORS_MS * vectors / 1000
    left = remaining_s * 1000
    if needed <= left:
        return None
    return (f"no service, the full recall cold needs ~{needed:.0f} ms ({vectors:,} vectors) "
            f"and {max(0.0, left):.0f} ms are left; answered with BM25 "
            "recall at once")


def catch_up_text(mem) -> str | None:
    """Bring the word index up to the store's files before the cold BM25 answer; a line for
    hooks.log when it was not done, else None.

    What was written while no service ran (`lorestack remember`, `log`, `supersede`, a hand
    edit, a `git pull`) reached no watcher, and hooks search without syncing: a cold prompt
    never had it, until some command synced the index. Text only: Chroma is not opened and
    nothing is embedded (the model is not loaded for it); the next full sync embeds what it
    left. With nothing changed it is the sync's stat sweep; it never waits for the sync lock
    (a sync under way is another process's, which covers it). A never-built index is left to
    the loader (catalog titles, rebuilt behind)."""
    from lorestack.retrieval.pool import borrow_index
    from lorestack.retrieval.recall import index_is_warm

    if not index_is_warm(mem):
        return None
    try:
        with borrow_index(mem) as index:
            index._locked_sync(quick=True, timeout=0, text_only=True)
    except Exception as exc:  # noqa: BLE001 - the answer is made from the index as it is
        return f"word index not caught up ({type(exc).__name__}: {exc})"
    return None
