"""The loader through the `context` command and its cache: freshness, tiers, report."""

from __future__ import annotations

import json
import os
import subprocess

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.retrieval.tokens import count_tokens


def _context(*args, ok=True):
    result = CliRunner().invoke(cli, ["context", *args])
    if ok:
        assert result.exit_code == 0, result.output
    return result


def _remember(mem, text, kind="fact", **kw):
    from lorestack.memory_layers.operations import remember

    return remember(mem, text, kind, **kw)


def test_context_json_respects_budget_tiers_and_reports(mem):
    _remember(mem, "Never deploy on Fridays", "caveat")
    for n in range(40):
        _remember(mem, f"The reporting service exports CSV batch {n} nightly to S3")
    data = json.loads(_context("--budget", "300", "--json").output)
    assert data["tokens"] <= 300 == data["budget"]
    assert count_tokens(data["text"]) == data["tokens"]
    assert "Never deploy on Fridays" in data["text"]
    assert data["tiers"]["catalog"]["dropped"] > 0  # 40 facts do not fit in 300 tokens
    assert any("catalog:" in note for note in data["notes"])

    only = json.loads(_context("--tiers", "catalog", "--json").output)
    assert "## Resident" not in only["text"] and "## Catalog" in only["text"]
    assert "### caveats" not in only["text"]  # the caveat is just a catalog line here
    assert "caveats/never-deploy-on-fridays.md · caveat" in only["text"]

    report = _context("--budget", "250", "--report")
    assert "resident" in report.stderr and "left out" in report.stderr
    assert report.stdout.startswith("lorestack: recalled memory")
    assert _context("--budget", "0").stdout == ""  # the note why goes to stderr
    bad = _context("--tiers", "resident,bogus", ok=False)
    assert bad.exit_code == 2 and "unknown tier" in bad.output


def test_resident_edit_in_place_is_seen_at_once(mem):
    written = _remember(mem, "Always run the linter before pushing", "caveat")
    assert "linter" in _context("--tiers", "resident").output
    text = written.path.read_text().replace("the linter", "the formatter")
    written.path.write_text(text)  # same folder, no rename: only its own stat changed
    out = _context("--tiers", "resident").output
    assert "the formatter" in out and "the linter" not in out


def test_catalog_follows_new_files_and_in_place_edits(mem, monkeypatch):
    first = _remember(mem, "Search uses OpenSearch 2.x")
    assert "Search uses OpenSearch 2.x" in _context("--tiers", "catalog").output
    _remember(mem, "Billing uses Stripe webhooks")  # a new file changes the folder's mtime
    assert "Billing uses Stripe webhooks" in _context("--tiers", "catalog").output
    first.path.write_text(first.path.read_text().replace("OpenSearch 2.x", "Elasticsearch 8"))
    monkeypatch.setenv("LORESTACK_LOADER__CATALOG_RESCAN_S", "0")  # force the full stat scan
    out = _context("--tiers", "catalog").output
    assert "Elasticsearch 8" in out and "OpenSearch" not in out


def test_warm_cache_loads_no_tokenizer_and_gives_the_same_text(mem):
    from lorestack.retrieval.loader import assemble_context

    _remember(mem, "Use uv for Python environments", "preference")
    from lorestack.memory_layers.operations import log_event

    log_event(mem, "migrated CI to uv", "progress")
    cold = assemble_context(mem, retrieval="none")
    warm = assemble_context(mem, retrieval="none")
    assert not cold.cache_warm and warm.cache_warm
    assert warm.text == cold.text and warm.tokens == cold.tokens
    assert "migrated CI to uv" in warm.text  # today's journal in top-k


def test_session_start_recalls_by_branch_and_commits(mem):
    """The session-start query (git branch + commit subjects) pulls whole items into top-k."""
    from lorestack.integrations.hooks import session_query
    from lorestack.retrieval.index import MemoryIndex
    from lorestack.retrieval.loader import assemble_context

    decision = _remember(mem, "Refunds are written through the ledger service, never direct SQL",
                         "decision")
    for n in range(30):
        _remember(mem, f"The exporter writes report {n} to S3", importance=0.9)
    index = MemoryIndex(mem, warn=lambda m: None)
    index.sync()
    index.close()
    repo = mem.project.repo_dir
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e"}
    for cmd in (["init", "-q", "-b", "main"], ["checkout", "-q", "-b", "feature/ledger-refunds"],
                ["commit", "-q", "--allow-empty", "-m", "Refund endpoint skeleton"]):
        subprocess.run(["git", *cmd], cwd=repo, check=True, env=env, capture_output=True)
    query = session_query(mem, repo)
    assert "ledger refunds" in query and "Refund endpoint skeleton" in query
    result = assemble_context(mem, query=query, budget=600, retrieval="bm25", sync=False)
    assert decision.item.id in result.tiers["topk"].items  # whole, not just a catalog line
    assert "### decisions\n- Refunds are written through the ledger service" in result.text


def test_a_budget_too_small_for_any_context_says_so(repo):
    """Trial finding: `context --budget 0` or `--budget 10` printed nothing, exit 0, no note."""
    for budget in ("0", "10"):
        result = CliRunner().invoke(cli, ["context", "--budget", budget])
        assert result.exit_code == 0 and result.stdout == ""
        note = [line for line in result.stderr.splitlines() if line.startswith("note:")]
        assert len(note) == 1 and f"budget {budget}" in note[0] and "--budget" in note[0]
