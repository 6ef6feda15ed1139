"""Consolidation and extraction know the kinds of events (issue 24): blockers, todos and progress
never become decisions or facts, a rejection becomes a decision only with its reason, nothing
unrelated is merged into a person's item, and an accepted claim shows no confidence figure."""

from __future__ import annotations

from datetime import timedelta

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.consolidation.extract import classify
from lorestack.consolidation.job import run_consolidation
from lorestack.memory_layers.operations import remember
from tests.test_consolidation import BASE, items_by_id, open_mem, seed


@pytest.fixture
def direct(repo):
    """Memory with review off: claims apply directly."""
    return open_mem(repo, **{"consolidation.pending_review": False})


def _claims(mem):
    return {i.id: i for i in items_by_id(mem).values() if i.source.kind == "consolidation"}


def test_blockers_todos_and_progress_never_become_claims(direct):
    seed(direct, rows=[
        ("ev-blk00001", 0, 9, "blocker", [],
         "ImportError: cannot import name 'DEFAULT_CIPHERS' from urllib3.util.ssl_"),
        ("ev-blk00002", 0, 10, "blocker", [],
         "Still the ImportError: cannot import name 'DEFAULT_CIPHERS' on the 2.x line"),
        ("ev-todo0001", 0, 11, "todo", [], "Review PR #6710 about the proxy handling"),
        ("ev-todo0002", 1, 9, "todo", [], "Review PR #6710 again after the rebase"),
        ("ev-prog0001", 1, 10, "progress", [], "Reviewed half of PR #6710 about the proxy"),
    ])
    report = run_consolidation(direct, now=BASE + timedelta(days=2))
    assert report.added == [] and report.proposed == [] and report.merged == []
    assert _claims(direct) == {}


def test_a_rejection_becomes_a_decision_only_with_its_reason(direct):
    seed(direct, rows=[
        ("ev-rej00001", 0, 9, "rejected", [], "Switching the test suite to subprocess-based httpbin"),
        ("ev-rej00002", 0, 10, "rejected", [],
         "Rejected moving the docs to MkDocs because Sphinx autodoc covers the API pages"),
        ("ev-rej00003", 1, 9, "rejected", [],
         "Decided against MkDocs for the docs since autodoc in Sphinx already builds them"),
    ])
    run_consolidation(direct, now=BASE + timedelta(days=2))
    claims = list(_claims(direct).values())
    assert len(claims) == 1
    assert claims[0].type == "decision" and claims[0].body.lower().startswith(
        ("rejected", "decided against"))
    assert "httpbin" not in claims[0].body  # no reason given: it stays in the journal


def test_an_unrelated_rejection_is_not_merged_into_a_persons_caveat(repo):
    from lorestack.memory_layers.memory import Memory

    mem = Memory.open(repo)
    caveat = remember(mem, "Proxy caveat: requests honours NO_PROXY only for exact host "
                      "matches, so subdomains still go through the proxy.", "caveat").item
    seed(mem, rows=[
        ("ev-rej10001", 0, 9, "rejected", [],
         "Rejected switching the test suite to subprocess-based httpbin because it doubles CI time"),
        ("ev-rej10002", 0, 10, "rejected", [],
         "Rejected subprocess-based httpbin for the tests again: too slow"),
    ])
    report = run_consolidation(mem, now=BASE + timedelta(days=1))
    assert report.merged == []
    after = items_by_id(mem)[caveat.id]
    assert after.source.events == [] and after.body == caveat.body
    for item in _claims(mem).values():
        assert (item.model_extra or {}).get("proposed_merge_into") != caveat.id


def test_extract_sorts_marked_todos_and_blockers_first():
    assert classify("TODO: open an issue about switching to the new proxy handling") == (
        "event", "todo")
    assert classify("Blocked: waiting for the decision to use Redis from ops") == (
        "event", "blocker")
    assert classify("We decided to use Redis streams for the queue") == ("event", "decision")


def test_an_accepted_claim_shows_no_confidence_figure(repo):
    from lorestack.memory_layers.memory import Memory

    mem = Memory.open(repo)
    seed(mem, rows=[
        ("ev-dec00001", 0, 9, "decision", [], "We will serve the API with uvicorn behind nginx"),
        ("ev-dec00002", 0, 10, "decision", [],
         "Decided: uvicorn behind nginx serves the API, gunicorn is gone"),
    ])
    report = run_consolidation(mem, now=BASE + timedelta(days=1))
    assert report.added, report
    pending = [i for i in _claims(mem).values() if i.status == "pending"]
    assert pending and pending[0].confidence < 1
    result = CliRunner().invoke(cli, ["review", "accept", pending[0].id])
    assert result.exit_code == 0, result.output
    context = CliRunner().invoke(cli, ["context", "--budget", "2000"]).output
    assert "uvicorn" in context and "(conf " not in context
