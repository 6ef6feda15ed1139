"""Server time of the viewer's pages on a large synthetic store (`lorestack bench viewer`).

Builds a store of n item files (plus journal events, pending claims, criteria and one 1 MB
item) in a temporary folder, serves the viewer in-process (Starlette's test client, no
network) and reads each page's own `Server-Timing`: the time the server spent, without the
browser. The first request pays the one-off parse of every file; later ones a stat sweep.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

PAGES = [
    ("overview", "/"),
    ("items page 1", "/items"),
    ("items page 100", "/items?page=100"),
    ("items filtered", "/items?type=decision&status=active&page=20"),
    ("item", "/items/{item}"),
    ("item 1 MB body", "/items/{big}"),
    ("unknown id (404)", "/items/no-such-id"),
    ("journal", "/journal"),
    ("journal page 5", "/journal?page=5"),
    ("review", "/review"),
    ("criteria", "/criteria"),
    ("criteria + check", "/criteria?proposal=Add+a+crontab+entry+for+the+one-off+backfill"),
    ("context (no query)", "/context"),
]
SEARCH_PAGES = [
    ("context + query", "/context?query=why+does+OrderQueue+use+Redis&budget=2000"),
    ("search (explain)", "/search?q=why+does+OrderQueue+use+Redis"),
]


def _seed_extras(root: Path, pending: int) -> dict:
    """Pending claims, criteria and a 1 MB item on top of the synthetic store."""
    from lorestack.memory_layers.markdown import serialize_item
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec, MemoryItem, Source, new_id

    mem_root = root / ".memory"
    ids = {}
    for n in range(pending):
        item = MemoryItem(
            id=new_id("decision"),
            type="decision",
            status="pending",
            title=f"Proposed decision number {n}",
            body=f"Proposed decision number {n}",
            confidence=0.6,
            source=Source(kind="consolidation", events=[]),
        )
        (mem_root / "decisions" / f"{item.id}.md").write_text(serialize_item(item))
    for n in range(20):
        spec = CriterionSpec(
            applies_to=AppliesTo(keywords=[f"one-off-{n}", "one-off"]),
            forbid=["cron"],
            verdict="warn" if n % 2 else "block",
        )
        item = MemoryItem(
            id=new_id("criterion"),
            type="criterion",
            title=f"Criterion {n}",
            body=f"No cron for one-off task kind {n}",
            criterion=spec,
        )
        (mem_root / "criteria" / f"{item.id}.md").write_text(serialize_item(item))
    big = MemoryItem(
        id=new_id("fact"), type="fact", title="A 1 MB item", body="lorem ipsum dolor " * 58255
    )
    (mem_root / "facts" / f"{big.id}.md").write_text(serialize_item(big))
    ids["big"] = big.id
    return ids


def measure_viewer(
    n_items: int = 10_000,
    *,
    runs: int = 5,
    with_search: bool = False,
    workdir: str | os.PathLike | None = None,
) -> dict:
    """Per page: the server time (ms) of `runs` warm requests — median and max."""
    from starlette.testclient import TestClient

    from lorestack.bench.search import write_synthetic_store
    from lorestack.integrations.viewer import create_app
    from lorestack.memory_layers.memory import Memory

    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        os.environ.setdefault("LORESTACK_HOME", str(Path(tmp) / "home"))
        events = max(1, n_items // 4)
        t0 = time.perf_counter()
        write_synthetic_store(root, n_items + events, event_share=events / (n_items + events))
        ids = _seed_extras(root, pending=50)
        write_s = time.perf_counter() - t0
        mem = Memory.open(root)
        if with_search:
            from lorestack.retrieval.index import MemoryIndex

            index = MemoryIndex(mem, warn=lambda m: None)
            try:
                index.rebuild()
            finally:
                index.close()
        token = "bench"
        app = create_app(mem, token, run_doctor=False)
        client = TestClient(app, base_url="http://127.0.0.1:9")
        client.cookies.set("lorestack_ui_9", token)

        def server_ms(path: str) -> float:
            response = client.get(path)
            if response.status_code >= 500:
                raise RuntimeError(f"{path}: HTTP {response.status_code}")
            timing = response.headers["server-timing"]
            return float(timing.split("dur=")[1])

        t0 = time.perf_counter()
        cold_ms = server_ms("/items")
        first_wall_s = time.perf_counter() - t0
        snapshot = app.state.inventory.snapshot()
        sample = next(
            s.id for s in snapshot.items if s.type == "fact" and s.id not in (ids["big"], "project")
        )
        results: dict[str, dict] = {}
        pages = PAGES + (SEARCH_PAGES if with_search else [])
        for label, path in pages:
            path = path.format(item=sample, big=ids["big"])
            server_ms(path)  # warm: templates compiled, index opened, caches filled
            samples = [server_ms(path) for _ in range(runs)]
            results[label] = {
                "path": path,
                "median_ms": round(statistics.median(samples), 1),
                "max_ms": round(max(samples), 1),
            }
        app.state.close()
        return {
            "items": len(snapshot.items),
            "events": events,
            "write_store_s": round(write_s, 1),
            "first_request_ms": round(cold_ms, 1),
            "first_request_wall_s": round(first_wall_s, 2),
            "full_sweep_ms": round(app.state.inventory.last_full_sweep_s * 1000, 1),
            "runs": runs,
            "pages": results,
        }
