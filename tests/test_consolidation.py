"""Consolidation on the extractive path (no model): claims, supersede chain, idempotence,
review, protection of human items, forgetting, dry run, lock, CLI."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.consolidation.checkpoint import Checkpoint, RunLocked
from lorestack.consolidation.job import run_consolidation
from lorestack.memory_layers.markdown import serialize_item
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import MemoryItem, Source
from lorestack.memory_layers.operations import log_event, remember

BASE = datetime(2026, 1, 5, 10, 0, tzinfo=timezone.utc)

# (event id, day offset, hour, kind, tags, text)
SEED = [
    ("ev-pg000001", 0, 10, "decision", [], "We will use PostgreSQL for the job queue"),
    ("ev-noise001", 0, 11, "progress", [], "Ran the test suite, all green"),
    ("ev-pg000002", 1, 9, "decision", [],
     "Decided: the job queue stays on PostgreSQL because we already run it"),
    ("ev-noise002", 1, 12, "note", [], "Lunch discussion about the new office coffee machine"),
    ("ev-pg000003", 2, 15, "decision", [], "Confirmed again: PostgreSQL is our job queue backend"),
    ("ev-noise003", 3, 8, "todo", [], "Update the changelog before Friday"),
    ("ev-rd000001", 4, 10, "decision", [],
     "Switch the job queue from PostgreSQL to Redis streams; Postgres locks hurt throughput"),
    ("ev-css00001", 4, 11, "note", ["fact"], "The CSS build uses tailwind via postcss"),
]


def seed(mem: Memory, base: datetime = BASE, rows=SEED) -> None:
    for event_id, day, hour, kind, tags, text in rows:
        when = base.replace(hour=hour) + timedelta(days=day)
        log_event(mem, text, kind, tags=tags, time=when, event_id=event_id)


def open_mem(repo: Path, **overrides) -> Memory:
    return Memory.open(repo, **overrides)


def items_by_id(mem: Memory) -> dict[str, MemoryItem]:
    return {li.item.id: li.item for li in mem.load_items().items if li.item.id != "project"}


@pytest.fixture
def direct(repo):
    """Memory with review off: claims apply directly."""
    return open_mem(repo, **{"consolidation.pending_review": False})


def test_seeded_journal_consolidates_into_claims_with_supersede_chain(direct, repo):
    seed(direct)
    report = run_consolidation(direct, now=BASE + timedelta(days=6))
    items = items_by_id(direct)
    pg = next(i for i in items.values() if "We will use PostgreSQL" in i.title)
    redis = next(i for i in items.values() if "Redis streams" in i.title)
    css = next(i for i in items.values() if "tailwind" in i.title)
    assert len(items) == 3  # noise (progress, chatter, a lone todo) became nothing
    # repeated mentions merged into one claim, citing all three events
    assert pg.source.events == ["ev-pg000001", "ev-pg000002", "ev-pg000003"]
    assert pg.importance > 0.5 and pg.confidence < 1.0 and pg.source.kind == "consolidation"
    # the later contradicting decision supersedes it; the old one is archived, linked both ways
    assert redis.supersedes == [pg.id] and pg.superseded_by == redis.id
    assert pg.status == "archived" and redis.status == "active"
    assert (repo / ".memory" / "archive" / "decisions").is_dir()
    assert redis.source.events == ["ev-rd000001"] and css.type == "fact"
    assert redis.type == "decision"
    assert sorted(report.added) == sorted([pg.id, css.id])
    assert report.superseded == [{"new": redis.id, "old": pg.id}]
    assert len(report.merged) == 2 and report.method == "extractive"
    assert "+++ b/archive/decisions/we-will-use-postgresql-for-the-job-queue.md" in report.diff
    assert "+superseded_by: " + redis.id in report.diff

    before = {p: p.read_bytes() for p in (repo / ".memory").rglob("*.md")}
    second = run_consolidation(direct, now=BASE + timedelta(days=6))
    assert not second.changed and second.events_considered == 0 and second.steps == []
    assert {p: p.read_bytes() for p in (repo / ".memory").rglob("*.md")} == before


def test_same_day_reversal_is_split_into_a_chain(direct):
    rows = [("ev-a", 0, 9, "decision", [], "We will use PostgreSQL for the job queue"),
            ("ev-b", 0, 10, "decision", [], "Job queue: use PostgreSQL"),
            ("ev-c", 0, 16, "decision", [],
             "Use Redis streams for the job queue instead of PostgreSQL")]
    seed(direct, rows=rows)
    report = run_consolidation(direct, now=BASE + timedelta(days=1))
    assert report.windows == 1 and len(report.superseded) == 1
    items = items_by_id(direct)
    new = items[report.superseded[0]["new"]]
    assert "Redis" in new.title and items[report.superseded[0]["old"]].status == "archived"


def test_pending_review_then_accept_and_reject(repo):
    mem = open_mem(repo)  # default: machine claims wait for review
    seed(mem)
    report = run_consolidation(mem, now=BASE + timedelta(days=6))
    assert report.superseded == [] and len(report.proposed) == 1
    items = items_by_id(mem)
    assert all(i.status == "pending" for i in items.values())
    runner = CliRunner()
    listed = json.loads(runner.invoke(cli, ["review", "--json"]).output)["pending"]
    proposal = next(p for p in listed if p["replaces"])
    old_id = proposal["replaces"]
    assert "Redis" in proposal["title"]
    accepted = runner.invoke(cli, ["review", "accept", old_id, proposal["id"]])
    assert accepted.exit_code == 0, accepted.output
    items = items_by_id(mem)
    assert items[proposal["id"]].status == "active"
    assert items[proposal["id"]].supersedes == [old_id]
    assert items[old_id].status == "archived" and items[old_id].superseded_by == proposal["id"]
    css = next(p for p in listed if "tailwind" in p["title"])
    rejected = runner.invoke(cli, ["review", "reject", css["id"], "--reason", "not durable"])
    assert rejected.exit_code == 0, rejected.output
    assert items_by_id(mem)[css["id"]].status == "archived"
    # rejected claims are not proposed again by a later run over the same events
    again = run_consolidation(mem, since=BASE.date(), now=BASE + timedelta(days=6))
    assert again.added == [] and again.proposed == [] and not again.changed
    assert runner.invoke(cli, ["review"]).output.strip() == "nothing waits for review"


def test_human_items_are_never_overwritten(direct):
    human = remember(direct, "We will use PostgreSQL for the job queue", "decision").item
    seed(direct, rows=[("ev-r1", 0, 10, "decision", [],
                        "Switch the job queue from PostgreSQL to Redis streams")])
    report = run_consolidation(direct, now=BASE + timedelta(days=1))
    assert report.superseded == [] and len(report.proposed) == 1
    items = items_by_id(direct)
    assert items[human.id].status == "active" and items[human.id].body == human.body
    proposal = items[report.proposed[0]]
    assert proposal.status == "pending"
    assert proposal.model_extra["proposed_supersedes"] == human.id


def test_agreeing_claim_never_changes_a_human_item_without_review(direct):
    """Issue 24: a claim merged into a person's item without review. Now the merge waits as a
    proposal; accepting it adds the events as evidence and leaves the person's text alone."""
    from lorestack.consolidation.review import accept, list_pending

    human = remember(direct, "We use PostgreSQL for the job queue.", "decision").item
    seed(direct, rows=[("ev-h1", 0, 10, "decision", [], "We will use PostgreSQL for the job queue")])
    report = run_consolidation(direct, now=BASE + timedelta(days=1))
    assert report.merged == [] and report.added == [] and len(report.proposed) == 1
    before = items_by_id(direct)[human.id]
    assert before.source.events == [] and before.body == human.body
    pending = list_pending(direct)
    assert [p.merges_into for p in pending] == [human.id]
    accept(direct, [pending[0].id])
    item = items_by_id(direct)[human.id]
    assert item.body == human.body and item.confidence == 1.0 and item.source.kind == "user"
    assert item.source.events == ["ev-h1"]
    assert list_pending(direct) == []


def _write_item(mem: Memory, item: MemoryItem) -> Path:
    folder = mem.project.root / {"fact": "facts", "caveat": "caveats", "decision": "decisions"}[item.type]
    path = folder / f"{item.id}.md"
    path.write_text(serialize_item(item), "utf-8")
    return path


def test_forgetting_archives_old_days_and_faded_items_never_deletes(direct):
    now = BASE + timedelta(days=400)
    old = [("ev-old1", 0, 9, "progress", [], "Ran the migrations on staging"),
           ("ev-old2", 0, 10, "progress", [], "Benchmarked the importer")]
    seed(direct, rows=old)
    seed(direct, base=now - timedelta(days=2),
         rows=[("ev-new1", 0, 9, "progress", [], "Reviewed the pull request for search")])
    stale = datetime(2024, 1, 1, tzinfo=timezone.utc)
    common = {"created": stale, "updated": stale, "importance": 0.3, "confidence": 0.6,
              "source": Source(kind="consolidation")}
    faded = MemoryItem(id="fact-faded001", type="fact", title="Old sprint board is in Trello", **common)
    caveat = MemoryItem(id="cav-keep0001", type="caveat", title="Never deploy on Fridays", **common)
    human = MemoryItem(id="fact-human001", type="fact", title="The repo uses trunk-based flow",
                       created=stale, updated=stale, importance=0.3)
    for item in (faded, caveat, human):
        item.body = item.title
        _write_item(direct, item)
    report = run_consolidation(direct, now=now)
    assert report.archived_days == ["2026-01-05.md"]
    assert report.archived_items == ["fact-faded001"]
    root = direct.project.root
    assert (root / "archive" / "journal" / "2026-01-05.md").is_file()
    assert not (root / "journal" / "2026-01-05.md").exists()
    archived = (root / "archive" / "journal" / "2026-01-05.md").read_text()
    assert "ev-old1" in archived and "ev-old2" in archived  # moved whole, not rewritten
    items = items_by_id(direct)
    assert items["fact-faded001"].status == "archived"
    assert "faded" in items["fact-faded001"].model_extra["archived_reason"]
    assert items["cav-keep0001"].status == "active" and items["fact-human001"].status == "active"
    assert len(list((root / "journal").glob("*.md"))) == 1  # the recent day stays


def test_old_day_with_a_damaged_entry_stays_for_a_person(direct):
    now = BASE + timedelta(days=200)
    seed(direct, rows=[("ev-x1", 0, 9, "progress", [], "Did some work")])
    day = direct.project.journal_dir / "2026-01-05.md"
    with open(day, "a", encoding="utf-8") as fh:  # a torn entry: no closing marker
        fh.write('<!-- lorestack:event {"schema": 1, "id": "ev-torn", "kind": "note"} -->\nhalf\n')
    report = run_consolidation(direct, now=now)
    assert report.archived_days == [] and day.exists()
    assert any("ev-torn" in note for note in report.notes)


def test_dry_run_writes_nothing_and_shows_the_diff(direct, repo):
    seed(direct)
    def files():  # lock files are the only thing a dry run may leave
        return {p: p.read_bytes() for p in (repo / ".memory").rglob("*")
                if p.is_file() and p.suffix != ".lock"}

    before = files()
    report = run_consolidation(direct, dry_run=True, now=BASE + timedelta(days=6))
    after = files()
    assert before == after
    assert report.dry_run and len(report.superseded) == 1
    assert "+title: Switch the job queue" in report.diff


def test_one_run_at_a_time(direct):
    with Checkpoint(direct.project).lock(), pytest.raises(RunLocked):
        run_consolidation(direct)


def test_cli_consolidate_json_and_text(repo):
    mem = open_mem(repo)
    seed(mem)
    runner = CliRunner()
    dry = runner.invoke(cli, ["consolidate", "--dry-run", "--json"])
    assert dry.exit_code == 0, dry.output
    data = json.loads(dry.output)
    assert data["dry_run"] and data["changed"] and data["method"] == "extractive"
    real = runner.invoke(cli, ["consolidate", "--no-diff"])
    assert real.exit_code == 0, real.output
    assert "proposed 1" in real.output and "superseded 0" in real.output
    again = runner.invoke(cli, ["consolidate"])
    assert "nothing changed" in again.output
    bad = runner.invoke(cli, ["consolidate", "--since", "yesterday"])
    assert bad.exit_code != 0 and "YYYY-MM-DD" in bad.output


def test_git_commit_of_memory(direct, repo):
    import subprocess

    def git(*args):
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                              check=False)

    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (repo / "app.py").write_text("print(1)\n")
    seed(direct)
    git("add", "-A")
    git("commit", "-q", "-m", "seed")
    (repo / "app.py").write_text("print(2)\n")  # the user's own change must stay uncommitted
    report = run_consolidation(direct, now=BASE + timedelta(days=6), commit=True)
    assert report.commit and "git: committed" in report.notes
    shown = git("show", "--name-only", "--format=%s", "HEAD").stdout
    assert "lorestack consolidate" in shown and ".memory/decisions" in shown
    assert "app.py" not in shown and "M app.py" in git("status", "--short").stdout
    fm = yaml.safe_load(git("show", "HEAD:.memory/facts/the-css-build-uses-tailwind-via-postcss.md")
                        .stdout.split("---")[1])
    assert fm["source"]["events"] == ["ev-css00001"]


def test_average_linkage_matches_hand_computed_upgma():
    """Two tight pairs and a loner; the pairs join at 0.15 average, the loner stays alone."""
    import numpy as np

    from lorestack.consolidation.cluster import average_linkage_labels

    d = np.array([
        [0.0, 0.1, 0.9, 0.9, 0.95],
        [0.1, 0.0, 0.9, 0.9, 0.95],
        [0.9, 0.9, 0.0, 0.2, 0.95],
        [0.9, 0.9, 0.2, 0.0, 0.95],
        [0.95, 0.95, 0.95, 0.95, 0.0],
    ])

    def groups(labels):
        out = {}
        for i, label in enumerate(labels):
            out.setdefault(int(label), []).append(i)
        return sorted(out.values())

    assert groups(average_linkage_labels(d, 0.5)) == [[0, 1], [2, 3], [4]]
    # average linkage: {0,1} to {2,3} is 0.9, so at 0.91 they join but 4 (0.95) does not
    assert groups(average_linkage_labels(d, 0.91)) == [[0, 1, 2, 3], [4]]
    assert groups(average_linkage_labels(d, 0.05)) == [[0], [1], [2], [3], [4]]
    # single linkage would chain through the closest member; average linkage must not:
    chain = np.array([[0.0, 0.3, 0.9], [0.3, 0.0, 0.35], [0.9, 0.35, 0.0]])
    assert groups(average_linkage_labels(chain, 0.4)) == [[0, 1], [2]]
