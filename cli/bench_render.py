"""How `lorestack bench` prints its reports: numbers, unit labels, the retrieval tables."""

from __future__ import annotations

from lorestack.cli.render import table


def fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if value <= 1.0 else f"{value:.1f}"
    return "" if value is None else str(value)


def with_unit(key: str) -> str:
    """`search_ms_p50` → `search p50 (ms)`: the unit spelled out in the row label."""
    import re

    for pattern, unit in ((r"_ms(?=_|$)", "ms"), (r"_per_s$", "per s"), (r"_mb$", "MB"),
                          (r"_(?:s|seconds)$", "s")):
        if re.search(pattern, key):
            return f"{re.sub(pattern, '', key).replace('_', ' ')} ({unit})"
    return key.replace("_", " ")


def render_retrieval(report) -> str:
    budget = report.budget
    budgets = report.budgets or [budget]
    ctx_all, ctx_any = f"context_all@{budget}", f"context_any@{budget}"
    cols = ["recall_any@1", "recall_any@5", "recall_any@10", "recall_all@10", ctx_all, ctx_any,
            f"answer_in_context@{budget}", "tokens_mean", "search_ms_p50", "search_ms_p95",
            "context_ms_p50"]
    heads = ["mode", "any@1", "any@5", "any@10", "all@10", f"ctx_all@{budget}",
             f"ctx_any@{budget}", f"answer@{budget}", "tokens", "search p50 ms", "search p95 ms",
             "ctx p50 ms"]
    for extra in budgets[1:]:
        cols.append(f"context_all@{extra}")
        heads.append(f"ctx_all@{extra}")
    rows = [[mode, *(fmt(r.get(c)) for c in cols)] for mode, r in report.results.items()]
    modes = list(report.results)
    categories = sorted({c for r in report.results.values() for c in r["by_category"]})
    cat_rows = []
    for cat in categories:
        n = next(r["by_category"][cat]["n"] for r in report.results.values()
                 if cat in r["by_category"])
        cells = []
        for mode in modes:
            m = report.results[mode]["by_category"].get(cat, {})
            cells.append(" / ".join(fmt(m.get(f"context_all@{b}")) for b in budgets)
                         + f" / {fmt(m.get('recall_any@10'))}")
        cat_rows.append([cat, str(n), *cells])
    spelled = " / ".join(f"context_all@{b}" for b in budgets)
    lines = [
        (f"{report.dataset}: {report.lines} lines, {report.events} events, {report.questions} "
         f"questions; ingest {report.ingest_events_per_s} events/s (index {report.index_seconds}s)"),
        "",
        table(rows, heads),
        "",
        f"by category ({spelled} / recall_any@10):",
        table(cat_rows, ["category", "n", *modes]),
    ]
    floor = report.results.get("default", {})
    if "floor_violations" in floor:
        lines.append(f"\ndefault vs the plain packing of its ranking into budget − resident: "
                     f"{floor['floor_violations']} questions lost evidence "
                     f"(packing alone: ctx_all {fmt(floor.get(f'floor_all@{budget}'))})")
    if report.redacted_events:
        lines.append(f"\n{report.redacted_events} events had secret-looking text redacted")
    return "\n".join(lines)


def render_per_category(report) -> str:
    budgets = report.budgets or [report.budget]
    cols = ["n", "recall_any@5", "recall_any@10", "recall_all@10",
            *(f"context_all@{b}" for b in budgets), f"context_any@{budgets[0]}", "tokens_mean"]
    rows = []
    for mode, result in report.results.items():
        for cat, m in sorted(result["by_category"].items()):
            rows.append([mode, cat, *(fmt(m.get(c)) for c in cols)])
    return table(rows, ["mode", "category", "n", "any@5", "any@10", "all@10",
                        *(f"ctx_all@{b}" for b in budgets), f"ctx_any@{budgets[0]}",
                        "tokens"])
