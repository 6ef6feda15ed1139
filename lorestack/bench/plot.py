"""Pictures for the benches: recall by mode and category, latency by store size.

matplotlib is an optional extra (`pip install 'lorestack[plot]'`); it is imported only here,
inside the functions, and its absence is one clear error.
"""

from __future__ import annotations

from pathlib import Path

from lorestack.core.errors import MissingExtra


def _pyplot():
    try:
        import matplotlib
    except ImportError as exc:
        raise MissingExtra(
            "--plot needs matplotlib: pip install 'lorestack[plot]' (or pip install matplotlib)"
        ) from exc
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def _grouped_bars(ax, groups: list[str], series: dict[str, list[float]], title: str) -> None:
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, values, width, label=name)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=25, ha="right", fontsize=8)
    ax.set_ylim(0, 1.22)  # headroom for the legend
    ax.set_title(title, fontsize=10)
    ax.grid(axis="y", alpha=0.3)


def plot_retrieval(results: dict[str, dict], budget: int, out: str | Path) -> Path:
    """Two panels: context_all@B and recall_any@10, per category and overall, one bar per mode."""
    plt = _pyplot()
    modes = list(results)
    categories = sorted({c for r in results.values() for c in r.get("by_category", {})})
    groups = ["all", *categories]

    def values(metric: str) -> dict[str, list[float]]:
        return {m: [results[m].get(metric, 0.0)] +
                   [results[m]["by_category"].get(c, {}).get(metric, 0.0) for c in categories]
                for m in modes}

    fig, axes = plt.subplots(2, 1, figsize=(max(8, 1.1 * len(groups) + 3), 8))
    _grouped_bars(axes[0], groups, values(f"context_all@{budget}"),
                  f"context_all@{budget}: all evidence whole in the context")
    _grouped_bars(axes[1], groups, values("recall_any@10"), "recall_any@10")
    axes[0].legend(fontsize=8, ncol=len(modes), loc="upper center")
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out


def plot_latency(rows: list[dict], out: str | Path) -> Path:
    """Milliseconds by store size (log-log), one line per measured figure."""
    plt = _pyplot()
    sizes = [r["items"] for r in rows]
    fig, ax = plt.subplots(figsize=(10, 5))
    keys = sorted({k for r in rows for k, v in r.items()
                   if k.endswith(("_ms", "_ms_p50", "_ms_p95"))})
    for key in keys:
        ys = [r.get(key) for r in rows]
        if all(y is None for y in ys):
            continue
        ax.plot(sizes, [y if y is not None else float("nan") for y in ys], marker="o", label=key)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("items in the store")
    ax.set_ylabel("milliseconds")
    ax.set_title("lorestack latency by store size", fontsize=10)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=120)
    plt.close(fig)
    return out
