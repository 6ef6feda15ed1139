"""kill -9 a real `lorestack consolidate` at several points; a rerun must end in exactly the
state of an uninterrupted run (timestamps and run ids aside), with no duplicated claims."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml

from lorestack.consolidation.job import run_consolidation
from lorestack.memory_layers.markdown import serialize_item
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import MemoryItem, Source
from tests.conftest import run_cli
from tests.test_consolidation import SEED, seed

TODAY = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
OLD_BASE = TODAY - timedelta(days=120)  # past the 90-day TTL: days get archived too
RECENT = [
    ("ev-late0001", 0, 9, "decision", [], "Use Redis streams consumer groups named after services"),
    ("ev-late0002", 0, 10, "note", ["fact"], "The staging database listens on port 5433"),
]


def make_repo(path: Path) -> Memory:
    path.mkdir(parents=True, exist_ok=True)
    Memory.init(path)
    (path / ".memory" / "config.toml").write_text("[consolidation]\npending_review = false\n")
    mem = Memory.open(path)
    seed(mem, base=OLD_BASE, rows=SEED)
    seed(mem, base=TODAY - timedelta(days=1), rows=RECENT)
    stale = datetime(2023, 1, 1, tzinfo=timezone.utc)
    faded = MemoryItem(id="fact-faded001", type="fact", title="Sprint board lives in Trello",
                       created=stale, updated=stale, importance=0.3, confidence=0.6,
                       source=Source(kind="consolidation"))
    faded.body = faded.title
    (path / ".memory" / "facts" / "sprint-board.md").write_text(serialize_item(faded))
    return mem


def state_of(repo: Path) -> dict[str, object]:
    """Every memory file, items without their volatile fields (times, run id)."""
    root = repo / ".memory"
    out: dict[str, object] = {}
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(".index/") or any(part.startswith(".") for part in rel.split("/")):
            continue
        text = path.read_text("utf-8")
        if rel.startswith(("journal/", "archive/journal/")):
            out[rel] = text
            continue
        _, head, body = text.split("---\n", 2)
        data = yaml.safe_load(head)
        for volatile in ("created", "updated"):
            data.pop(volatile, None)
        data.get("source", {}).pop("run", None)
        out[rel] = (data, body)
    return out


@pytest.mark.slow  # a consolidation killed at five points, then rerun
def test_kill_dash_nine_anywhere_then_rerun_matches_an_uninterrupted_run(tmp_path):
    baseline_repo = tmp_path / "baseline" / "shop"
    baseline = run_consolidation(make_repo(baseline_repo))
    expected = state_of(baseline_repo)
    names = baseline.checkpoints
    assert baseline.superseded and baseline.archived_days and baseline.archived_items == ["fact-faded001"]
    assert "supersede:created" in names and names.count("plan") >= 3

    # after the first plan is on disk, between creating a superseding item and archiving the
    # old one, after a window's checkpoint, in the forgetting plan, and at the very end
    points = sorted({
        names.index("plan") + 1,
        names.index("supersede:created") + 1,
        names.index("state") + 1,
        len(names) - 2,
        len(names),
    })
    for point in points:
        repo = tmp_path / f"crash-{point}" / "shop"  # same name: same project.md
        make_repo(repo)
        killed = run_cli("consolidate", "--no-diff", cwd=repo,
                         env={"LORESTACK_CONSOLIDATE_CRASH_AT": str(point)})
        assert killed.returncode == -signal.SIGKILL, (point, killed.stderr)
        rerun = run_consolidation(Memory.open(repo))
        assert state_of(repo) == expected, f"state differs after kill -9 at point {point} ({names[point - 1]})"
        assert not (repo / ".memory" / ".index" / "consolidation" / "plan.json").exists()
        again = run_consolidation(Memory.open(repo))
        assert not again.changed and again.steps == [], point
        if point == names.index("supersede:created") + 1:
            assert rerun.resumed


def test_kill_after_a_random_delay_then_rerun(tmp_path):
    baseline_repo = tmp_path / "baseline" / "shop"
    run_consolidation(make_repo(baseline_repo))
    expected = state_of(baseline_repo)
    repo = tmp_path / "random" / "shop"
    make_repo(repo)
    process = subprocess.Popen(
        [sys.executable, "-m", "lorestack.cli", "consolidate", "--no-diff"], cwd=repo,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    time.sleep(random.uniform(0.5, 3.0))
    process.send_signal(signal.SIGKILL)
    process.wait()
    run_consolidation(Memory.open(repo))
    assert state_of(repo) == expected
