"""An item consolidation wrote and a person then edited is theirs: a later run never
supersedes it without review, and a plan made before the edit (left by a crash) does not
apply to it on resume. Through litellm's real HTTP path to the scripted local server."""

from __future__ import annotations

from datetime import timedelta

import pytest

from lorestack.consolidation.checkpoint import Checkpoint, CrashPoints
from lorestack.consolidation.job import run_consolidation
from tests.test_consolidation import BASE, SEED, items_by_id, seed
from tests.test_consolidation_llm import direct_mem, responder

PG = [row for row in SEED if row[0].startswith("ev-pg")]
REDIS = [row for row in SEED if row[0].startswith("ev-rd")]
EDIT = "\n\nBenchmarked by hand on 2026-11-30: fine up to 2k jobs/s, keep it.\n"


def _pg_item(repo):
    """Run once on the PostgreSQL days: one machine-written decision."""
    mem = direct_mem(repo)
    seed(mem, rows=PG)
    run_consolidation(mem, now=BASE + timedelta(days=3))
    items = [li for li in direct_mem(repo).load_items().items if li.item.id != "project"]
    assert len(items) == 1 and items[0].item.title == "Job queue on PostgreSQL"
    return items[0]


def _edit_by_hand(path) -> None:
    path.write_text(path.read_text("utf-8") + EDIT, "utf-8")


def _live_and_kept(repo, item_id: str) -> None:
    items = items_by_id(direct_mem(repo))
    assert items[item_id].status == "active", items[item_id].status
    assert "Benchmarked by hand" in items[item_id].body


def test_a_hand_edited_machine_item_is_not_superseded_without_review(repo, fake_llm):
    fake_llm(responder=responder)
    loaded = _pg_item(repo)
    _edit_by_hand(loaded.path)
    mem = direct_mem(repo)
    seed(mem, rows=REDIS)
    report = run_consolidation(mem, now=BASE + timedelta(days=6))
    assert not report.superseded, report.steps
    _live_and_kept(repo, loaded.item.id)
    pending = [i for i in items_by_id(direct_mem(repo)).values() if i.status == "pending"]
    assert [i.title for i in pending] == ["Job queue on Redis streams"], report.steps


def test_an_untouched_machine_item_is_still_superseded(repo, fake_llm):
    fake_llm(responder=responder)
    loaded = _pg_item(repo)
    mem = direct_mem(repo)
    seed(mem, rows=REDIS)
    report = run_consolidation(mem, now=BASE + timedelta(days=6))
    assert [s["old"] for s in report.superseded] == [loaded.item.id], report.steps


class _Crash(Exception):
    pass


def test_a_plan_left_by_a_crash_skips_an_item_edited_before_the_resume(
    repo, fake_llm, monkeypatch
):
    fake_llm(responder=responder)
    loaded = _pg_item(repo)
    mem = direct_mem(repo)
    seed(mem, rows=REDIS)
    original = CrashPoints.__call__

    def crash_after_plan(self, name: str) -> None:
        original(self, name)
        if name == "plan":
            raise _Crash  # the process dies once the plan is on disk
    monkeypatch.setattr(CrashPoints, "__call__", crash_after_plan)
    with pytest.raises(_Crash):
        run_consolidation(mem, now=BASE + timedelta(days=6))
    monkeypatch.setattr(CrashPoints, "__call__", original)
    plan = Checkpoint(mem.require_project().paths).load_plan()
    assert plan is not None and [a.op for a in plan.actions] == ["supersede"]

    _edit_by_hand(loaded.path)  # the user edits the item before the next run resumes
    report = run_consolidation(direct_mem(repo), now=BASE + timedelta(days=6))
    assert not report.superseded, report.steps
    assert any("edited after this step was planned" in s for s in report.steps), report.steps
    _live_and_kept(repo, loaded.item.id)


def test_a_forget_plan_left_by_a_crash_skips_an_item_confirmed_before_the_resume(
    repo, monkeypatch
):
    from lorestack.memory_layers.markdown import serialize_item
    from lorestack.memory_layers.models import MemoryItem, Source

    stale = BASE - timedelta(days=900)
    faded = MemoryItem(id="fact-faded001", type="fact", title="Sprint board lives in Trello",
                       created=stale, updated=stale, importance=0.3, confidence=0.6,
                       source=Source(kind="consolidation"))
    faded.body = faded.title
    path = repo / ".memory" / "facts" / "sprint-board.md"
    path.write_text(serialize_item(faded))
    original = Checkpoint.save_plan

    def crash_after_forget_plan(self, plan) -> None:
        original(self, plan)
        if plan.stage == "forget":
            raise _Crash
    monkeypatch.setattr(Checkpoint, "save_plan", crash_after_forget_plan)
    with pytest.raises(_Crash):
        run_consolidation(direct_mem(repo), now=BASE)
    monkeypatch.setattr(Checkpoint, "save_plan", original)

    # the user confirms the item by hand (their own, at full confidence) before the resume
    text = path.read_text("utf-8").replace("kind: consolidation", "kind: user")
    path.write_text(text.replace("confidence: 0.6", "confidence: 1.0"), "utf-8")
    report = run_consolidation(direct_mem(repo), now=BASE)
    assert not report.archived_items, report.steps
    assert any("edited after this step was planned" in s for s in report.steps), report.steps
    assert items_by_id(direct_mem(repo))["fact-faded001"].status == "active"
