"""`lorestack bench latency`: one table of speed figures per store size.

This module only orchestrates; the measurements live with the code they measure:
- bench_search.search_latency: full reindex (items/s, peak RSS) and in-process search p50/p95;
- bench_hooks.hook_latency: whole-process `hook session-start` / `hook prompt` timings, on a
  store it keeps for us, where we then time in-process `context` assembly (p50);
- bench_search.embed_throughput: our embedder vs chroma's default function, same texts, one run.
Timings are reported, never asserted.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

CONTEXT_QUERIES = [
    "why does the billing service retry calls?", "how do we deploy changes?",
    "what did we decide about Redis in search?", "fix the flaky checkout test",
    "which queue does ingest use and why?", "add a field to the exports report",
    "what is still blocked in the gateway?", "who owns the scheduler?",
]

Progress = Callable[[str], None]


@dataclass
class LatencyReport:
    sizes: list[int]
    rows: list[dict] = field(default_factory=list)
    embedding: dict | None = None


@contextmanager
def _restored_environ():
    """The measured helpers set LORESTACK_* variables for their stores; keep ours intact."""
    saved = dict(os.environ)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def parse_sizes(value: str) -> list[int]:
    from lorestack.core.errors import LorestackError

    try:
        sizes = [int(v.strip().lower().replace("k", "000").replace("_", ""))
                 for v in value.split(",") if v.strip()]
    except ValueError as exc:
        raise LorestackError(f"--items wants numbers like 1000,10000 (got {value!r})") from exc
    if not sizes or any(s < 10 for s in sizes):
        raise LorestackError("--items: every store size must be at least 10")
    return sizes


def model_dir_for(settings) -> str:
    """The ONNX model folder the embedder would use (configured, else chroma's cache)."""
    from lorestack.retrieval.embedding import resolve_model_dir

    return str(resolve_model_dir(settings.embedding))


def context_latency(repo: Path, home: Path, runs: int) -> dict:
    """In-process `assemble_context` for developer-style queries on an indexed store."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex
    from lorestack.retrieval.loader import assemble_context

    mem = Memory.open(repo, home=home)
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.search(CONTEXT_QUERIES[0], k=5, sync=True, record_access=False)  # warm
        samples, tokens = [], []
        for n in range(max(runs, len(CONTEXT_QUERIES))):
            query = CONTEXT_QUERIES[n % len(CONTEXT_QUERIES)] + " " * (n // len(CONTEXT_QUERIES))
            started = time.perf_counter()
            result = assemble_context(mem, query=query, sync=False)
            samples.append((time.perf_counter() - started) * 1000)
            tokens.append(result.tokens)
    finally:
        index.close()
    ordered = sorted(samples)
    return {"context_ms_p50": round(statistics.median(ordered), 1),
            "context_ms_p95": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 1),
            "context_tokens_mean": round(statistics.fmean(tokens), 1)}


def measure_size(n_items: int, *, runs: int, queries: int, model_dir: str | None,
                 progress: Progress | None = None, service: bool = True) -> dict:
    """Every figure for one store size (each helper builds its own temporary store)."""
    from lorestack.bench.hooks import hook_latency
    from lorestack.bench.search import search_latency

    row: dict = {"items": n_items}
    if progress:
        progress(f"{n_items} items: reindex + search")
    with _restored_environ():
        s = search_latency(n_items, queries=queries, model_dir=model_dir)
    row.update({
        "search_ms_p50": s["search_ms_p50"], "search_ms_p95": s["search_ms_p95"],
        "search_no_sync_ms_p50": s["search_no_sync_ms_p50"],
        "reindex_s": s["reindex_s"], "reindex_items_per_s": s["reindex_items_per_s"],
        "reindex_peak_rss_mb": s["reindex_peak_rss_mb"], "documents": s["documents"],
    })
    if progress:
        progress(f"{n_items} items: hooks (whole process) + context")
    keep = Path(tempfile.mkdtemp(prefix="lorestack-bench-latency-"))
    try:
        with _restored_environ():
            if model_dir:
                os.environ["LORESTACK_EMBEDDING__MODEL_DIR"] = str(model_dir)
            h = hook_latency(n_items, runs, keep_dir=str(keep / "store"))
            row.update(context_latency(keep / "store" / "repo", keep / "store" / "home", runs))
            if service:
                from lorestack.bench.service import service_latency

                if progress:
                    progress(f"{n_items} items: whole processes, service off vs on")
                row["service"] = service_latency(keep / "store" / "repo", keep / "store" / "home",
                                                 runs)
    finally:
        shutil.rmtree(keep, ignore_errors=True)
    row.update({
        "session_start_ms_p50": h["session_start_ms"]["p50"],
        "session_start_ms_p95": h["session_start_ms"]["p95"],
        "session_start_first_ms": h["session_start_first_ms"],
        "prompt_ms_p50": h["prompt_ms"]["p50"], "prompt_ms_p95": h["prompt_ms"]["p95"],
        "session_start_tokens": h["session_start_tokens"],
        "memory_file_tokens": h["memory_file_tokens"],
    })
    return row


def run_latency_bench(sizes: list[int], *, runs: int = 20, queries: int = 200,
                      embed_texts: int = 1000, settings=None,
                      progress: Progress | None = None, service: bool = True) -> LatencyReport:
    """Figures for each size, then the embedder comparison (once, same texts for both)."""
    from lorestack.bench.search import embed_throughput
    from lorestack.core.settings import load_settings

    settings = settings or load_settings()
    model_dir = model_dir_for(settings)
    report = LatencyReport(sizes=list(sizes))
    for n in sizes:
        report.rows.append(measure_size(n, runs=runs, queries=queries,
                                        model_dir=model_dir,
                                        progress=progress, service=service))
    if embed_texts:
        if progress:
            progress(f"embedding throughput ({embed_texts} texts, ours vs chroma)")
        report.embedding = embed_throughput(model_dir, embed_texts)
    return report
