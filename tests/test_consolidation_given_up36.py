"""A cluster the model never answers validly, and the count of what waits (session 36),
through litellm's real HTTP path to a scripted server on 127.0.0.1."""

from __future__ import annotations

import json
from datetime import timedelta

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.consolidation.checkpoint import Checkpoint
from lorestack.consolidation.job import run_consolidation
from lorestack.memory_layers.models import now_utc
from tests.test_consolidation import items_by_id, seed
from tests.test_consolidation_llm import _prompt, direct_mem, responder

# two topics on one day: each a cluster of its own, each worth a claim
TWO = [("ev-pg000001", 0, 10, "decision", [], "We will use PostgreSQL for the job queue"),
       ("ev-css00001", 0, 11, "note", ["fact"], "The CSS build uses tailwind via postcss")]


def _bad_for_css(request: dict) -> str:
    """A model that answers the CSS cluster with broken JSON, every time."""
    if "tailwind" in _prompt(request).split("Existing items")[0]:
        return '{"claim": "The CSS build uses tailwind", "cited_events": ['
    return responder(request)


def _cited(mem) -> set[str]:
    return {e for item in items_by_id(mem).values() for e in item.source.events}


def test_a_cluster_given_up_is_told_on_every_run_and_can_be_asked_again(repo, fake_llm):
    """Before: after max_failures (3) nights of broken replies the CSS cluster was 'dropped'
    once, in that night's report, and never asked about again: no later report named it, no
    option brought it back (its day was even archived as consolidated after 90 days, the cluster's events in it)."""
    server = fake_llm(responder=_bad_for_css)
    base = (now_utc() - timedelta(days=5)).replace(hour=0, minute=0, second=0, microsecond=0)
    seed(direct_mem(repo), base=base, rows=TWO)
    day = direct_mem(repo).project.journal_dir / f"{base.date().isoformat()}.md"
    late = base + timedelta(days=91)  # the nights run past the day's 90 days (its archive TTL)
    for night in (1, 2, 3):
        report = run_consolidation(direct_mem(repo), now=late + timedelta(days=night))
    assert "ev-pg000001" in _cited(direct_mem(repo)) and "ev-css00001" not in _cited(direct_mem(repo))
    assert report.skipped[0].final and "--retry-dropped" in report.skipped[0].reason
    assert day.exists() and report.archived_days == []  # its given-up cluster waits in it
    # a later night, nothing new: the report still says what was given up, and how to retry
    later = CliRunner().invoke(cli, ["consolidate", "--json", "--no-commit"])
    given_up = json.loads(later.stdout)["given_up"]
    assert [row["events"] for row in given_up] == [["ev-css00001"]], given_up
    text = CliRunner().invoke(cli, ["consolidate", "--no-diff", "--no-commit"]).output
    assert "given up: 1 event(s)" in text and "--retry-dropped" in text, text
    assert day.exists()
    calls = len(server.requests)
    server.responder = responder  # a better model
    retried = run_consolidation(direct_mem(repo), now=late + timedelta(days=4), retry_dropped=True,
                                commit=False)
    assert retried.retried == 1 and retried.given_up == [] and len(server.requests) == calls + 1
    assert len(retried.added + retried.proposed) == 1, retried
    assert "ev-css00001" in _cited(direct_mem(repo))
    assert Checkpoint(direct_mem(repo).project).load_state().dropped == {}
    assert not day.exists() and retried.archived_days, retried.archived_days  # consolidated now


def test_the_count_of_what_waits_includes_a_skipped_clusters_events(repo, fake_llm):
    """Before: 'stopped early: …; N event(s) wait' counted only the clusters after the stop,
    not a cluster skipped before it (whose events wait just the same), and a run that skipped
    a cluster without stopping said nothing of its events waiting."""
    fake_llm(responder=_bad_for_css)
    base = (now_utc() - timedelta(days=3)).replace(hour=0, minute=0, second=0, microsecond=0)
    seed(direct_mem(repo), base=base, rows=TWO)
    result = CliRunner().invoke(cli, ["consolidate", "--no-diff", "--no-commit"])
    assert "1 event(s) wait for the next run" in result.output, result.output
    state = Checkpoint(direct_mem(repo).project).load_state()
    assert "ev-css00001" not in state.processed and "ev-pg000001" in state.processed


def test_a_stopped_run_counts_the_skipped_clusters_events_as_waiting(repo, fake_llm):
    """The server fails on both clusters: the first is skipped (not counted), the second
    stops the run. Before: '1 event(s) wait' — both do."""
    fake_llm(responder=lambda request: {"status": 500})
    base = (now_utc() - timedelta(days=3)).replace(hour=0, minute=0, second=0, microsecond=0)
    seed(direct_mem(repo), base=base, rows=TWO)
    result = CliRunner().invoke(cli, ["consolidate", "--no-diff", "--no-commit"])
    assert result.exit_code == 1 and "stopped early" in result.output, result.output
    assert "2 event(s) wait for the next run" in result.output, result.output
