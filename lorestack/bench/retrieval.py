"""`lorestack bench retrieval`: recall and context metrics on a `lorestack-bench/1` dataset.

Each dataset line is ingested into its own fresh store (bench_dataset.ingest_events, which
sees only the events), then every question is asked with its own time as "now" in each
mode, and its context packed at each budget asked (`--budget 300,1000,2000`):

- `default`: what the user gets — the prompt hook's own path (`ask.hook_context`: the
  loader searches `hooks.prompt_k` hits in `hooks.prompt_retrieval` mode, top-k tier only,
  the budget in place of `loader.prompt_budget`); recall@k is the same pipeline's top 10;
- `bm25`, `vector`, `rrf` (plain fusion of the two): that ranking packed whole, in rank
  order, by the loader's top-k tier alone (so every mode's blocks are rendered alike);
- `plain-vector`, `plain-bm25`, `plain-rrf`: reference rankings over the raw event texts
  (bench/reference.py), packed the same way;
- `recency`: the newest events before "now", packed the same way;
- `wide` (research, only when named): the full pipeline's ranking of `candidates_for(B)`
  hits with every tier of the session context (resident, catalog, journal).

When the ranking leaves room, the loader draws more of it (`more_hits`). `--ablate` asks
`default` again with each stage off (bench/ablate.py).

`answer_in_context@B` is the share of questions (with a text `answer`) whose answer string is
in the context (case and whitespace ignored). For `default` and `wide` the harness also packs
the pipeline's ranking whole into (budget − resident) and counts the questions whose
evidence that packing held and the context did not (`floor_violations`).

An evidence event counts as present in a context only if its whole text is in it
(whitespace-normalised, since renderers re-wrap lines).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lorestack.bench.ask import (  # noqa: F401 - the bench's public names
    KS,
    QuestionOutcome,
    answer_present,
    ask,
    build_context,
    hook_context,
    normalise_ws,
    recency_hits,
)
from lorestack.bench.dataset import (
    FORMAT,
    BenchLine,
    ingest_events,
    read_dataset,
)
from lorestack.bench.reference import REFERENCE_MODES, ReferenceIndex
from lorestack.core.errors import LorestackError

MODES = ("bm25", "vector", "rrf", "default", "recency", *REFERENCE_MODES)
RESEARCH_MODES = ("wide",)  # asked only when named: the pipeline with the loader's wide draw
MODE_ALIASES = {"hybrid": "default"}  # one vocabulary with search/context (retrieval/modes.py)
TIMING_KEYS = ("search_ms_p50", "search_ms_p95", "context_ms_p50", "ingest_events_per_s")

Progress = Callable[[int, str], None]


@dataclass
class BenchReport:
    format: str
    dataset: str
    budget: int
    modes: list[str]
    budgets: list[int] = field(default_factory=list)
    lines: int = 0
    events: int = 0
    questions: int = 0
    redacted_events: int = 0
    ingest_events_per_s: float = 0.0
    index_seconds: float = 0.0
    results: dict[str, dict] = field(default_factory=dict)
    details: list[QuestionOutcome] = field(default_factory=list)

    def without_timings(self) -> dict:
        """The metrics minus wall-clock figures: identical across runs for a fixed dataset."""
        def strip(metrics: dict) -> dict:
            return {k: v for k, v in metrics.items() if k.split("@")[0] not in TIMING_KEYS}
        return {mode: {**strip(r), "by_category": {c: strip(m) for c, m in r["by_category"].items()}}
                for mode, r in self.results.items()}


def parse_modes(value: str | None) -> list[str]:
    if not value:
        return list(MODES)
    modes = [MODE_ALIASES.get(m.strip(), m.strip()) for m in value.split(",") if m.strip()]
    modes = list(dict.fromkeys(modes))
    unknown = [m for m in modes if m not in MODES + RESEARCH_MODES]
    if unknown or not modes:
        raise LorestackError(f"unknown mode {unknown[0] if unknown else value!r}; "
                             f"choose from {','.join(MODES + RESEARCH_MODES)}")
    return modes


# ---- metrics ----------------------------------------------------------------------------------
def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return round(ordered[index], 2)


def summarise(outcomes: list[QuestionOutcome], budget: int) -> dict:
    """The metrics of BENCH_FORMAT.md for a group of outcomes (shares rounded to 4 places)."""
    n = len(outcomes)
    out: dict[str, float | int] = {"n": n}
    if not n:
        return out
    for k in KS:
        any_k = sum(any(p is not None and p < k for p in o.found_at.values()) for o in outcomes)
        all_k = sum(all(p is not None and p < k for p in o.found_at.values()) for o in outcomes)
        out[f"recall_any@{k}"] = round(any_k / n, 4)
        out[f"recall_all@{k}"] = round(all_k / n, 4)
    out[f"context_all@{budget}"] = round(sum(all(o.in_context.values()) for o in outcomes) / n, 4)
    out[f"context_any@{budget}"] = round(sum(any(o.in_context.values()) for o in outcomes) / n, 4)
    answered = [o.answer_in for o in outcomes if o.answer_in is not None]
    if answered:
        out[f"answer_in_context@{budget}"] = round(sum(answered) / len(answered), 4)
    floors = [(o, o.floor_in) for o in outcomes if o.floor_in is not None]
    if floors:
        out[f"floor_all@{budget}"] = round(sum(all(f.values()) for _o, f in floors) / n, 4)
        out["floor_violations"] = sum(
            any(v and not o.in_context[e] for e, v in f.items()) for o, f in floors)
    out["tokens_mean"] = round(statistics.fmean(o.context_tokens for o in outcomes), 1)
    out["tokens_max"] = max(o.context_tokens for o in outcomes)
    searches = [o.search_ms for o in outcomes]
    out["search_ms_p50"] = _pct(searches, 0.5)
    out["search_ms_p95"] = _pct(searches, 0.95)
    out["context_ms_p50"] = _pct([o.context_ms for o in outcomes], 0.5)
    return out


def _results(outcomes: list[QuestionOutcome], modes: list[str], budgets: list[int],
             ingest_rate: float) -> dict[str, dict]:
    """Per mode: every metric at the first budget, plus the budget-bound ones at the others."""
    def merged(group: list[QuestionOutcome]) -> dict:
        metrics: dict = {}
        for n, budget in enumerate(budgets):
            part = summarise([o for o in group if o.budget == budget], budget)
            if n:
                part = {f"{k}@{budget}" if "@" not in k else k: v for k, v in part.items()
                        if "@" in k and not k.startswith("recall_")
                        or k in ("tokens_mean", "tokens_max", "context_ms_p50")}
            metrics.update(part)
        return metrics

    results = {}
    for mode in modes:
        mine = [o for o in outcomes if o.mode == mode]
        metrics = merged(mine)
        metrics["ingest_events_per_s"] = ingest_rate
        categories = sorted({o.category for o in mine})
        metrics["by_category"] = {c: merged([o for o in mine if o.category == c])
                                  for c in categories}
        results[mode] = metrics
    return results


# ---- the run ----------------------------------------------------------------------------------
@dataclass
class LineResult:
    """One dataset line asked in every mode (what a worker process sends back)."""

    outcomes: list[QuestionOutcome]
    budgets: list[int]
    write_s: float
    index_s: float
    redacted: int


class _StorePool:
    """The bench store's open index for every `borrow_index` (the service's pool, in small):
    the loader's own searches then use it, as the hook's do through the service."""

    def __init__(self, index):
        self.index = index

    def get(self, mem):
        self.index.mem, self.index.settings = mem, mem.settings
        return self.index


def _budgets(budget, settings) -> list[int]:
    if budget is None:
        return [settings.loader.budget]
    return [int(b) for b in ([budget] if isinstance(budget, int) else budget)]


def bench_line(line: BenchLine, budget, modes: list[str], overrides: dict | None = None,
               progress: Progress | None = None, ablate: bool = False) -> LineResult:
    """Ingest one line into a fresh store (embedded once), ask its questions in every mode
    against the same index, with the questions embedded in one batch. `budget`: one or
    several budgets (each question is searched once, packed at each). `ablate`: the
    default mode again with each stage of `bench/ablate.py` off."""
    from lorestack.retrieval import pool

    outcomes: list[QuestionOutcome] = []
    store = ingest_events(line.events, overrides=overrides)
    saved_pool = pool.active()
    pool.install(_StorePool(store.index))  # type: ignore[arg-type]
    try:
        budgets = _budgets(budget, store.mem.settings)
        if any(m not in ("bm25", "recency", "plain-bm25") for m in modes) or ablate:
            store.index.prime_queries([q.question for q in line.questions])
        ref = None
        if any(m in REFERENCE_MODES for m in modes):
            events = set(store.when)
            ref = ReferenceIndex.build({i: t for i, t in store.texts.items() if i in events},
                                       store.index.embedder().embed)
        for mode in modes:
            for q in line.questions:
                outcomes.extend(ask(store, q, mode, budgets, ref))
                if progress:
                    progress(1, f"{line.name} {mode}")
        if ablate:
            from lorestack.bench.ablate import ablations

            for name, apply in ablations():
                with apply(store):
                    for q in line.questions:
                        for o in ask(store, q, "default", budgets):
                            o.mode = name
                            outcomes.append(o)
                        if progress:
                            progress(1, f"{line.name} {name}")
        return LineResult(outcomes, budgets, store.write_s, store.index_s, store.redacted)
    finally:
        pool.install(saved_pool)
        store.close()


def _worker_line(line: BenchLine, budget, modes: list[str], overrides: dict | None,
                 ablate: bool) -> LineResult:
    from lorestack.memory_layers import parse_cache

    parse_cache.enable(True)
    return bench_line(line, budget, modes, overrides, ablate=ablate)


def _line_results(lines: list[BenchLine], budget, modes: list[str], overrides: dict | None,
                  progress: Progress | None, jobs: int, ablate: bool):
    """Every line's result, in dataset order; `jobs` > 1 asks lines in worker processes."""
    if jobs <= 1 or len(lines) <= 1:
        for line in lines:
            yield bench_line(line, budget, modes, overrides, progress, ablate)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawn: onnxruntime and Chroma keep threads that a forked child must not inherit
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(lines)), mp_context=context) as pool:
        futures = [pool.submit(_worker_line, line, budget, modes, overrides, ablate)
                   for line in lines]
        for line, future in zip(lines, futures):
            result = future.result()
            if progress:
                progress(len(line.questions) * _steps(modes, ablate), line.name)
            yield result


def _steps(modes: list[str], ablate: bool) -> int:
    if not ablate:
        return len(modes)
    from lorestack.bench.ablate import ablations

    return len(modes) + len(ablations())


def default_jobs(lines: int) -> int:
    """Worker processes for `bench retrieval`: one per core, at most 4, at most one per line."""
    import os

    return max(1, min(4, os.cpu_count() or 1, lines))


def run_lines(lines: list[BenchLine], *, dataset: str = "", budget=None,
              modes: list[str] | None = None, progress: Progress | None = None,
              overrides: dict | None = None, details: bool = False,
              jobs: int = 1, ablate: bool = False) -> BenchReport:
    """Ingest each line into a fresh store, ask its questions in every mode, aggregate.

    `budget`: an int or a list of them (None: `loader.budget`). Lines are independent, so
    `jobs` > 1 runs them in that many worker processes; the metrics do not depend on it
    (timings do: the workers share the machine)."""
    from lorestack.memory_layers import parse_cache

    if not lines:
        raise LorestackError("the dataset has no lines")
    modes = list(modes or MODES)
    report = BenchReport(FORMAT, dataset, 0, modes)
    outcomes: list[QuestionOutcome] = []
    write_s = index_s = 0.0
    was_on = parse_cache.enabled()
    parse_cache.enable(True)  # a long-lived reader, like the service: parse each day file once
    try:
        for line, result in zip(lines, _line_results(lines, budget, modes, overrides,
                                                     progress, jobs, ablate)):
            outcomes.extend(result.outcomes)
            report.budgets = result.budgets
            write_s += result.write_s
            index_s += result.index_s
            report.redacted_events += result.redacted
            report.lines += 1
            report.events += len(line.events)
            report.questions += len(line.questions)
    finally:
        parse_cache.enable(was_on)
    report.budget = report.budgets[0]
    spent = write_s + index_s
    report.ingest_events_per_s = round(report.events / spent, 1) if spent else 0.0
    report.index_seconds = round(index_s, 2)
    asked = list(dict.fromkeys(o.mode for o in outcomes))
    report.results = _results(outcomes, asked, report.budgets, report.ingest_events_per_s)
    if details:
        report.details = outcomes
    return report


def run_retrieval_bench(dataset: str | Path, *, budget=None,
                        modes: list[str] | None = None, limit: int | None = None,
                        progress: Progress | None = None, on_start: Callable[[int], None] | None = None,
                        overrides: dict | None = None, details: bool = False,
                        jobs: int | None = 1, ablate: bool = False) -> BenchReport:
    """Read a dataset file and run the bench on it (`on_start` gets the number of steps;
    `jobs` None: `default_jobs`)."""
    lines = read_dataset(dataset, limit=limit)
    jobs = default_jobs(len(lines)) if jobs is None else jobs
    modes = list(modes or MODES)
    if on_start:
        on_start(sum(len(line.questions) for line in lines) * _steps(modes, ablate))
    return run_lines(lines, dataset=str(dataset), budget=budget, modes=modes,
                     progress=progress, overrides=overrides, details=details, jobs=jobs,
                     ablate=ablate)
