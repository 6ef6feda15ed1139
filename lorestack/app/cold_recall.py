"""Whether a process without the service can still finish the full prompt recall in time.

The first prompt after boot finds no service and is answered in-process: the BM25 answer is
made first (~0.1-0.6 s), then the full pipeline has to import chromadb, start the ONNX
session, open Chroma's client, read the HNSW graph, scan the known speakers and parse the
journal days of its hits. When that cannot end before the deadline, waiting for it only
delays the same BM25 answer to the deadline (2.5 s whole process, every time, at 100k).

Measured (2026-12-05, 2 cores, load 1.5-2.9, 30 s deadline so the full pipeline always ran
to its end; docs/benchmarks.md, nineteenth session): after the BM25 answer, the cold full
pipeline took 1.34-2.37 s at 1k vectors, 1.61-2.51 s at 10k and 1.61-2.43 s at 100k (first
prompt after a copy 5.5 s); the graph read (167 MB at 100k) and the speakers' scan add
~0.8 s per 100k vectors when neither is in the page cache. The estimate below is the fastest
of those, so the BM25 answer is sent at once only where the full one would not have made it.
"""

from __future__ import annotations

import os

COLD_FULL_MS = 1300.0  # the fixed part: chromadb import, ONNX session, client, one query
PER_1K_VECTORS_MS = 8.0  # graph read and speakers' scan, per thousand vectors


def _contention() -> float:
    """How much slower than alone this process runs now: runnable tasks per core, >= 1."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average here (Windows)
        return 1.0
    return max(1.0, load / (os.cpu_count() or 1))


def too_late(mem, remaining_s: float) -> str | None:
    """Why the cold full recall cannot end in the `remaining_s` left (one line for hooks.log),
    or None when it may: a Chroma server (its size is not known here) is always tried."""
    from lorestack.retrieval.hnsw_files import vector_count

    if mem.settings.retrieval.chroma_url:
        return None
    vectors = vector_count(mem.primary.index_dir / "chroma")
    factor = _contention()
    needed = (COLD_FULL_MS + PER_1K_VECTORS_MS * vectors / 1000) * factor
    left = remaining_s * 1000
    if needed <= left:
        return None
    return (f"no service, the full recall cold needs ~{needed:.0f} ms ({vectors:,} vectors, "
            f"load x{factor:.1f}) and {max(0.0, left):.0f} ms are left; answered with BM25 "
            "recall at once")
