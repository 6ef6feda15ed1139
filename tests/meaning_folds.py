"""Leave-one-batch-out choice of the by-meaning decision (tenth session, issue 22): on the
pairs tests/meaning_pairs.py collects from the nine tuning batches (b1-b3 of
tests/guardrail_tuning_cases.py, batch4 … batch9), fit or choose a decision on eight
batches, score it on the ninth, sum over the nine folds, and compare with the current
reader (its hand thresholds) on the same folds. Never runs the held-out set.

    python -m tests.meaning_folds collect [--floor 0.25] [--out FILE]   # ~5 min, runs check
    python -m tests.meaning_folds logistic [FILE] [--flat] [--json OUT]
    python -m tests.meaning_folds thresholds [FILE] [--free] [--ways] [--json OUT]

`logistic`: a logistic model over the reader's similarities (meaning_pairs.FEATURES) with
its cut, and (nested: chosen by leave-one-batch-out on the eight training batches) the
floor below which nothing applies and the weight of other criteria's pairs as passes.
`thresholds`: the hand rule's three values (meaning threshold, forbidden-act similarity,
positive margin; `--ways`: with the recommended way's similarity and margin too) chosen
jointly on the eight batches. A choice must add no silent pass and
lose no passing look-alike on its training batches (`--free`: exact alone decides), or the
current values stand.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from tests.meaning_pairs import (
    FEATURES,
    FOLDS,
    Thresholds,
    answers,
    collect,
    current,
    figures,
    line,
)

DEFAULT_FILE = Path(tempfile.gettempdir()) / "meaning_pairs.json"


def training(rows: list[dict], other_weight: float):
    """(X, y, weight): each pair that reached the decision; a case's own criterion labelled
    by the case, every other criterion's pair as a pass (weighted `other_weight`)."""
    X, y, w = [], [], []
    for r in rows:
        for key, v in r["pairs"].items():
            own = key == r["key"]
            if not own and other_weight <= 0:
                continue
            X.append([v[name] for name in FEATURES])
            y.append(1.0 if own and r["expected"] == "violation" else 0.0)
            w.append(1.0 if own else other_weight)
    return np.array(X), np.array(y), np.array(w)


def fit(X, y, w, l2: float = 1.0, steps: int = 3000) -> dict:
    """Weighted logistic regression by gradient descent on standardised signals (numpy)."""
    mean = X.mean(axis=0)
    scale = X.std(axis=0)
    scale[scale < 1e-6] = 1.0
    Z = (X - mean) / scale
    wts = np.zeros(Z.shape[1])
    bias = 0.0
    n = w.sum()
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(Z @ wts + bias)))
        g = w * (p - y)
        wts -= 0.5 * ((Z.T @ g) / n + l2 * wts / n)
        bias -= 0.5 * g.sum() / n
    return {"mean": mean.tolist(), "scale": scale.tolist(), "weights": wts.tolist(),
            "bias": float(bias)}


class Decider:
    """A fitted model as a decision on collected signals (scores memoised per pair)."""

    def __init__(self, params: dict, floor: float, shift: float = 0.0):
        self.features = FEATURES
        self.mean, self.scale = np.array(params["mean"]), np.array(params["scale"])
        self.wts, self.bias = np.array(params["weights"]), params["bias"]
        self.floor, self.shift = floor, shift
        self.memo: dict[int, float] = {}

    def z(self, v: dict) -> float:
        z = self.memo.get(id(v))
        if z is None:
            x = np.array([v[name] for name in self.features])
            z = self.memo[id(v)] = float(((x - self.mean) / self.scale) @ self.wts) + self.bias
        return z

    def __call__(self, v: dict) -> bool:
        return v["best"] >= self.floor and self.z(v) + self.shift >= 0


SHIFTS = tuple(round(float(s), 2) for s in np.arange(-3.0, 3.01, 0.25))


def choose(rows: list[dict], floor: float, other_weight: float, l2: float):
    """Fit on `rows`, then the bias shift with the most exact answers on them among those
    with no more silent passes and no fewer passing look-alikes than the current reader
    (ties: fewer silent passes, then fewer other criteria flagged); None if no shift does."""
    params = fit(*training(rows, other_weight), l2=l2)
    base = figures(answers(rows, current))
    decide = Decider(params, floor)
    best = None
    for shift in SHIFTS:
        decide.shift = shift
        f = figures(answers(rows, decide))
        if f["silent"] > base["silent"] or f["lookalike_pass"] < base["lookalike_pass"]:
            continue
        rank = (f["exact"], -f["silent"], -f["other_flagged"])
        if best is None or rank > best[0]:
            best = (rank, shift)
    if best is None:
        return None
    params["bias"] += best[1]
    params["floor"] = floor
    params["train"] = dict(zip(("exact", "silent", "other"), (best[0][0], -best[0][1], -best[0][2])))
    return params


GRID = tuple((floor, ow, l2) for floor in (0.25, 0.30, 0.35) for ow in (0.0, 0.1) for l2 in (1.0,))


def select(rows: list[dict], grid=GRID) -> dict | None:
    """The setting (floor, weight of other criteria's pairs, L2) whose leave-one-batch-out
    exact sum on `rows` is highest (no silent pass added, no look-alike lost), refitted on
    all of `rows`; None when none beats the current reader on those folds."""
    names = sorted({r["fold"] for r in rows})
    best = None
    for floor, ow, l2 in grid:
        scored_before, scored_after = [], []
        for held in names:
            train = [r for r in rows if r["fold"] != held]
            test = [r for r in rows if r["fold"] == held]
            params = choose(train, floor, ow, l2)
            scored_before += answers(test, current)
            scored_after += answers(test, Decider(params, floor) if params else current)
        f, base = figures(scored_after), figures(scored_before)
        if f["silent"] > base["silent"] or f["lookalike_pass"] < base["lookalike_pass"]:
            continue
        rank = (f["exact"] - base["exact"], -f["other_flagged"])
        if rank[0] > 0 and (best is None or rank > best[0]):
            best = (rank, (floor, ow, l2))
    if best is None:
        return None
    floor, ow, l2 = best[1]
    params = choose(rows, floor, ow, l2)
    if params:
        params.update(other_weight=ow, l2=l2)
    return params


def run_folds(rows: list[dict], pick) -> dict:
    """Leave one batch out: `pick(train)` gives (the decision, what was chosen) from eight
    batches; the ninth is scored with it and with the current reader (before)."""
    before, after, per = [], [], {}
    for held in FOLDS:
        train = [r for r in rows if r["fold"] != held]
        test = [r for r in rows if r["fold"] == held]
        decide, chosen = pick(train)
        b, a = answers(test, current), answers(test, decide)
        before += b
        after += a
        per[held] = {"before": figures(b), "after": figures(a), "chosen": chosen}
        print(f"  {held:7} before {line('', per[held]['before'])}")
        print(f"  {'':7} after  {line('', per[held]['after'])}  ({chosen})", flush=True)
    out = {"before": figures(before), "after": figures(after), "per_fold": per}
    print(line("before", out["before"]))
    print(line("after", out["after"]))
    return out


def logistic_folds(data: dict, nested: bool = True, grid=GRID) -> dict:
    """Leave one batch out: choose (nested: the setting too, by leave-one-batch-out on the
    other eight) and fit on eight batches, score the ninth; before = the current reader."""

    def pick(train):
        params = select(train, grid) if nested else choose(train, *grid[0])
        if not params:
            return current, "current"
        return (Decider(params, params["floor"]),
                f"floor {params['floor']} other {params.get('other_weight', grid[0][1])}")

    return run_folds(data["rows"], pick)


THRESHOLD_GRID = tuple(
    (t, f, m) for t in (0.25, 0.30, 0.35, 0.40) for f in (0.35, 0.40, 0.45, 0.50, 0.55)
    for m in (0.0, 0.10, 0.20, 0.30)
)


# with the recommended way's two values (judging.ALTERNATIVE_SIMILARITY / _MARGIN, never
# folded before): the meaning threshold and the positive margin at their two best values
WAY_GRID = tuple(
    (t, 0.45, m, round(w, 2), round(wm, 2)) for t in (0.30, 0.35) for m in (0.10, 0.20)
    for w in (0.30, 0.34, 0.38, 0.42, 0.46) for wm in (0.05, 0.10, 0.15, 0.20, 0.25)
)
CURRENT = (0.35, 0.45, 0.20, 0.38, 0.15)


def choose_thresholds(rows: list[dict], free: bool = False, grid=THRESHOLD_GRID) -> tuple | None:
    """The values with the most exact answers on `rows` among those adding no silent pass
    and losing no look-alike against the current values (`free`: any); ties: fewer other
    criteria flagged, then nearer the current values. None = the current values."""
    base = figures(answers(rows, current))
    best = None
    for values in grid:
        f = figures(answers(rows, Thresholds(*values)))
        if not free and (f["silent"] > base["silent"] or f["lookalike_pass"] < base["lookalike_pass"]):
            continue
        distance = sum(abs(a - b) for a, b in zip(values, CURRENT))
        rank = (f["exact"], -f["other_flagged"], -distance)
        if best is None or rank > best[0]:
            best = (rank, values)
    return best[1] if best else None


def threshold_folds(data: dict, free: bool = False, grid=THRESHOLD_GRID) -> dict:
    """Leave one batch out for the hand rule's values chosen jointly."""

    def pick(train):
        values = choose_thresholds(train, free, grid)
        return (Thresholds(*values) if values else current), values

    return run_folds(data["rows"], pick)


def main(argv: list[str]) -> None:
    command = argv[0] if argv else "logistic"
    path = Path(argv[argv.index("--out") + 1]) if "--out" in argv else DEFAULT_FILE
    if command != "collect" and len(argv) > 1 and not argv[1].startswith("--"):
        path = Path(argv[1])
    if command == "collect":
        floor = float(argv[argv.index("--floor") + 1]) if "--floor" in argv else 0.25
        data = collect(floor)
        path.write_text(json.dumps(data))
        print("collected", len(data["rows"]), "cases;",
              line("current", figures(answers(data["rows"], current))))
        return
    data = json.loads(path.read_text("utf-8"))
    if command == "logistic":
        out = logistic_folds(data, nested="--flat" not in argv)
    elif command == "thresholds":
        out = threshold_folds(data, "--free" in argv, WAY_GRID if "--ways" in argv else THRESHOLD_GRID)
    else:
        raise SystemExit(f"unknown command {command!r}: collect, logistic or thresholds")
    if "--json" in argv:
        Path(argv[argv.index("--json") + 1]).write_text(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
