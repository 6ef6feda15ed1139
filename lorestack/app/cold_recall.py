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


RECONCILE_MS_PER_1K_DOCS = 25.0  # the whole text-only reconcile: 2.2 s at 100k docs, load 5
BM25_RESERVE_MS = 1000.0  # kept for the BM25 answer after it (0.1-1.5 s whole at 1k-100k)
ALWAYS_DOCS = 2000  # up to here the reconcile is ~50 ms: always done


def catch_up_text(mem, remaining_s: float) -> str | None:
    """Bring the word index up to the store's files before the cold BM25 answer; a line for
    hooks.log when it was not done, else None.

    What was written while no service ran (`lorestack remember`, `log`, `supersede`, a hand
    edit, a `git pull`) reached no watcher, and hooks search without syncing: a cold prompt
    never had it, until some command synced the index. Text only: Chroma is not opened and
    nothing is embedded (the model is not loaded for it); the next full sync embeds what it
    left. With nothing changed it is the sync's stat sweep (20-40 ms at 100k docs); it never
    waits for the sync lock (a sync under way is another process's, which covers it). A few
    changed files are merged alone (`retrieval/sync_partial`: 75-100 ms at 100k docs); a
    change that needs the whole reconcile (every doc's state read: ~1 s at 100k) is taken in
    when that fits in `remaining_s` beside the BM25 answer, else left to a detached sync, for
    the next prompt. A never-built index is left to the loader (catalog titles, rebuilt
    behind)."""
    from lorestack.memory_layers.fsutil import locked
    from lorestack.retrieval.pool import borrow_index
    from lorestack.retrieval.recall import index_is_warm
    from lorestack.retrieval.sync import run_sync

    if not index_is_warm(mem):
        return None
    affordable = (remaining_s * 1000 - BM25_RESERVE_MS) / RECONCILE_MS_PER_1K_DOCS * 1000
    try:
        with borrow_index(mem) as index:
            index.ensure_dir()
            with locked(mem.primary.locks_dir, "index-sync", timeout=0):
                report = run_sync(index, quick=True, text_only=True,
                                  max_docs=max(ALWAYS_DOCS, int(affordable)))
            if report.changed:
                index.docs_changed()
    except Exception as exc:  # noqa: BLE001 - the answer is made from the index as it is
        return f"word index not caught up ({type(exc).__name__}: {exc})"
    if report.deferred:
        from lorestack.app.hook_spawns import spawn_index_sync

        spawn_index_sync(mem)
        return (f"files changed since the index's last sync; taking them in would not leave "
                f"the BM25 answer time in the {remaining_s * 1000:.0f} ms left: synced behind")
    return None
