"""Shared set-up for the viewer tests: a realistic memory, a served viewer, a system browser."""

from __future__ import annotations

import os
import shutil
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import AppliesTo, CriterionSpec
from lorestack.memory_layers.operations import log_event, remember

HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'


def artifacts_dir() -> Path:
    """Where screenshots go: $LORESTACK_TEST_ARTIFACTS, else a folder under the temp dir."""
    env = os.environ.get("LORESTACK_TEST_ARTIFACTS")
    path = Path(env) if env else Path(tempfile.gettempdir()) / "lorestack-viewer-artifacts"
    path.mkdir(parents=True, exist_ok=True)
    return path


def system_browser() -> str | None:
    """Debian's chromium (or $LORESTACK_TEST_CHROMIUM); Playwright never downloads one here."""
    env = os.environ.get("LORESTACK_TEST_CHROMIUM")
    if env:
        return env if Path(env).is_file() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def seed_memory(repo: Path) -> dict:
    """A project memory with every page's material: items, criteria, journal, pending claims."""
    from lorestack.consolidation.job import run_consolidation

    Memory.init(repo)
    mem = Memory.open(repo)
    ids = {}
    ids["decision"] = remember(mem, "We will use PostgreSQL for the job queue", "decision").item.id
    ids["caveat"] = remember(mem, "Never run migrations on Friday afternoons", "caveat").item.id
    ids["fact"] = remember(
        mem,
        "Search uses OpenSearch 2.x behind the catalog service",
        "fact",
        tags=["search", "infra"],
    ).item.id
    ids["hostile"] = remember(
        mem,
        f"Template note {HOSTILE}\n\nBody says {HOSTILE} too",
        "fact",
        title=f"Hostile {HOSTILE}",
    ).item.id
    spec = CriterionSpec(
        applies_to=AppliesTo(keywords=["one-off", "run once"]),
        forbid=["cron", "crontab"],
        verdict="block",
        rationale="one-off cron entries get forgotten and fire for years",
    )
    ids["criterion"] = remember(
        mem, "No cron jobs for one-off tasks", "criterion", criterion=spec
    ).item.id
    now = datetime.now(timezone.utc).replace(microsecond=0)
    rows = [
        (3, "progress", "s-alpha", [], "Set up the staging database"),
        (3, "discussion", "s-alpha", [], "Talked about moving the job queue off PostgreSQL"),
        (2, "rejected", "s-beta", [], "Rejected Kafka: too heavy for our volume"),
        (
            1,
            "decision",
            "s-gamma",
            [],
            "Switch the job queue from PostgreSQL to Redis streams; Postgres locks hurt throughput",
        ),
        (1, "note", "s-gamma", ["fact"], "The CSS build uses tailwind via postcss"),
        (0, "todo", "s-delta", [], "fix the flaky checkout test"),
        (0, "blocker", "s-delta", [], "staging credentials expired, waiting on ops"),
    ]
    for days, kind, session, tags, text in rows:
        log_event(
            mem, text, kind, tags=tags, session=session, time=now - timedelta(days=days, hours=1)
        )
    run_consolidation(mem, now=now)
    return ids


def pending_claims(repo: Path) -> list:
    from lorestack.consolidation.review import list_pending

    return list_pending(Memory.open(repo))
