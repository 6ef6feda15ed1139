"""`lorestack bench retrieval`: recall and context metrics on a `lorestack-bench/1` dataset.

Each dataset line is ingested into its own fresh store (bench_dataset.ingest_events, which
sees only the events), then every question is asked with its own time as "now" in each
mode:

- `bm25`, `vector`, `rrf` (plain fusion of the two): the retriever's ranking; the context is
  its top items packed whole, in rank order, into the budget (by the loader's top-k tier
  alone, so every mode's blocks are rendered and counted the same way);
- `default`: the full pipeline's ranking (fusion + rerank with decay at the question time);
  the context is what the loader (`assemble_context`) assembles for the question, with the
  retriever's hits (`loader.candidates` of them, as the loader draws when it searches itself)
  computed at the question time;
- `recency`: the newest events before "now", packed the same way.

When the candidates leave room, the loader draws more of the same ranking (`more_hits`, a
search with a larger k, timed inside `context_ms`), in every mode but `recency`.

`answer_in_context@B` is the share of questions (with a text `answer`) whose answer string is
in the context (case and whitespace ignored): unlike `context_all`, it credits an excerpt of a
long event that holds the answer. The system under test never sees the answer.

For `default` the harness also packs the same ranking whole into (budget − the resident
tier's tokens) and counts the questions whose evidence that packing held and the context
did not (`floor_violations`, always 0 when the loader never loses what the retriever found).

Each line's questions are embedded once, in one batch, and shared by every mode.

An evidence event counts as present in a context only if its whole text is in it
(whitespace-normalised, since renderers re-wrap lines).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timezone
from pathlib import Path

from lorestack.bench.dataset import (
    FORMAT,
    BenchLine,
    BenchQuestion,
    IngestedStore,
    ingest_events,
    read_dataset,
)
from lorestack.core.errors import LorestackError

MODES = ("bm25", "vector", "rrf", "default", "recency")
MODE_ALIASES = {"hybrid": "default"}  # one vocabulary with search/context (retrieval/modes.py)
KS = (1, 5, 10)
TIMING_KEYS = ("search_ms_p50", "search_ms_p95", "context_ms_p50", "ingest_events_per_s")

Progress = Callable[[int, str], None]


@dataclass
class QuestionOutcome:
    """One question in one mode: what was found where, and how long it took."""

    question_id: str
    mode: str
    category: str
    ranked: list[str]
    found_at: dict[str, int | None]
    in_context: dict[str, bool]
    context_tokens: int
    search_ms: float
    context_ms: float
    floor_in: dict[str, bool] | None = None  # default mode: evidence in the plain packing
    answer_in: bool | None = None  # the answer string is in the context (None: no text answer)


@dataclass
class BenchReport:
    format: str
    dataset: str
    budget: int
    modes: list[str]
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
            return {k: v for k, v in metrics.items() if k not in TIMING_KEYS}
        return {mode: {**strip(r), "by_category": {c: strip(m) for c, m in r["by_category"].items()}}
                for mode, r in self.results.items()}


def normalise_ws(text: str) -> str:
    return " ".join(text.split())


def parse_modes(value: str | None) -> list[str]:
    if not value:
        return list(MODES)
    modes = [MODE_ALIASES.get(m.strip(), m.strip()) for m in value.split(",") if m.strip()]
    modes = list(dict.fromkeys(modes))
    unknown = [m for m in modes if m not in MODES]
    if unknown or not modes:
        raise LorestackError(f"unknown mode {unknown[0] if unknown else value!r}; "
                             f"choose from {','.join(MODES)}")
    return modes


# ---- contexts ------------------------------------------------------------------------------
def build_context(store: IngestedStore, query: str, budget: int, now, hits: list,
                  full: bool, more_hits=None):
    """The loader renders every mode's context, so block formats and token counts are equal.

    `full` is the default pipeline (resident + catalog + journal + hits); otherwise only the
    top-k tier: the given hits packed whole, in rank order, until the budget is used.
    """
    from lorestack.retrieval.loader import assemble_context

    if full:
        return assemble_context(store.mem, query=query, budget=budget, now=now, hits=hits,
                                sync=False, more_hits=more_hits)
    return assemble_context(store.mem, query=query, budget=budget, now=now, hits=hits,
                            tiers=("topk",), recent=False, sync=False, expand=False,
                            more_hits=more_hits)


def recency_hits(store: IngestedStore, now, budget: int) -> list:
    """The newest events before `now`, as hits (enough of them to overflow the budget)."""
    from lorestack.retrieval.hits import LightHit

    limit = budget // 10 + 10  # no event renders in fewer than ~10 tokens with its header
    hits = []
    for when, eid in reversed(store.timeline):
        if when > now:
            continue
        day = store.mem.journal.day_file(when.astimezone(timezone.utc).date())
        hits.append(LightHit(eid, "event", str(day), when))
        if len(hits) >= limit:
            break
    return hits


# ---- one question in one mode -----------------------------------------------------------------
def _ask(store: IngestedStore, q: BenchQuestion, mode: str, budget: int,
         pack_k: int | None = None, loader_k: int | None = None) -> QuestionOutcome:
    """One question in one mode. Every mode draws as many candidates as the loader would for
    this budget (`candidates_for`), so single retrievers are not starved of items to pack."""
    from lorestack.retrieval.loader import candidates_for

    pack_k = loader_k = max(pack_k or 0, loader_k or 0, candidates_for(store.mem, budget))
    now = q.time
    started = time.perf_counter()
    if mode == "recency":
        hits = recency_hits(store, now, budget)
    else:
        k = max(max(KS), loader_k if mode == "default" else pack_k)
        hits = store.index.search(q.question, k=k, mode=mode, now=now, sync=False,
                                  record_access=False)
    search_ms = (time.perf_counter() - started) * 1000
    mapped = [store.store_ids.get(h.id) for h in hits]
    ids = [m for m in dict.fromkeys(mapped) if m is not None]
    def more_hits(k: int) -> list:
        return store.index.search(q.question, k=k, mode=mode, now=now, sync=False,
                                  record_access=False)

    started = time.perf_counter()
    result = build_context(store, q.question, budget, now,
                           hits[:loader_k] if mode == "default" else hits, mode == "default",
                           None if mode == "recency" else more_hits)
    # a context needs its search too, so its time includes it
    context_ms = (time.perf_counter() - started) * 1000 + search_ms
    ranked = ids[: max(KS)]
    found_at = {e: (ranked.index(e) if e in ranked else None) for e in q.evidence}
    in_context = _present(store, q.evidence, result.text)
    floor_in = None
    if mode == "default":  # the plain packing of the same ranking into budget − resident
        resident = result.tiers["resident"].used if "resident" in result.tiers else 0
        packed = build_context(store, q.question, budget - resident, now, hits[:loader_k], False)
        floor_in = _present(store, q.evidence, packed.text)
    return QuestionOutcome(q.id, mode, q.category, ranked, found_at, in_context, result.tokens,
                           search_ms, context_ms, floor_in, answer_present(q.answer, result.text))


def answer_present(answer, context: str) -> bool | None:
    """Whether a text (or number) answer appears in the context as whole words, case and
    spacing ignored ("43" is not found in "latency=2431ms")."""
    if isinstance(answer, bool) or not isinstance(answer, (str, int, float)):
        return None
    import re

    wanted = normalise_ws(str(answer)).lower()
    if not wanted:
        return False
    pattern = r"(?<!\w)" + re.escape(wanted) + r"(?!\w)"
    return re.search(pattern, normalise_ws(context).lower()) is not None


def _present(store: IngestedStore, evidence: list[str], context: str) -> dict[str, bool]:
    flat = normalise_ws(context)
    return {e: normalise_ws(store.texts[e]) in flat for e in evidence}


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


def _results(outcomes: list[QuestionOutcome], modes: list[str], budget: int,
             ingest_rate: float) -> dict[str, dict]:
    results = {}
    for mode in modes:
        mine = [o for o in outcomes if o.mode == mode]
        metrics = summarise(mine, budget)
        metrics["ingest_events_per_s"] = ingest_rate
        categories = sorted({o.category for o in mine})
        metrics["by_category"] = {c: summarise([o for o in mine if o.category == c], budget)
                                  for c in categories}
        results[mode] = metrics
    return results


# ---- the run ----------------------------------------------------------------------------------
@dataclass
class LineResult:
    """One dataset line asked in every mode (what a worker process sends back)."""

    outcomes: list[QuestionOutcome]
    budget: int
    write_s: float
    index_s: float
    redacted: int


def bench_line(line: BenchLine, budget: int | None, modes: list[str],
               overrides: dict | None = None, progress: Progress | None = None) -> LineResult:
    """Ingest one line into a fresh store (embedded once), ask its questions in every mode
    against the same index, with the questions embedded in one batch."""
    outcomes: list[QuestionOutcome] = []
    store = ingest_events(line.events, overrides=overrides)
    try:
        settings = store.mem.settings
        budget = budget or settings.loader.budget
        if any(m in ("vector", "rrf", "default") for m in modes):
            store.index.prime_queries([q.question for q in line.questions])
        for mode in modes:
            for q in line.questions:
                outcomes.append(_ask(store, q, mode, budget, settings.retrieval.candidates,
                                     settings.loader.candidates))
                if progress:
                    progress(1, f"{line.name} {mode}")
        return LineResult(outcomes, budget, store.write_s, store.index_s, store.redacted)
    finally:
        store.close()


def _worker_line(line: BenchLine, budget: int | None, modes: list[str],
                 overrides: dict | None) -> LineResult:
    from lorestack.memory_layers import parse_cache

    parse_cache.enable(True)
    return bench_line(line, budget, modes, overrides)


def _line_results(lines: list[BenchLine], budget: int | None, modes: list[str],
                  overrides: dict | None, progress: Progress | None, jobs: int):
    """Every line's result, in dataset order; `jobs` > 1 asks lines in worker processes."""
    if jobs <= 1 or len(lines) <= 1:
        for line in lines:
            yield bench_line(line, budget, modes, overrides, progress)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # spawn: onnxruntime and Chroma keep threads that a forked child must not inherit
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=min(jobs, len(lines)), mp_context=context) as pool:
        futures = [pool.submit(_worker_line, line, budget, modes, overrides) for line in lines]
        for line, future in zip(lines, futures):
            result = future.result()
            if progress:
                progress(len(result.outcomes), line.name)
            yield result


def default_jobs(lines: int) -> int:
    """Worker processes for `bench retrieval`: one per core, at most 4, at most one per line."""
    import os

    return max(1, min(4, os.cpu_count() or 1, lines))


def run_lines(lines: list[BenchLine], *, dataset: str = "", budget: int | None = None,
              modes: list[str] | None = None, progress: Progress | None = None,
              overrides: dict | None = None, details: bool = False,
              jobs: int = 1) -> BenchReport:
    """Ingest each line into a fresh store, ask its questions in every mode, aggregate.

    Lines are independent, so `jobs` > 1 runs them in that many worker processes; the
    metrics do not depend on it (timings do: the workers share the machine)."""
    from lorestack.memory_layers import parse_cache

    if not lines:
        raise LorestackError("the dataset has no lines")
    modes = list(modes or MODES)
    report = BenchReport(FORMAT, dataset, budget or 0, modes)
    outcomes: list[QuestionOutcome] = []
    write_s = index_s = 0.0
    was_on = parse_cache.enabled()
    parse_cache.enable(True)  # a long-lived reader, like the service: parse each day file once
    try:
        for line, result in zip(lines, _line_results(lines, budget, modes, overrides,
                                                     progress, jobs)):
            outcomes.extend(result.outcomes)
            report.budget = result.budget
            write_s += result.write_s
            index_s += result.index_s
            report.redacted_events += result.redacted
            report.lines += 1
            report.events += len(line.events)
            report.questions += len(line.questions)
    finally:
        parse_cache.enable(was_on)
    spent = write_s + index_s
    report.ingest_events_per_s = round(report.events / spent, 1) if spent else 0.0
    report.index_seconds = round(index_s, 2)
    report.results = _results(outcomes, modes, report.budget, report.ingest_events_per_s)
    if details:
        report.details = outcomes
    return report


def run_retrieval_bench(dataset: str | Path, *, budget: int | None = None,
                        modes: list[str] | None = None, limit: int | None = None,
                        progress: Progress | None = None, on_start: Callable[[int], None] | None = None,
                        overrides: dict | None = None, details: bool = False,
                        jobs: int | None = 1) -> BenchReport:
    """Read a dataset file and run the bench on it (`on_start` gets the number of steps;
    `jobs` None: `default_jobs`)."""
    lines = read_dataset(dataset, limit=limit)
    jobs = default_jobs(len(lines)) if jobs is None else jobs
    modes = list(modes or MODES)
    if on_start:
        on_start(sum(len(line.questions) for line in lines) * len(modes))
    return run_lines(lines, dataset=str(dataset), budget=budget, modes=modes,
                     progress=progress, overrides=overrides, details=details, jobs=jobs)
