"""search / reindex / doctor as users call them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli

from .retrieval_helpers import build_corpus


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


def test_search_json_explain_and_filters(mem):
    ids = build_corpus(mem)
    result = invoke("search", "getUserById", "--json", "--explain", "-k", "2")
    assert result.exit_code == 0, result.output
    hits = json.loads(result.stdout)
    assert hits[0]["id"] == ids["user"] and len(hits) <= 2
    assert set(hits[0]["explain"]) >= {"bm25_rank", "vector_rank", "fused", "decay", "final"}
    result = invoke("search", "queue", "--layer", "L3", "--mode", "bm25", "--json")
    assert {h["layer"] for h in json.loads(result.stdout)} == {"L3"}
    text = invoke("search", "RS256", "--explain")
    assert text.exit_code == 0 and "bm25 rank=1" in text.stdout and "decay=" in text.stdout


def test_weird_query_on_the_command_line(mem):
    build_corpus(mem)
    for query in ["AND OR (", "", "***", "ключ"]:
        result = invoke("search", query, "--json")
        assert result.exit_code == 0, result.output
        assert isinstance(json.loads(result.stdout), list)


def test_reindex_json_on_stdout_and_no_progress_when_piped(mem):
    build_corpus(mem)
    result = invoke("reindex", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["total"] == 11 and report["embedded"] == 11
    assert "indexing" not in result.stderr  # a bar only on a terminal (test_everyday_cli)


def test_doctor_exit_codes(mem):
    build_corpus(mem)
    assert invoke("reindex").exit_code == 0
    ok = invoke("doctor", "--json")
    assert ok.exit_code == 0 and json.loads(ok.stdout)["ok"] is True
    (mem.primary.index_dir / "tantivy" / "meta.json").write_text("broken")
    bad = invoke("doctor")
    assert bad.exit_code == 1 and "corrupt" in bad.stdout
    fixed = invoke("doctor", "--repair", "--json")
    assert fixed.exit_code == 0 and json.loads(fixed.stdout)["repaired"] is True
    assert invoke("doctor").exit_code == 0


def test_search_without_memory_is_one_line_error(isolated, monkeypatch):
    monkeypatch.setenv("LORESTACK_HOME", str(isolated / "nowhere"))
    result = invoke("search", "x")
    # no project and no global memory: either nothing found or a clear error, never a traceback
    assert "Traceback" not in result.output
