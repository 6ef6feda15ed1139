"""The retrieval bench harness, on real tantivy + Chroma + the ONNX model, and its quality gate."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from lorestack.bench.dataset import BenchEvent, ingest_events, read_dataset
from lorestack.bench.generate import generate_jsonl
from lorestack.bench.retrieval import (
    MODES,
    parse_modes,
    run_lines,
    run_retrieval_bench,
)
from lorestack.cli.main import cli

from .conftest import model_dir, run_cli

SMALL = Path(__file__).parent / "data" / "bench_small.jsonl"
BUDGET = 2000
# Quality floor for the committed small set (2 projects x 20 days, seed 7): two questions below
# what the default pipeline measured when the gate was set (28/28 on both after rrf_k 10, the
# date retriever and the loader's top-k packing; see the issue-7 report). A drop below these
# fails CI: that is a retrieval-quality regression, not a flaky timing.
GATE_RECALL_ANY_AT_10 = 0.92
GATE_CONTEXT_ALL = 0.92


@pytest.fixture(scope="module")
def bench_env(tmp_path_factory):
    """Module-wide isolation (the autouse fixture is per test): temp HOME, the test model."""
    home = tmp_path_factory.mktemp("bench-home")
    with pytest.MonkeyPatch.context() as mp:
        for var in list(os.environ):
            if var.startswith("LORESTACK_"):
                mp.delenv(var, raising=False)
        mp.setenv("HOME", str(home))
        mp.setenv("LORESTACK_HOME", str(home / ".lorestack"))
        mp.setenv("LORESTACK_EMBEDDING__MODEL_DIR", str(model_dir()))
        mp.setenv("ANONYMIZED_TELEMETRY", "False")
        yield home


@pytest.fixture(scope="module")
def small_report(bench_env):
    return run_retrieval_bench(SMALL, budget=BUDGET)


@pytest.fixture(scope="module")
def tiny_set(bench_env, tmp_path_factory):
    path = tmp_path_factory.mktemp("bench") / "tiny.jsonl"
    path.write_text(generate_jsonl(3, 1, 8), encoding="utf-8")
    return path


# ---- the quality gate --------------------------------------------------------------------------
@pytest.mark.slow  # runs the retrieval benchmark
def test_quality_gate_default_pipeline(small_report):
    default = small_report.results["default"]
    assert default["recall_any@10"] >= GATE_RECALL_ANY_AT_10, default
    assert default[f"context_all@{BUDGET}"] >= GATE_CONTEXT_ALL, default


@pytest.mark.slow  # runs the retrieval benchmark
def test_every_mode_reports_every_metric_within_budget(small_report):
    assert small_report.lines == 2 and small_report.questions == 28
    assert small_report.redacted_events == 0
    assert set(small_report.results) == set(MODES)
    for mode, metrics in small_report.results.items():
        for key in ("recall_any@1", "recall_all@1", "recall_any@5", "recall_all@5",
                    "recall_any@10", "recall_all@10", f"context_all@{BUDGET}",
                    f"context_any@{BUDGET}", "tokens_mean", "search_ms_p50", "search_ms_p95",
                    "context_ms_p50", "ingest_events_per_s"):
            assert key in metrics, (mode, key)
        assert metrics["tokens_max"] <= BUDGET, mode
        assert metrics["recall_all@10"] <= metrics["recall_any@10"]
        assert metrics[f"context_all@{BUDGET}"] <= metrics[f"context_any@{BUDGET}"]
        assert sum(c["n"] for c in metrics["by_category"].values()) == small_report.questions


@pytest.mark.slow  # runs the retrieval benchmark
def test_lexical_mode_finds_exact_identifiers_recency_does_not(small_report):
    """The set is built so error codes need exact matching: a sanity check on both ends."""
    exact = "exact-identifier"
    assert small_report.results["bm25"]["by_category"][exact]["recall_any@10"] >= 0.8
    assert small_report.results["recency"]["by_category"][exact]["recall_any@1"] == 0.0


@pytest.mark.slow  # runs the retrieval benchmark with every ablation
def test_ablations_are_reported_per_budget_and_leave_the_default_alone(tiny_set):
    from lorestack.bench.ablate import ablations

    lines = read_dataset(tiny_set)
    plain = run_lines(lines, budget=[300, 800], modes=["default"]).without_timings()
    ablated = run_lines(lines, budget=[300, 800], modes=["default", "plain-vector"],
                        ablate=True).without_timings()
    assert ablated["default"] == plain["default"]  # each stage is restored after its pass
    names = [name for name, _ in ablations()]
    assert set(ablated) == {"default", "plain-vector", *names}
    for name in names:
        assert {"context_all@300", "context_all@800", "recall_any@10"} <= set(ablated[name])
    # switching the whole fill off shows fewer tokens at the larger budget
    assert ablated["-fill"]["tokens_mean@800"] < ablated["default"]["tokens_mean@800"]


# ---- determinism and isolation -------------------------------------------------------------------
@pytest.mark.slow  # runs the retrieval benchmark
def test_results_are_deterministic_apart_from_timings(tiny_set):
    lines = read_dataset(tiny_set)
    first = run_lines(lines, budget=800).without_timings()
    second = run_lines(lines, budget=800).without_timings()
    assert first == second
    assert "search_ms_p50" not in first["default"]


@pytest.mark.slow  # runs the retrieval benchmark in two worker processes
def test_worker_processes_give_the_same_metrics_as_one_process(bench_env, tmp_path_factory):
    path = tmp_path_factory.mktemp("bench") / "two.jsonl"
    path.write_text(generate_jsonl(3, 2, 8), encoding="utf-8")
    lines = read_dataset(path)
    one = run_lines(lines, budget=800, modes=["bm25", "default"])
    two = run_lines(lines, budget=800, modes=["bm25", "default"], jobs=2, details=True)
    assert one.without_timings() == two.without_timings()
    assert (two.lines, two.events) == (2, sum(len(line.events) for line in lines))
    assert [o.question_id for o in two.details[: len(lines[0].questions)]] == [
        q.id for q in lines[0].questions]  # dataset order kept


@pytest.mark.slow  # runs the retrieval benchmark
def test_ingest_never_sees_questions_and_ignores_the_users_global_memory(tiny_set, bench_env):
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember

    Memory.init(Path("."), global_=True)
    remember(Memory.open(require_project=False), "global note zebra-unicorn-42",
             "preference", scope="global")
    (line,) = read_dataset(tiny_set)
    store = ingest_events(line.events)
    try:
        root = store.mem.project.root
        assert store.mem.home.root != Path(os.environ["LORESTACK_HOME"])
        written = "\n".join(p.read_text("utf-8", errors="replace")
                            for p in root.rglob("*.md"))
        for q in line.questions:
            assert q.question not in written
            assert str(q.answer) not in written or any(str(q.answer) in e.text for e in line.events)
        assert all("zebra-unicorn" not in li.item.text for li in store.mem.load_items().items)
        hits = store.index.search("zebra-unicorn-42", mode="bm25", sync=False, record_access=False)
        assert hits == []
        assert store.index.search(line.events[0].text, mode="bm25", sync=False,
                                  record_access=False)
    finally:
        store.close()


def test_typed_events_become_items_dated_at_their_time_and_count_as_evidence(bench_env, tmp_path):
    rows = [
        {"id": "r1", "time": "2024-02-01T10:00:00", "type": "criterion", "tags": ["migration"],
         "text": "Every migration on the ledger table needs a reversible down step."},
        {"id": "r2", "time": "2024-02-02T10:00:00", "type": "preference",
         "text": "Keep explanations short, diff first."},
        {"id": "e1", "time": "2024-02-03T10:00:00", "text": "Shipped the ledger export."},
    ]
    line = {"format": "lorestack-bench/1", "name": "typed", "events": rows, "questions": [
        {"id": "q1", "question": "rules for a ledger table migration?", "evidence": ["r1"],
         "category": "criterion", "time": "2024-03-01T09:00:00"},
        {"id": "q2", "question": "how should explanations look?", "evidence": ["r2"],
         "category": "preference", "time": "2024-03-01T09:00:00"}]}
    path = tmp_path / "typed.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    report = run_retrieval_bench(path, modes=["bm25", "default"], budget=600)
    for mode in ("bm25", "default"):
        assert report.results[mode]["recall_any@5"] == 1.0, mode
        assert report.results[mode]["context_all@600"] == 1.0, mode
    store = ingest_events([BenchEvent.model_validate(r) for r in rows])
    try:
        items = {li.item.type: li.item for li in store.mem.load_items().items}
        assert items["criterion"].created.isoformat().startswith("2024-02-01T10:00")
        assert items["criterion"].criterion.applies_to.keywords == ["migration"]
        assert [eid for _t, eid in store.timeline] == ["e1"]
    finally:
        store.close()


def test_secret_looking_text_is_redacted_not_fatal(bench_env, tmp_path):
    key = "AKIA" + "IOSFODNN7EXAMPLE"
    line = {"format": "lorestack-bench/1", "name": "s", "events": [
        {"id": "a", "time": "2024-01-01T10:00:00", "text": f"rotated the deploy key {key} today"},
        {"id": "b", "time": "2024-01-01T11:00:00", "text": "moved CI to Buildkite"}],
        "questions": [{"id": "q", "question": "where does CI run?", "evidence": ["b"],
                       "time": "2024-01-02T09:00:00"}]}
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    report = run_retrieval_bench(path, modes=["bm25"], budget=300)
    assert report.redacted_events == 1
    assert report.results["bm25"]["recall_any@1"] == 1.0


@pytest.mark.slow  # runs the retrieval benchmark
def test_contexts_respect_tiny_budgets_in_every_mode(tiny_set):
    """Whole items only: with a budget too small for any block, nothing is packed."""
    lines = read_dataset(tiny_set)
    for budget in (5, 120):
        report = run_lines(lines, budget=budget)
        for mode, metrics in report.results.items():
            assert metrics["tokens_max"] <= budget, (mode, budget)
            if budget == 5:
                assert metrics["context_any@5"] == 0.0, mode


def test_parse_modes():
    assert parse_modes(None) == list(MODES)
    assert parse_modes("bm25, default") == ["bm25", "default"]
    assert parse_modes("hybrid,rrf") == ["default", "rrf"]  # hybrid names the full pipeline
    with pytest.raises(Exception, match="unknown mode 'fast'"):
        parse_modes("bm25,fast")


# ---- CLI -----------------------------------------------------------------------------------------
@pytest.mark.slow  # runs the retrieval benchmark
def test_cli_json_is_pure_json_and_table_is_readable(tiny_set, tmp_path):
    runner = CliRunner()
    details = tmp_path / "d.jsonl"
    result = runner.invoke(cli, ["bench", "retrieval", "--dataset", str(tiny_set), "--modes",
                                 "bm25,recency", "--budget", "500", "--json",
                                 "--details", str(details)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["format"] == "lorestack-bench/1" and data["budget"] == 500
    assert set(data["results"]) == {"bm25", "recency"}
    rows = [json.loads(x) for x in details.read_text("utf-8").splitlines()]
    assert {r["mode"] for r in rows} == {"bm25", "recency"}
    assert len(rows) == 2 * data["questions"]
    result = runner.invoke(cli, ["bench", "retrieval", "--dataset", str(tiny_set), "--modes",
                                 "bm25"])
    assert result.exit_code == 0
    assert "ctx_all@2000" in result.stdout and "by category" in result.stdout


def test_cli_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "other"}\n', encoding="utf-8")
    for args in (["--dataset", str(bad)], ["--dataset", str(tmp_path / "none.jsonl")],
                 ["--dataset", str(bad), "--modes", "bogus"]):
        result = CliRunner().invoke(cli, ["bench", "retrieval", *args])
        assert result.exit_code == 1
        assert result.stderr.startswith("Error: ") and "Traceback" not in result.stderr


@pytest.mark.slow  # runs the retrieval benchmark
def test_plot_without_matplotlib_says_what_to_install(tiny_set, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    result = CliRunner().invoke(cli, ["bench", "retrieval", "--dataset", str(tiny_set),
                                      "--plot", "x.png"])
    assert result.exit_code == 1
    assert "lorestack[plot]" in result.stderr
    assert not Path("x.png").exists()


@pytest.mark.slow  # runs the retrieval benchmark
def test_plot_writes_a_png(small_report, tmp_path):
    pytest.importorskip("matplotlib")
    from lorestack.bench.plot import plot_latency, plot_retrieval

    out = plot_retrieval(small_report.results, small_report.budget, tmp_path / "r.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = [{"items": 100, "search_ms_p50": 3.0}, {"items": 1000, "search_ms_p50": 5.0}]
    assert plot_latency(rows, tmp_path / "l.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow  # runs the retrieval benchmark
def test_whole_process_json_on_stdout_no_progress_when_piped(tiny_set):
    proc = run_cli("bench", "retrieval", "--dataset", str(tiny_set), "--modes", "bm25", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["results"]["bm25"]["n"] > 0
    assert "bench retrieval" not in proc.stderr  # a bar only on a terminal (test_everyday_cli)
