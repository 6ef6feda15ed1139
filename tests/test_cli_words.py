"""Free text needs no quotes: `lorestack search postgres lock` is the query "postgres lock"."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli


def run(*args, code=0, stdin=None):
    result = CliRunner().invoke(cli, list(args), input=stdin)
    assert result.exit_code == code, result.output
    return result


def test_remember_log_and_search_take_several_words(repo):
    item = json.loads(run("remember", "We", "take", "a", "postgres", "advisory", "lock",
                          "--type", "decision", "--json").stdout)["item"]
    assert item["title"] == "We take a postgres advisory lock"
    event = json.loads(run("log", "tried", "the", "lock", "twice", "--kind", "progress",
                           "--json").stdout)
    assert event["text"] == "tried the lock twice"
    hits = json.loads(run("search", "postgres", "advisory", "-k", "3", "--mode", "bm25",
                          "--json").stdout)
    assert hits and hits[0]["id"] == item["id"]
    # the quoted form and the options around it keep working
    quoted = json.loads(run("search", "--mode", "bm25", "postgres advisory", "--json").stdout)
    assert [h["id"] for h in quoted] == [h["id"] for h in hits]


def test_search_without_words_still_asks_for_a_query(repo):
    result = run("search", code=2)
    assert "give a QUERY" in result.output


def test_check_and_criteria_test_take_several_words(repo):
    crit = json.loads(run("remember", "Never vendor the numpy wheels", "--type", "criterion",
                          "--forbid", "vendor numpy", "--verdict", "block",
                          "--json").stdout)["item"]
    blocked = json.loads(run("check", "we", "vendor", "numpy", "now", "--no-retrieval",
                             "--json", code=2).stdout)
    assert blocked["verdict"] == "block"
    trace = run("criteria", "test", crit["id"], "we", "vendor", "numpy", "--json").stdout
    assert json.loads(trace)["verdict"] == "block"
    # '-' alone still reads the proposal from stdin
    piped = json.loads(run("check", "-", "--no-retrieval", "--json", code=2,
                           stdin="we vendor numpy now").stdout)
    assert piped["verdict"] == "block"
