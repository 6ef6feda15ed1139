"""Speed measurements for L4 (reported by `lorestack bench embed|search`, never asserted in tests).

- `embed_throughput`: our ONNX embedder vs chroma's default embedding function on the same
  short texts in the same run: items/s each, the ratio, and the minimum cosine between them.
- `search_latency`: a synthetic store of n items in a temp dir; full reindex (items/s, peak
  RSS) and warm hybrid search latency (p50/p95), with and without the per-search file sync.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lorestack.memory_layers.models import ItemType

_COMPONENTS = ["auth_service.py", "billing/api.ts", "UserRepository", "getUserById", "OrderQueue",
               "payments-worker", "cache_layer.go", "RateLimiter", "search_index.rs",
               "NotificationHub", "config/settings.toml", "ReportExporter", "sessionStore"]
_ERRORS = ["ERR_CONN_RESET", "ETIMEDOUT", "HTTP 502", "OOMKilled", "E11000 duplicate key",
           "TLS handshake failure", "deadlock detected", "RS256 signature mismatch"]
_TECH = ["PostgreSQL", "Redis streams", "Kafka", "S3", "GitHub Actions", "Fly.io", "Docker",
         "Terraform", "pytest", "OpenTelemetry", "Celery", "gRPC", "nginx", "SQLite"]
_VERBS = ["must retry", "should cache", "now uses", "was migrated to", "never calls",
          "logs every failure from", "is rate limited by", "depends on", "was rewritten with"]
_TAILS = ["before the release", "because latency doubled under load", "after the incident review",
          "to keep p95 under 200 ms", "so that on-call can replay failed jobs",
          "as agreed in the architecture meeting", "until the vendor fixes the bug"]
_TYPES: list[ItemType] = ["fact", "decision", "caveat", "preference"]


def synthetic_text(rng: random.Random) -> str:
    """One short memory (about 20-60 tokens) mixing identifiers and prose."""
    parts = [f"{rng.choice(_COMPONENTS)} {rng.choice(_VERBS)} {rng.choice(_TECH)}",
             rng.choice(_TAILS)]
    if rng.random() < 0.5:
        parts.append(f"when it sees {rng.choice(_ERRORS)}")
    if rng.random() < 0.5:
        parts.append(f"and {rng.choice(_COMPONENTS)} {rng.choice(_VERBS)} {rng.choice(_TECH)}")
    return " ".join(parts) + f" (note {rng.randrange(10**6)})."


def _peak_rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _reset_peak_rss() -> bool:
    try:
        Path("/proc/self/clear_refs").write_text("5")  # Linux: reset VmHWM to current RSS
        return True
    except OSError:
        return False


def _rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def embed_throughput(model_dir: str | os.PathLike, n_texts: int = 1000, seed: int = 7) -> dict:
    """Ours vs chroma's ONNXMiniLM_L6_V2 on the same texts (chroma reads the same model files)."""
    import numpy as np
    from chromadb.utils.embedding_functions.onnx_mini_lm_l6_v2 import ONNXMiniLM_L6_V2

    from lorestack.retrieval.embedding import OnnxMiniLMEmbedder, _model_folder

    folder = _model_folder(model_dir)
    if folder is None:
        raise FileNotFoundError(f"no all-MiniLM-L6-v2 onnx model in {model_dir}")

    parent = folder.parent

    class LocalChroma(ONNXMiniLM_L6_V2):
        DOWNLOAD_PATH = parent  # chroma looks for <path>/onnx/: the same files, no download

    rng = random.Random(seed)
    texts = [synthetic_text(rng) for _ in range(n_texts)]
    ours, theirs = OnnxMiniLMEmbedder(folder), LocalChroma()
    ours.embed(texts[:16])
    theirs(texts[:16])  # warm both: sessions created, caches filled
    t0 = time.perf_counter()
    mine = ours.embed(texts)
    t_ours = time.perf_counter() - t0
    t0 = time.perf_counter()
    reference = np.asarray(theirs(texts), dtype=np.float32)
    t_chroma = time.perf_counter() - t0
    cosine = (mine * reference).sum(axis=1)
    lengths = [len(e.ids) for e in ours._tokenizer.encode_batch(texts)]
    return {
        "texts": n_texts, "tokens_mean": round(statistics.mean(lengths), 1),
        "tokens_min": min(lengths), "tokens_max": max(lengths),
        "ours_items_per_s": round(n_texts / t_ours, 1),
        "chroma_items_per_s": round(n_texts / t_chroma, 1),
        "ratio": round(t_chroma / t_ours, 2), "min_cosine": float(cosine.min()),
    }


def write_synthetic_store(root: Path, n_items: int, seed: int = 11, event_share: float = 0.4) -> None:
    """n items as real memory files: (1 - event_share) item files, the rest journal events."""
    from lorestack.memory_layers.journal import render_event
    from lorestack.memory_layers.markdown import serialize_item
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import TYPE_FOLDERS, JournalEvent, MemoryItem, new_id

    Memory.init(root)
    mem_root = root / ".memory"
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    n_events = int(n_items * event_share)
    for n in range(n_items - n_events):
        item_type = _TYPES[n % len(_TYPES)]
        text = synthetic_text(rng)
        item = MemoryItem(id=new_id(item_type), type=item_type, title=text[:70], body=text,
                          created=start + timedelta(hours=n), updated=start + timedelta(hours=n))
        (mem_root / TYPE_FOLDERS[item_type] / f"{item.id}.md").write_text(serialize_item(item))
    days: dict[str, list[str]] = {}
    for n in range(n_events):
        when = start + timedelta(minutes=37 * n)
        event = JournalEvent(text=synthetic_text(rng), time=when, kind="progress")
        days.setdefault(when.date().isoformat(), []).append(render_event(event))
    for day, entries in days.items():
        (mem_root / "journal" / f"{day}.md").write_text(f"# Journal {day}\n\n" + "".join(entries))


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p50 = ordered[len(ordered) // 2]
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return round(p50, 2), round(p95, 2)


def search_latency(n_items: int, *, queries: int = 200, model_dir: str | None = None,
                   workdir: str | os.PathLike | None = None, seed: int = 3) -> dict:
    """Build a store of n items, reindex it, then time warm searches (in-process)."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    if model_dir:
        os.environ["LORESTACK_EMBEDDING__MODEL_DIR"] = str(model_dir)
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        os.environ.setdefault("LORESTACK_HOME", str(Path(tmp) / "home"))
        t0 = time.perf_counter()
        write_synthetic_store(root, n_items)
        write_s = time.perf_counter() - t0
        mem = Memory.open(root)
        index = MemoryIndex(mem, warn=lambda m: None)
        index.embedder()  # model load is not indexing work
        rss_before = _rss_mb()
        reset = _reset_peak_rss()
        t0 = time.perf_counter()
        report = index.rebuild()
        reindex_s = time.perf_counter() - t0
        peak = _peak_rss_mb()
        rng = random.Random(seed)
        qs = []
        for n in range(queries):
            kind = n % 4
            if kind == 0:
                qs.append(rng.choice(_COMPONENTS))
            elif kind == 1:
                qs.append(rng.choice(_ERRORS))
            elif kind == 2:
                qs.append(f"why does {rng.choice(_COMPONENTS)} use {rng.choice(_TECH)}")
            else:
                qs.append(f"what did we decide {rng.choice(_TAILS)}")
        for q in qs[:10]:
            index.search(q, k=10)  # warm: reader, HNSW, caches
        timings = {}
        for label, sync in (("with_sync", True), ("no_sync", False)):
            samples = []
            for q in qs:
                t0 = time.perf_counter()
                index.search(q + " ", k=10, sync=sync)  # trailing space: no query-vector cache hit
                samples.append((time.perf_counter() - t0) * 1000)
            timings[label] = _percentiles(samples)
        t0 = time.perf_counter()
        index.sync()  # a no-op sync: the cost every search pays when nothing changed
        noop_ms = (time.perf_counter() - t0) * 1000
        index.close()
        return {
            "items": n_items, "documents": report.total, "write_store_s": round(write_s, 2),
            "reindex_s": round(reindex_s, 2),
            "reindex_items_per_s": round(report.total / reindex_s, 1),
            "reindex_peak_rss_mb": round(peak, 1),
            "rss_before_reindex_mb": round(rss_before, 1), "peak_rss_reset": reset,
            "search_ms_p50": timings["with_sync"][0], "search_ms_p95": timings["with_sync"][1],
            "search_no_sync_ms_p50": timings["no_sync"][0],
            "search_no_sync_ms_p95": timings["no_sync"][1],
            "noop_sync_ms": round(noop_ms, 2), "queries": queries, "mode": "default (hybrid+decay)",
        }
