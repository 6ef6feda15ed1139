"""`lorestack bench …`: retrieval quality, latency and throughput benchmarks."""

from __future__ import annotations

import json
import sys

import click

from lorestack.cli.bench_render import fmt, render_per_category, render_retrieval, with_unit
from lorestack.cli.render import emit_json, table, to_jsonable


@click.group()
def bench():
    """Measure retrieval quality, latency and embedding throughput."""


def _stderr():
    return sys.stderr  # looked up at call time: CliRunner swaps it


def _parse_budgets(value: str | None) -> list[int] | None:
    if not value:
        return None
    try:
        budgets = [int(part) for part in value.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a list of token counts",
                                 param_hint="--budget") from None
    if not budgets or min(budgets) < 1:
        raise click.BadParameter("budgets must be positive", param_hint="--budget")
    return list(dict.fromkeys(budgets))


@bench.command("retrieval")
@click.option("--dataset", required=True, type=click.Path(dir_okay=False),
              help="A lorestack-bench/1 JSONL file (see `lorestack bench generate`).")
@click.option("--budget", default=None, metavar="B[,B…]",
              help="Context budget(s) in tokens for context_all@B, e.g. 300,1000,2000 (each "
                   "question is searched once and packed at each; default: loader.budget).")
@click.option("--modes", default=None, metavar="LIST",
              help="Comma-separated modes: bm25,vector,rrf,default,recency,plain-vector,"
                   "plain-bm25,plain-rrf (default: all; rrf = plain fusion of bm25 and vector; "
                   "hybrid = alias of default, which is the prompt hook's own path; plain-* = "
                   "reference rankings of the raw texts; `wide` = research: the pipeline with "
                   "the loader's wide draw and every tier).")
@click.option("--ablate", is_flag=True,
              help="Also ask the default mode with each pipeline stage off, one at a time.")
@click.option("--per-category", is_flag=True,
              help="Print every metric per category and mode (JSON always has them).")
@click.option("--limit", type=click.IntRange(1), default=None,
              help="Only the first N dataset lines.")
@click.option("--details", "details_file", type=click.Path(dir_okay=False), default=None,
              help="Also write one JSON line per question and mode to this file.")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None,
              help="Save recall by mode and category as a PNG (needs the 'plot' extra).")
@click.option("--jobs", type=click.IntRange(1), default=None,
              help="Dataset lines asked in parallel worker processes (default: one per core, "
                   "at most 4). Metrics do not depend on it; timings do.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON on stdout.")
def bench_retrieval(dataset, budget, modes, ablate, per_category, limit, details_file, plot_file,
                    jobs, as_json):
    """Recall and context metrics per mode and category on a benchmark dataset.

    Each line is ingested into its own fresh temporary store; questions are asked with
    their own time as "now". Progress goes to stderr.
    """
    from lorestack.bench.retrieval import parse_modes, run_retrieval_bench

    chosen = parse_modes(modes)
    budgets = _parse_budgets(budget)
    if plot_file:
        from lorestack.bench.plot import _pyplot

        _pyplot()  # fail before a long run, not after it
    state: dict = {}

    def on_start(total: int) -> None:
        from lorestack.cli.render import progress as progress_bar

        state["bar"] = progress_bar(total, "bench retrieval")  # silent unless stderr is a tty
        state["bar"].__enter__()

    def progress(n: int, _label: str) -> None:
        state["bar"].update(n)

    try:
        report = run_retrieval_bench(dataset, budget=budgets, modes=chosen, limit=limit,
                                     on_start=on_start, progress=progress,
                                     details=bool(details_file), jobs=jobs, ablate=ablate)
    finally:
        if "bar" in state:
            state["bar"].__exit__(None, None, None)
    if details_file:
        with open(details_file, "w", encoding="utf-8") as fh:
            fh.writelines(json.dumps(to_jsonable(o), ensure_ascii=False) + "\n"
                          for o in report.details)
        report.details = []
    if plot_file:
        from lorestack.bench.plot import plot_retrieval

        plot_retrieval(report.results, report.budget, plot_file)
        click.echo(f"plot written to {plot_file}", err=True)
    if as_json:
        emit_json(report)
    elif per_category:
        click.echo(render_retrieval(report))
        click.echo("\n" + render_per_category(report))
    else:
        click.echo(render_retrieval(report))


@bench.command("generate")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed; the same seed always gives the same bytes.")
@click.option("--projects", type=click.IntRange(1), default=5, show_default=True,
              help="Number of project histories (dataset lines).")
@click.option("--days", type=click.IntRange(8), default=60, show_default=True,
              help="Days of history per project (chat style: sessions per conversation).")
@click.option("--style", type=click.Choice(["code", "chat", "notes"]), default="code",
              show_default=True,
              help="code = coding-project histories; chat = two-person conversations; "
                   "notes = journals with long pasted notes and logs.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of stdout.")
def bench_generate(seed, projects, days, style, output):
    """Write a synthetic benchmark (lorestack-bench/1 JSONL). Deterministic for a seed.

    --style code: project histories with exact identifiers, decisions and rejected options,
    knowledge updates, early preferences and criteria, temporal and multi-hop questions, and
    near-duplicate distractors. --style chat: two people over dated sessions (--projects
    conversations of --days sessions): small talk, facts completed by the next turn, relative
    dates, facts that change, facts across sessions, paraphrased questions. --style notes:
    project journals whose facts sit inside long pasted notes and logs (500-2,000 tokens),
    for excerpts and `answer_in_context@B`.
    """
    if style == "notes":
        import json as _json

        from lorestack.bench.notes import generate_notes

        text = "".join(_json.dumps(line, ensure_ascii=False) + "\n"
                       for line in generate_notes(seed, projects, days))
    elif style == "chat":
        import json as _json

        from lorestack.bench.chat import generate_chat

        text = "".join(_json.dumps(line, ensure_ascii=False) + "\n"
                       for line in generate_chat(seed, projects, days))
    else:
        from lorestack.bench.generate import generate_jsonl

        text = generate_jsonl(seed, projects, days)
    if output:
        with open(output, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        click.echo(f"wrote {projects} projects × {days} days to {output}", err=True)
    else:
        sys.stdout.write(text)


@bench.command("embed")
@click.option("--texts", type=click.IntRange(16), default=1000, show_default=True,
              help="How many short synthetic memory texts to embed.")
@click.option("--model-dir", type=click.Path(file_okay=False), default=None,
              help="all-MiniLM-L6-v2 onnx folder (default: embedding.model_dir).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@click.pass_context
def bench_embed(ctx, texts, model_dir, as_json):
    """Embedding throughput: lorestack's ONNX embedder vs chroma's default function.

    Same texts, same run, same model files; reports items/s, the speed ratio and the minimum
    cosine between the two sets of vectors.
    """
    from lorestack.bench.search import embed_throughput
    from lorestack.cli.main import settings_for
    from lorestack.retrieval.embedding import resolve_model_dir

    folder = model_dir or resolve_model_dir(settings_for(ctx).embedding)
    result = embed_throughput(folder, texts)
    if as_json:
        emit_json(result)
    else:
        click.echo(table([[with_unit(k), fmt(v)] for k, v in result.items()], ["metric", "value"]))


@bench.command("search")
@click.option("--items", default="1000,10000", show_default=True, metavar="LIST",
              help="Comma-separated store sizes to generate and measure (10k = 10000).")
@click.option("--queries", type=click.IntRange(10), default=200, show_default=True,
              help="Warm searches timed per size.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_search(items, queries, as_json):
    """Search latency and reindex speed on synthetic stores (temporary folders).

    Per size: full reindex items/s and peak RSS, then warm in-process hybrid search
    p50/p95 (default pipeline), with and without the per-search file sync.
    """
    from lorestack.bench.latency import parse_sizes
    from lorestack.bench.search import search_latency

    sizes = parse_sizes(items)
    results = []
    for n in sizes:
        click.echo(f"measuring {n} items…", err=True)
        results.append(search_latency(n, queries=queries))
    if as_json:
        emit_json(results)
    else:
        keys = list(results[0]) if results else []
        click.echo(table([[with_unit(k), *(fmt(r[k]) for r in results)] for k in keys],
                         ["metric", *(f"{n} items" for n in sizes)]))


@bench.command("secrets")
@click.option("--runs", type=click.IntRange(1, 100), default=3, show_default=True,
              help="Corpus runs, each with fresh random values.")
@click.option("--seed", type=int, default=None,
              help="First seed (default: random); run i uses seed + i.")
@click.option("--baseline", is_flag=True,
              help="Also score detect-secrets' plugins on the same corpus, for reference.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_secrets(runs, seed, baseline, as_json):
    """Secret guard: blocked % and false-positive % on a labelled corpus, and its cost.

    The corpus puts 70+ credential kinds into ordinary dev notes and 50+ benign look-alikes
    (integrity hashes, SHAs, UUIDs, ids, placeholders) beside them, with values generated
    fresh for each run.
    """
    import random

    from lorestack.bench.secrets import run_secret_bench

    first = seed if seed is not None else random.SystemRandom().randrange(1, 10**9)
    report = run_secret_bench([first + i for i in range(runs)], baseline=baseline)
    if as_json:
        emit_json(report)
        return
    rows = [[str(r["seed"]), f"{r['blocked']}/{r['credential_kinds']}", f"{r['blocked_pct']:.1f}",
             f"{r['fully_redacted']}/{r['credential_kinds']}",
             f"{r['false_positives']}/{r['benign_kinds']}", f"{r['false_positive_pct']:.1f}",
             ", ".join(r["missed"] + [f"FP {k}" for k in r["flagged_benign"]]
                       + [f"leak {k}" for k in r["leaked"]])]
            for r in report.runs]
    click.echo(table(rows, ["seed", "blocked", "%", "fully redacted", "false pos.", "%",
                            "missed / flagged"]))
    click.echo(f"mean: {report.blocked_pct_mean:.1f}% blocked, "
               f"{report.false_positive_pct_mean:.1f}% false positives")
    click.echo(f"cost: {report.us_per_note} µs per note, {report.us_per_2kb_item} µs per 2 kB "
               f"item, import {report.import_ms} ms; worst 60 kB adversarial input "
               f"{report.worst_adversarial_ms} ms ({report.worst_adversarial_case})")
    for row in report.spoken:
        caught = row.get("blocked", row.get("false_positives"))
        what = "blocked" if row["credential"] else "flagged (false positives)"
        click.echo(f"said in words, {row['set']}: {row['kind']}: {what} {caught}/{row['total']}")
    if report.baseline:
        for row in report.baseline:
            click.echo(f"detect-secrets plugins, seed {row['seed']}: {row['blocked_pct']:.1f}% "
                       f"blocked, {row['false_positive_pct']:.1f}% false positives")


@bench.command("viewer")
@click.option("--items", type=click.IntRange(1), default=10_000, show_default=True,
              help="Item files in the synthetic store (plus a quarter as many journal events).")
@click.option("--runs", type=click.IntRange(1), default=5, show_default=True,
              help="Warm requests timed per page.")
@click.option("--search", "with_search", is_flag=True,
              help="Also build the index and time the search and context-with-query pages.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def bench_viewer(items, runs, with_search, as_json):
    """Server time of each viewer page (`lorestack ui`) on a synthetic store.

    Reads each page's own Server-Timing (no browser, no network): the first request parses
    every file once; later ones stat the folders and re-read what changed.
    """
    from lorestack.bench.viewer import measure_viewer

    click.echo(f"building a store of {items} items…", err=True)
    report = measure_viewer(items, runs=runs, with_search=with_search)
    if as_json:
        emit_json(report)
        return
    click.echo(f"{report['items']} items, {report['events']} events; first request "
               f"{report['first_request_ms']:.0f} ms (parses every file), full sweep "
               f"{report['full_sweep_ms']:.0f} ms")
    rows = [[label, r["path"], f"{r['median_ms']:.1f}", f"{r['max_ms']:.1f}"]
            for label, r in report["pages"].items()]
    click.echo(table(rows, ["page", "path", "median ms", "max ms"]))


def _render_latency(report) -> str:
    cols = [("items", "items"), ("session_start_ms_p50", "start p50 ms"),
            ("session_start_ms_p95", "start p95 ms"), ("prompt_ms_p50", "prompt p50 ms"),
            ("prompt_ms_p95", "prompt p95 ms"), ("search_ms_p50", "search p50 ms"),
            ("search_ms_p95", "search p95 ms"), ("context_ms_p50", "context p50 ms"),
            ("reindex_items_per_s", "reindex items/s"), ("reindex_peak_rss_mb", "peak RSS MB")]
    rows = [[fmt(r.get(key)) for key, _ in cols] for r in report.rows]
    lines = ["hooks are whole processes, search/context in-process",
             table(rows, [head for _, head in cols])]
    lines.extend(_render_service(report.rows))
    e = report.embedding
    if e:
        lines.append(f"\nembedding {e['texts']} texts (~{e['tokens_mean']} tokens): ours "
                     f"{e['ours_items_per_s']}/s, chroma default {e['chroma_items_per_s']}/s, "
                     f"ratio {e['ratio']}x, min cosine {e['min_cosine']:.4f}")
    return "\n".join(lines)


def _render_service(rows) -> list[str]:
    """Whole processes as a client runs them, resident service off vs on."""
    table_rows, notes = [], []
    for r in rows:
        svc = r.get("service")
        if not svc:
            continue
        for state in ("off", "on"):
            f = svc.get(state)
            if f:
                table_rows.append([str(r["items"]), state, *(fmt(f[k].get(p)) for k, p in (
                    ("session_start_ms", "p50"), ("prompt_ms", "p50"), ("prompt_ms", "p95"),
                    ("search_ms", "p50"), ("check_ms", "p50"), ("pre_tool_ms", "p50"))),
                    f["prompt_recalled"]])
        notes.append(f"{r['items']} items: first prompt after boot (no service) "
                     f"{fmt(svc.get('first_prompt_ms'))} ms, recall "
                     f"{'arrived' if svc.get('first_prompt_recalled') else 'MISSING'}, service "
                     f"{'up' if svc.get('service_started_by_first_call') else 'NOT started'} after; "
                     f"service RSS {fmt(svc.get('service_rss_mb'))} MB, idle CPU "
                     f"{fmt(svc.get('service_idle_cpu_pct'))}%")
    if not table_rows:
        return []
    heads = ["items", "service", "start p50", "prompt p50", "prompt p95", "search p50",
             "check p50", "pre-tool p50", "prompt recalled"]
    return ["\nwhole processes (the lorestack script), resident service off vs on:",
            table(table_rows, heads), *notes]


@bench.command("latency")
@click.option("--items", "items", default="1000,10000,100000", show_default=True, metavar="LIST",
              help="Comma-separated store sizes to generate and measure (10k = 10000).")
@click.option("--runs", type=click.IntRange(1), default=20, show_default=True,
              help="Whole-process hook runs (and context assemblies) per size.")
@click.option("--queries", type=click.IntRange(1), default=200, show_default=True,
              help="In-process searches per size.")
@click.option("--embed-texts", type=click.IntRange(0), default=1000, show_default=True,
              help="Texts for the embedder comparison (0 skips it).")
@click.option("--plot", "plot_file", type=click.Path(dir_okay=False), default=None,
              help="Save latency by store size as a PNG (needs the 'plot' extra).")
@click.option("--service/--no-service", default=True, show_default=True,
              help="Also time whole processes with the resident service off vs on (first call "
                   "after boot, warm session-start/prompt/search/check, service RSS and idle CPU).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON on stdout.")
@click.pass_context
def bench_latency(ctx, items, runs, queries, embed_texts, plot_file, service, as_json):
    """Hook, search, context and reindex speed on generated stores of each size.

    Builds temporary stores (nothing touches your memory); large sizes take minutes
    (indexing embeds every item). Progress goes to stderr.
    """
    from lorestack.bench.latency import parse_sizes, run_latency_bench
    from lorestack.cli.main import settings_for

    sizes = parse_sizes(items)
    if plot_file:
        from lorestack.bench.plot import _pyplot

        _pyplot()
    report = run_latency_bench(sizes, runs=runs, queries=queries, embed_texts=embed_texts,
                               settings=settings_for(ctx), service=service,
                               progress=lambda msg: click.echo(f"bench latency: {msg}", err=True))
    if plot_file:
        from lorestack.bench.plot import plot_latency

        plot_latency(report.rows, plot_file)
        click.echo(f"plot written to {plot_file}", err=True)
    if as_json:
        emit_json(report)
    else:
        click.echo(_render_latency(report))


COMMANDS = [bench]
