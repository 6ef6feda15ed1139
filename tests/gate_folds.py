"""Leave-one-batch-out scoring of a gate calibrated on labelled data (issue 22, twenty-fifth
session): on the rows tests/gate_features.py collects, a model trained on the passes of 21
batches to say "violation" scores the passes of the 22nd; a pass above its cut would become
"applies, undecided" (never a block). Reported as a trade curve: violations converted
(silent passes fewer) against look-alikes lost, and the share of other criteria's passing
pairs it would flag, at cuts chosen on the training batches only.

    python -m tests.gate_folds [FILE] [--others W | --two R | --top K] [--model logistic|tree]
                               [--only F1,F2,...] [-v]
    python -m tests.gate_folds FILE --last batch22          # one batch, trained on the others
    python -m tests.gate_folds FILE --frozen TRAIN_FILE     # a new batch, trained on TRAIN_FILE

`--others W`: other criteria's passing pairs in the fit as non-violations, weighted W.
`--two R`: a second model tells a case's own criterion from the others; a pair is scored
only where it keeps at most R of the training batches' other pairs.
`--top K`: only the K criteria nearest the proposal by meaning are scored.
`--model tree`: a small gradient-boosted tree (scikit-learn, not a dependency of lorestack).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from tests.gate_features import BUCKETS, CUES, DEFAULT_FILE

FEATURES = (
    "best", "sentence", "forbidden", "stated", "alternative", "has_forbidden", "has_stated",
    "has_alternative", "forbidden_over_stated", "alternative_over_forbidden", "drafted_forbid",
    "drafted_require", "property", "matched", "by_meaning", "missing", "overlap", "diff",
    "tool", "units", "log_chars", "rank", "top_margin", *CUES, *(f"bucket_{b}" for b in BUCKETS),
)
# the share of the training batches' passing look-alikes a cut may lose
TOP: float | None = None  # --top K
LOSSES = (0.02, 0.05, 0.10, 0.20, 0.30, 0.50)


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line]


def matrix(rows: list[dict], names=FEATURES) -> np.ndarray:
    return np.array([[float(r[n]) for n in names] for r in rows])


def fit_logistic(X, y, w, l2: float = 1.0, steps: int = 2000) -> dict:
    """Weighted logistic regression on standardised features (numpy, gradient descent)."""
    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale < 1e-6] = 1.0
    Z = (X - mean) / scale
    wts, bias, n = np.zeros(Z.shape[1]), 0.0, w.sum()
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(Z @ wts + bias)))
        g = w * (p - y)
        wts -= 0.5 * ((Z.T @ g) / n + l2 * wts / n)
        bias -= 0.5 * g.sum() / n
    return {"mean": mean, "scale": scale, "weights": wts, "bias": bias}


def score_logistic(params: dict, X) -> np.ndarray:
    return ((X - params["mean"]) / params["scale"]) @ params["weights"] + params["bias"]


def fit_tree(X, y, w):
    try:
        from sklearn.ensemble import HistGradientBoostingClassifier
    except ImportError:  # only this comparison needs it; the logistic model is numpy
        raise SystemExit("--model tree needs scikit-learn: pip install scikit-learn") from None

    model = HistGradientBoostingClassifier(max_depth=3, max_iter=150, learning_rate=0.05,
                                           min_samples_leaf=20, random_state=25)
    return model.fit(X, y, sample_weight=w)


def training(rows: list[dict], other_weight: float, names=FEATURES):
    """The passes the gate could convert: a case's own criterion (1 = violation) and, with
    `other_weight`, other criteria's passing pairs as non-violations."""
    use = [r for r in rows if r["got"] == "pass" and (r["label"] != "other" or other_weight > 0)]
    y = np.array([1.0 if r["label"] == "violation" else 0.0 for r in use])
    w = np.array([other_weight if r["label"] == "other" else 1.0 for r in use])
    return matrix(use, names), y, w


def auc(pos: np.ndarray, neg: np.ndarray) -> float:
    if not len(pos) or not len(neg):
        return float("nan")
    allv = np.concatenate([pos, neg])
    ranks = allv.argsort().argsort() + 1.0
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


class Model:
    """`relevance` (two stages): a second model tells a case's own criterion from other
    criteria; a pair is scored only where it keeps at most that share of the training
    batches' other pairs (below it the score is -inf)."""

    def __init__(self, rows, kind: str, other_weight: float, names=FEATURES, relevance=None):
        self.kind, self.names = kind, names
        X, y, w = training(rows, other_weight, names)
        fit = fit_logistic if kind == "logistic" else fit_tree
        self.params = fit(X, y, w)
        self.relevance = None
        self.top = TOP
        if relevance is not None:
            passing = [r for r in rows if r["got"] == "pass"]
            yr = np.array([0.0 if r["label"] == "other" else 1.0 for r in passing])
            wr = np.where(yr == 1.0, 1.0, yr.sum() / max(1.0, (1 - yr).sum()))
            self.relevance = fit(matrix(passing, names), yr, wr)
            other = np.sort(self._raw(self.relevance, [r for r in passing if r["label"] == "other"]))[::-1]
            self.rcut = float(other[max(0, int(round(relevance * len(other))) - 1)])
        la = [r for r in rows if r["got"] == "pass" and r["label"] == "pass"]
        la_scores = np.sort(self.score(la))[::-1]
        # the cut that loses `loss` of the training batches' passing look-alikes
        self.cuts = {loss: float(la_scores[max(0, int(round(loss * len(la_scores))) - 1)])
                     for loss in LOSSES}

    def _raw(self, params, rows) -> np.ndarray:
        X = matrix(rows, self.names)
        if self.kind == "logistic":
            return score_logistic(params, X)
        return params.predict_proba(X)[:, 1]

    top: float | None = None  # only the `top` criteria nearest the proposal are scored

    def score(self, rows) -> np.ndarray:
        s = self._raw(self.params, rows)
        if self.top is not None:
            s = np.where(np.array([r["rank"] < self.top for r in rows], dtype=bool), s, -np.inf)
        if self.relevance is not None:
            s = np.where(self._raw(self.relevance, rows) >= self.rcut, s, -np.inf)
        return s


def tally(model: Model, rows: list[dict]) -> dict:
    passing = [r for r in rows if r["got"] == "pass"]
    s = model.score(passing) if passing else np.array([])
    out = {}
    for loss, cut in model.cuts.items():
        hit = s >= cut
        out[loss] = {
            "converted": int(sum(h for h, r in zip(hit, passing) if r["label"] == "violation")),
            "lost": int(sum(h for h, r in zip(hit, passing) if r["label"] == "pass")),
            "other": int(sum(h for h, r in zip(hit, passing) if r["label"] == "other")),
        }
    return out, s, passing


def folds(rows: list[dict], kind: str, other_weight: float, names=FEATURES, verbose=True,
          relevance=None) -> dict:
    names_f = sorted({r["fold"] for r in rows}, key=lambda f: (len(f), f))
    total = {loss: {"converted": 0, "lost": 0, "other": 0} for loss in LOSSES}
    pos, neg, oth = [], [], []
    for held in names_f:
        train = [r for r in rows if r["fold"] != held]
        test = [r for r in rows if r["fold"] == held]
        model = Model(train, kind, other_weight, names, relevance)
        t, s, passing = tally(model, test)
        for loss in LOSSES:
            for k in total[loss]:
                total[loss][k] += t[loss][k]
        # scores relative to the fold's 10%-loss cut, pooled for an out-of-sample AUC
        rel = np.nan_to_num(s - model.cuts[0.10], neginf=-1e9)
        pos += [x for x, r in zip(rel, passing) if r["label"] == "violation"]
        neg += [x for x, r in zip(rel, passing) if r["label"] == "pass"]
        oth += [x for x, r in zip(rel, passing) if r["label"] == "other"]
        if verbose:
            sv = sum(r["label"] == "violation" for r in passing)
            sl = sum(r["label"] == "pass" for r in passing)
            print(f"  {held:8} silent {sv:3d} look-alikes pass {sl:3d} | " + "  ".join(
                f"{int(loss * 100)}%: +{t[loss]['converted']}/-{t[loss]['lost']}" for loss in (0.05, 0.20)))
    base = {k: sum(r["got"] == "pass" and r["label"] == k for r in rows) for k in ("violation", "pass", "other")}
    return {"total": total, "base": base, "auc": auc(np.array(pos), np.array(neg)),
            "auc_other": auc(np.array(pos), np.array(oth))}


def report(name: str, res: dict) -> None:
    b = res["base"]
    print(f"{name}: silent passes {b['violation']}, look-alikes pass {b['pass']}, other pairs "
          f"passing {b['other']}; pooled out-of-sample AUC violation vs look-alike "
          f"{res['auc']:.3f}, vs other pairs {res['auc_other']:.3f}")
    for loss, t in res["total"].items():
        ratio = t["converted"] / t["lost"] if t["lost"] else float("inf")
        print(f"  cut losing {int(loss * 100):2d}% of training look-alikes: violations "
              f"converted {t['converted']:4d} (silent {b['violation']} -> "
              f"{b['violation'] - t['converted']}), look-alikes lost {t['lost']:4d} "
              f"({b['pass']} -> {b['pass'] - t['lost']}), ratio {ratio:.2f}, other pairs "
              f"flagged {t['other']}/{b['other']} ({t['other'] / max(1, b['other']):.1%})")


def main(argv: list[str]) -> None:
    path = next((Path(a) for a in argv if "/" in a and not a.startswith("-")), DEFAULT_FILE)
    kind = argv[argv.index("--model") + 1] if "--model" in argv else "logistic"
    ow = float(argv[argv.index("--others") + 1]) if "--others" in argv else 0.0
    names = tuple(argv[argv.index("--only") + 1].split(",")) if "--only" in argv else FEATURES
    rows = load(path)
    relevance = float(argv[argv.index("--two") + 1]) if "--two" in argv else None
    if "--top" in argv:
        global TOP
        TOP = float(argv[argv.index("--top") + 1])
    if "--frozen" in argv:  # score a batch never seen, with the model trained on TRAIN_FILE
        train = load(Path(argv[argv.index("--frozen") + 1]))
        model = Model(train, kind, ow, names, relevance)
        t, s, passing = tally(model, rows)
        base = {k: sum(r["got"] == "pass" and r["label"] == k for r in rows) for k in ("violation", "pass", "other")}
        report(f"frozen on {path.name}", {"total": t, "base": base, "auc": float("nan"), "auc_other": float("nan")})
        return
    if "--last" in argv:  # batch 22 alone, trained on batches 1-21
        last = argv[argv.index("--last") + 1]
        model = Model([r for r in rows if r["fold"] != last], kind, ow, names, relevance)
        test = [r for r in rows if r["fold"] == last]
        t, s, passing = tally(model, test)
        base = {k: sum(r["got"] == "pass" and r["label"] == k for r in test) for k in ("violation", "pass", "other")}
        pos = s[[r["label"] == "violation" for r in passing]]
        neg = s[[r["label"] == "pass" for r in passing]]
        oth = s[[r["label"] == "other" for r in passing]]
        report(f"{last} trained on the others", {"total": t, "base": base, "auc": auc(pos, neg),
                                                  "auc_other": auc(pos, oth)})
        return
    report(f"{kind}, other weight {ow}, {len(names)} features, relevance {relevance}, top {TOP}",
           folds(rows, kind, ow, names, verbose="-v" in argv, relevance=relevance))


if __name__ == "__main__":
    main(sys.argv[1:])
