"""Hook latency benchmark: whole-process `hook session-start` and `hook prompt` on a big store.

`hook_latency(n_items, runs)` writes a synthetic store (facts, decisions, preferences, a few
dozen caveats and criteria, a month of journal) into a temporary folder, warms the loader
cache and builds the search index once, then times fresh `lorestack hook …` processes the
way a client starts them. It also reports the tokens a session start injects against the
tokens of every memory file (what pasting the whole memory would cost).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lorestack.memory_layers.models import EventKind, ItemType

_AREAS = ["billing", "auth", "search", "ingest", "exports", "notifications", "checkout",
          "reporting", "scheduler", "gateway", "profile", "inventory"]
_TECH = ["Postgres 16", "Redis 7", "Kafka", "Temporal", "FastAPI", "Celery", "gRPC", "S3",
         "OpenSearch", "Terraform", "ArgoCD", "Sentry", "pytest", "ruff", "mypy", "uv"]
_VERBS = ["uses", "must not call", "caches", "retries", "batches", "validates", "logs",
          "shards", "streams", "exports"]
_PROMPTS = ["why does the {a} service retry {t} calls?", "how do we deploy {a} changes?",
            "fix the flaky {a} test that talks to {t}", "add a field to the {a} export",
            "which queue does {a} use and why?", "what did we decide about {t} in {a}?"]


def _percentiles(values: list[float]) -> dict:
    ordered = sorted(values)
    q = statistics.quantiles(ordered, n=20, method="inclusive") if len(ordered) > 1 else ordered * 19
    return {"p50": round(statistics.median(ordered), 1), "p95": round(q[18], 1),
            "min": round(ordered[0], 1), "max": round(ordered[-1], 1)}


def build_store(root: Path, n_items: int, *, seed: int = 7, journal_days: int = 30,
                events_per_day: int = 20) -> Path:
    """A `.memory/` with `n_items` items and a month of journal (plain writes, no fsync)."""
    from lorestack.memory_layers.journal import render_event
    from lorestack.memory_layers.markdown import serialize_item
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import (
        TYPE_FOLDERS,
        AppliesTo,
        CriterionSpec,
        JournalEvent,
        MemoryItem,
        new_id,
        now_utc,
    )

    rng = random.Random(seed)
    repo = root / "repo"
    repo.mkdir(parents=True)
    Memory.init(repo)
    mem_root = repo / ".memory"
    now = now_utc()
    counts: list[tuple[ItemType, int]] = [("caveat", 30), ("criterion", 20), ("preference", 100),
                                          ("decision", max(0, n_items // 5)), ("fact", n_items)]
    kinds = [kind for kind, count in counts for _ in range(count)][:n_items]
    for n, kind in enumerate(kinds):
        area, tech, verb = rng.choice(_AREAS), rng.choice(_TECH), rng.choice(_VERBS)
        title = f"{area} {verb} {tech} ({n})"
        body = (f"The {area} service {verb} {tech}. Decided after the incident on "
                f"{area}-{rng.randint(100, 999)}; see docs/{area}/{tech.split()[0].lower()}.md. "
                f"Owner: team-{rng.choice(_AREAS)}.")
        crit = (CriterionSpec(applies_to=AppliesTo(keywords=[area]), forbid=[tech.lower()],
                              condition=f"{area} code must not add {tech}", verdict="warn")
                if kind == "criterion" else None)
        when = now - timedelta(days=rng.randint(0, 400))
        item = MemoryItem(id=new_id(kind), type=kind, title=title, body=body, created=when,
                          updated=when, importance=round(rng.random(), 2), criterion=crit)
        (mem_root / TYPE_FOLDERS[kind] / f"{kind}-{n:05d}.md").write_text(serialize_item(item), "utf-8")
    for day in range(journal_days):
        date = (now - timedelta(days=day)).date()
        with open(mem_root / "journal" / f"{date.isoformat()}.md", "w", encoding="utf-8") as fh:
            fh.write(f"# Journal {date.isoformat()}\n\n")
            for e in range(events_per_day):
                when = datetime(date.year, date.month, date.day, 9, tzinfo=timezone.utc) + timedelta(minutes=20 * e)
                kinds_of_event: list[EventKind] = [
                    "progress", "discussion", "todo", "note", "rejected", "blocker"]
                event_kind = rng.choice(kinds_of_event)
                text = (f"{event_kind}: {rng.choice(_AREAS)} work on {rng.choice(_TECH)}; "
                        f"ticket {rng.choice(_AREAS).upper()}-{rng.randint(100, 9999)}")
                fh.write(render_event(JournalEvent(kind=event_kind, text=text, time=when)))
    return repo


def _run_hook(event: str, payload: dict, repo: Path, env: dict) -> tuple[float, str]:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "lorestack.cli", "hook", event, "--client",
                           "claude-code"], input=json.dumps(payload), capture_output=True,
                          text=True, cwd=repo, env=env, timeout=120, check=False)
    return (time.perf_counter() - started) * 1000, proc.stdout


def hook_latency(n_items: int = 10_000, runs: int = 20, *, seed: int = 7,
                 index: bool = True, keep_dir: str | None = None) -> dict:
    """Time whole-process hooks on a store of `n_items` items; see the module docstring."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.tokens import count_tokens

    root = Path(keep_dir) if keep_dir else Path(tempfile.mkdtemp(prefix="lorestack-bench-hooks-"))
    try:
        t0 = time.perf_counter()
        repo = build_store(root, n_items, seed=seed)
        build_s = time.perf_counter() - t0
        env = {**os.environ, "LORESTACK_HOME": str(root / "home"), "LORESTACK_ROOT": "",
               # time the work, not the deadline: a slow run must show up, not be cut off
               "LORESTACK_HOOKS__DEADLINE_MS": "60000", "LORESTACK_HOOKS__PROMPT_DEADLINE_MS": "60000",
               # today's in-process figures; `bench.service` measures the resident service
               "LORESTACK_SERVICE__ENABLED": "false"}
        env.pop("LORESTACK_ROOT")
        mem = Memory.open(repo, home=root / "home")
        encoding = mem.settings.tokens.encoding
        index_s = None
        if index:
            from lorestack.retrieval.index import MemoryIndex

            t0 = time.perf_counter()
            idx = MemoryIndex(mem, warn=lambda m: None)
            idx.sync()
            idx.close()
            index_s = time.perf_counter() - t0
        payload = {"cwd": str(repo), "hook_event_name": "SessionStart", "source": "startup"}
        cold_ms, _ = _run_hook("session-start", {**payload, "session_id": "warmup"}, repo, env)
        starts, context = [], ""
        for i in range(runs):
            ms, out = _run_hook("session-start", {**payload, "session_id": f"bench-{i}"}, repo, env)
            starts.append(ms)
            context = out
        injected = json.loads(context)["hookSpecificOutput"]["additionalContext"] if context.strip() else ""
        prompts = []
        rng = random.Random(seed)
        for i in range(runs):
            text = rng.choice(_PROMPTS).format(a=rng.choice(_AREAS), t=rng.choice(_TECH))
            ms, _ = _run_hook("prompt", {"cwd": str(repo), "session_id": f"prompt-{i}",
                                         "hook_event_name": "UserPromptSubmit", "prompt": text},
                              repo, env)
            prompts.append(ms)
        files = [p for p in (repo / ".memory").rglob("*.md") if ".index" not in p.parts]
        total = sum(count_tokens(p.read_text("utf-8"), encoding) for p in files)
        injected_tokens = count_tokens(injected, encoding)
        return {
            "n_items": n_items, "runs": runs, "memory_files": len(files),
            "store_build_s": round(build_s, 2), "index_build_s": round(index_s, 1) if index_s else None,
            "session_start_first_ms": round(cold_ms, 1),
            "session_start_ms": _percentiles(starts),
            "prompt_ms": _percentiles(prompts),
            "session_start_tokens": injected_tokens, "memory_file_tokens": total,
            "saving": round(1 - injected_tokens / total, 5) if total else None,
            "encoding": encoding,
        }
    finally:
        if not keep_dir:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":  # pragma: no cover - `python -m lorestack.bench.hooks N RUNS`
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    r = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(json.dumps(hook_latency(n, r), indent=2))
