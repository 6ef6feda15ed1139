"""Issue 22, tenth session: the leave-one-batch-out measure of the by-meaning decision
(tests/meaning_pairs.py, tests/meaning_folds.py) scores a decision on pairs collected once,
with the decision forced each way; its "before" must be the reader itself. Real files, the
real MiniLM model, the fifth tuning batch (where the positive margin moves cases)."""

from __future__ import annotations

import pytest

from lorestack.guardrail import judging
from tests import heldout_eval as E
from tests import meaning_pairs as P


@pytest.fixture(scope="module")
def pairs():
    return P.collect(0.25, "batch5")


def _reader(tmp_path, **constants) -> dict:
    criteria, cases = E.tuning_set("batch5")
    saved = {k: getattr(judging, k) for k in constants}
    try:
        for k, v in constants.items():
            setattr(judging, k, v)
        mem, ids = E.build(tmp_path / "reader", criteria)
        return E.score(mem, ids, criteria, cases)
    finally:
        for k, v in saved.items():
            setattr(judging, k, v)


def _same(simulated: dict, real: dict) -> None:
    assert (simulated["exact"], simulated["silent"], simulated["lookalike_pass"],
            simulated["wrong_blocks"], simulated["other_flagged"]) == (
        real["exact"], real["silent_passes"], real["lookalike_pass"], real["wrong_blocks"],
        real["other_criteria_flagged"]), (simulated, E.summary(real))


def test_collected_pairs_score_the_current_reader_as_check_does(pairs, tmp_path):
    rows = pairs["rows"]
    assert {r["fold"] for r in rows} == {"batch5"}
    reached = [r for r in rows if r["key"] in r["pairs"]]
    assert reached and any(r["own_open"] != r["own_pass"] for r in reached)
    assert all(set(P.FEATURES) <= set(v) for r in rows for v in r["pairs"].values())
    _same(P.figures(P.answers(rows, P.current)), _reader(tmp_path))
    # the recommended way's thresholds, recomputed from its similarities, answer alike
    spelled = P.Thresholds(0.35, 0.45, 0.20, judging.ALTERNATIVE_SIMILARITY, judging.ALTERNATIVE_MARGIN)
    assert P.figures(P.answers(rows, spelled)) == P.figures(P.answers(rows, P.current))


def test_other_values_are_scored_as_the_reader_with_them(pairs, tmp_path):
    # the positive margin off: the pairs must answer as `check` does with it off
    simulated = P.figures(P.answers(pairs["rows"], P.Thresholds(0.35, 0.45, 0.0)))
    real = _reader(tmp_path, POSITIVE_MARGIN=0.0)
    assert simulated != P.figures(P.answers(pairs["rows"], P.current))  # it moves a case
    _same(simulated, real)


def test_vectors_survive_a_cache_cleared_by_another_thread(monkeypatch):
    """The service checks from several threads; one may clear the vector cache (it is full)
    while another is between its lookup and its stacking. Here the embedder itself clears it,
    as that other thread would, mid-call."""
    import numpy as np

    from lorestack.guardrail import meaning

    monkeypatch.setattr(meaning, "_CACHE", {"kept": np.ones(3, dtype=np.float32)})
    monkeypatch.setattr(meaning, "_STACKS", {})

    class ClearsOnEmbed:
        def embed(self, texts):
            meaning._CACHE.clear()
            return np.zeros((len(texts), 3), dtype=np.float32)

    stacked = meaning._vectors(ClearsOnEmbed(), ["kept", "new"])
    assert stacked.shape == (2, 3)
    assert stacked[0].tolist() == [1.0, 1.0, 1.0] and stacked[1].tolist() == [0.0, 0.0, 0.0]


def test_a_proposals_lines_are_embedded_once_per_process(monkeypatch):
    """Checking the same lines again (a repeated command, a diff's unchanged added lines, the
    same proposal checked again `--confirmed`) embeds only what is new, with the same vectors;
    a full cache forgets its oldest quarter, not everything."""
    import numpy as np

    from lorestack.guardrail import meaning
    from lorestack.guardrail.proposals import Proposal
    from lorestack.retrieval.embedding import OnnxMiniLMEmbedder

    from .conftest import model_dir

    model = OnnxMiniLMEmbedder(model_dir())
    asked: list[str] = []

    class Counting:
        def embed(self, texts):
            asked.extend(texts)
            return model.embed(texts)

    monkeypatch.setattr(meaning, "_UNITS", {})
    first = Proposal(text="pip install brotli && echo brotli >> requirements.txt")
    units = meaning.proposal_units(first)
    vectors = meaning._unit_vectors(Counting(), units)
    assert sorted(asked) == sorted(set(units)) and len(units) >= 2
    asked.clear()
    assert np.array_equal(meaning._unit_vectors(Counting(), units), vectors)
    assert asked == []
    second = meaning.proposal_units(Proposal(text="pip install brotli && pytest -q tests/"))
    meaning._unit_vectors(Counting(), second)
    assert "pip install brotli" in second and "pip install brotli" not in asked
    assert asked and set(asked) <= set(second) - set(units)
    assert np.allclose(vectors, model.embed(units), atol=1e-6)

    monkeypatch.setattr(meaning, "_UNIT_LIMIT", 8)
    monkeypatch.setattr(meaning, "_UNITS", {f"old {n}": vectors[0] for n in range(8)})
    meaning._unit_vectors(Counting(), ["new line one", "new line two"])
    assert list(meaning._UNITS) == [f"old {n}" for n in range(4, 8)] + ["new line one", "new line two"]
