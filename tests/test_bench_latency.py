"""`lorestack bench latency`: the orchestration runs end to end on a tiny store (figures are
reported, never asserted: only their presence and sanity are checked here)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from lorestack.bench.latency import parse_sizes
from lorestack.cli.main import cli
from lorestack.core.errors import LorestackError

FIGURES = ("session_start_ms_p50", "session_start_ms_p95", "prompt_ms_p50", "prompt_ms_p95",
           "search_ms_p50", "search_ms_p95", "context_ms_p50", "reindex_items_per_s",
           "reindex_peak_rss_mb")


def test_parse_sizes():
    assert parse_sizes("1000, 10k,100_000") == [1000, 10000, 100000]
    for bad in ("", "ten", "5"):
        with pytest.raises(LorestackError):
            parse_sizes(bad)


@pytest.mark.slow  # a whole latency benchmark
def test_latency_json_has_every_figure_and_leaves_the_environment_alone(monkeypatch, tmp_path):
    import os

    before = {k: v for k, v in os.environ.items() if k.startswith("LORESTACK_")}
    plot = tmp_path / "latency.png"
    args = ["bench", "latency", "--items", "20", "--runs", "1", "--queries", "3",
            "--embed-texts", "16", "--json"]
    try:
        import matplotlib  # noqa: F401
        args += ["--plot", str(plot)]
    except ImportError:
        plot = None
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (row,) = data["rows"]
    assert row["items"] == 20
    for key in FIGURES:
        assert isinstance(row[key], (int, float)) and row[key] > 0, key
    assert row["session_start_tokens"] <= row["memory_file_tokens"]
    embedding = data["embedding"]
    assert embedding["texts"] == 16 and embedding["min_cosine"] > 0.99
    assert {k: v for k, v in os.environ.items() if k.startswith("LORESTACK_")} == before
    if plot is not None:
        assert plot.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("bad", ["abc", "-5", "0", "", ","])
def test_bench_search_refuses_bad_sizes_in_one_line(bad):
    """`bench search --items abc` said "unexpected ValueError … this is a bug in lorestack";
    -5 and 0 built and "measured" a store of one document; '' and ',' printed [] (qa32u)."""
    result = CliRunner().invoke(cli, ["bench", "search", "--items", bad, "--json"])
    assert result.exit_code == 1, result.output
    assert "--items" in result.output and "bug" not in result.output
    assert result.stdout == ""
