"""Issue 22, twenty-fifth session: the measure of a gate calibrated on labelled data
(tests/gate_features.py, tests/gate_folds.py). The rows it collects must answer as the check
does (tests/silent_passes.py, same batch), and the leave-one-batch-out scorer must convert
violations where a feature tells them apart and find nothing where none does. Real files,
the real MiniLM model, the fourth tuning batch."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests import gate_features as G
from tests import gate_folds as F
from tests import silent_passes as S


@pytest.fixture(scope="module")
def rows():
    return G.collect("batch4", others=2)


def test_collected_rows_answer_as_the_check_does(rows):
    own = {r["case"]: r for r in rows if r["label"] != "other"}
    checked = {r["case"]: r for r in S.rows("batch4")}
    assert own and set(own) <= set(checked)
    assert {c: r["got"] for c, r in own.items()} == {c: checked[c]["got"] for c in own}
    assert {r["fold"] for r in rows} == {"batch4"}
    assert any(r["label"] == "other" for r in rows)
    assert all(set(F.FEATURES) <= set(r) for r in rows)
    # exactly one bucket per row, and rank 0 where the criterion is the nearest one
    assert all(sum(r[f"bucket_{b}"] for b in G.BUCKETS) == 1.0 for r in rows)
    assert all((r["rank"] == 0) == (r["top_margin"] >= 0) for r in rows)


def _synthetic(signal: float, seed: int = 25) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for fold in ("a", "b", "c", "d"):
        for label in ["violation"] * 40 + ["pass"] * 80 + ["other"] * 80:
            row = dict.fromkeys(F.FEATURES, 0.0)
            row.update(fold=fold, label=label, got="pass", rank=rng.choice([0.0, 3.0]))
            row["best"] = rng.random() + (signal if label == "violation" else 0.0)
            out.append(row)
    return out


def test_folds_convert_violations_only_where_a_feature_tells_them_apart():
    told = F.folds(_synthetic(2.0), "logistic", 0.0, verbose=False)
    assert told["auc"] > 0.95
    assert told["total"][0.05]["converted"] > 100 > told["total"][0.05]["lost"]
    blind = F.folds(_synthetic(0.0), "logistic", 0.0, verbose=False)
    assert blind["auc"] < 0.65
    t = blind["total"][0.20]
    assert t["converted"] < t["lost"]  # 1 violation for 2 look-alikes, as drawn


def test_auc_orders_scores():
    assert F.auc(np.array([2.0, 3.0]), np.array([0.0, 1.0])) == 1.0
    assert F.auc(np.array([0.0]), np.array([1.0])) == 0.0
