"""Rerankers: pluggable post-processors over fused candidates.

`decay` (default) blends normalised fused relevance with a prior made of Ebbinghaus retention,
confidence and freshness. `cross-encoder` rescores relevance with a sentence-transformers
model (extra `rerank`); `llm` orders candidates listwise with the configured LLM (see
rerank_llm.py). Every reranker fills `final` and keeps the decay factor for `--explain`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import ClassVar, Protocol, runtime_checkable

from lorestack.core.errors import LorestackError, MissingExtra
from lorestack.core.settings import Settings
from lorestack.retrieval.decay import freshness, retention
from lorestack.retrieval.documents import IndexDoc
from lorestack.retrieval.hits import ScoredDoc

PRIOR_WEIGHTS = {"decay": 0.5, "confidence": 0.25, "freshness": 0.25}


@dataclass
class Candidate:
    doc: IndexDoc
    fused: float
    ranks: dict[str, int] = field(default_factory=dict)
    access_count: int = 0
    last_access: datetime | None = None
    decay: float = 1.0
    relevance: float = 0.0  # fused / best fused among candidates, in [0, 1]
    final: float = 0.0


@runtime_checkable
class Reranker(Protocol):
    name: str

    def rerank(self, query: str, candidates: list[Candidate], now: datetime) -> list[Candidate]:
        """Return the candidates best first, each with `final` set."""
        ...


def annotate(candidates: list[Candidate], now: datetime, settings: Settings) -> None:
    """Fill relevance and decay; every reranker starts from these."""
    top = max((c.fused for c in candidates), default=0.0) or 1.0
    for c in candidates:
        c.relevance = c.fused / top
        c.decay = retention(c.doc.type, c.doc.time, now, settings.decay,
                            access_count=c.access_count, last_access=c.last_access,
                            human_confirmed=c.doc.human)


def prior(c: Candidate, now: datetime) -> float:
    return (PRIOR_WEIGHTS["decay"] * c.decay + PRIOR_WEIGHTS["confidence"] * c.doc.confidence
            + PRIOR_WEIGHTS["freshness"] * freshness(c.doc.time, now))


def _order(c: Candidate) -> float:
    """Best `final` first, rounded so float noise does not swap near-equal ones; equal ones
    keep the order they came in (the fusion's, which breaks ties by rank and id)."""
    return -round(c.final, 9)


class NoReranker:
    """Fused order as is (final = fused)."""

    name = "none"

    def rerank(self, query, candidates, now):
        for c in candidates:
            c.final = c.fused
        return sorted(candidates, key=_order)


class DecayReranker:
    """final = w * relevance + (1 - w) * prior(decay, confidence, freshness)."""

    name = "decay"

    def __init__(self, relevance_weight: float = 0.75):
        self.w = min(1.0, max(0.0, relevance_weight))

    def rerank(self, query, candidates, now):
        for c in candidates:
            c.final = self.w * c.relevance + (1.0 - self.w) * prior(c, now)
        return sorted(candidates, key=_order)


class CrossEncoderReranker:
    """Relevance from a cross-encoder, blended with the same prior as the decay reranker."""

    name = "cross-encoder"
    _models: ClassVar[dict[str, object]] = {}  # loaded once per process

    def __init__(self, model: str, relevance_weight: float = 0.75, max_items: int = 50):
        self.model_name = model
        self.w = relevance_weight
        self.max_items = max_items

    def _model(self):
        if self.model_name not in self._models:
            try:
                from sentence_transformers import CrossEncoder
            except ImportError as exc:
                raise MissingExtra(
                    "the cross-encoder reranker needs sentence-transformers: "
                    "pip install 'lorestack[rerank]' (or set retrieval.reranker = \"decay\")") from exc
            try:
                self._models[self.model_name] = CrossEncoder(self.model_name)
            except Exception as exc:
                raise LorestackError(
                    f"cannot load cross-encoder '{self.model_name}': {exc}; set "
                    "retrieval.cross_encoder_model to a local model folder") from exc
        return self._models[self.model_name]

    def rerank(self, query, candidates, now):
        head, tail = candidates[: self.max_items], candidates[self.max_items:]
        if head:
            import numpy as np

            scores = np.asarray(self._model().predict([(query, c.doc.text[:2000]) for c in head]),
                                dtype=float)
            probs = 1.0 / (1.0 + np.exp(-scores))
            for c, p in zip(head, probs):
                c.relevance = float(p)
                c.final = self.w * c.relevance + (1.0 - self.w) * prior(c, now)
        for c in tail:
            c.final = -1.0 + c.relevance * 1e-3  # below every rescored candidate, fused order kept
        return sorted(head, key=_order) + tail


def get_reranker(settings: Settings, name: str | None = None) -> Reranker:
    """The configured reranker (`retrieval.reranker`), or the one named."""
    name = name or settings.retrieval.reranker
    r = settings.retrieval
    if name == "none":
        return NoReranker()
    if name == "decay":
        return DecayReranker(r.relevance_weight)
    if name == "cross-encoder":
        return CrossEncoderReranker(r.cross_encoder_model, r.relevance_weight)
    if name == "llm":
        from lorestack.retrieval.rerank_llm import LLMReranker

        return LLMReranker(settings)
    raise LorestackError(f"unknown reranker '{name}' (decay | llm | cross-encoder | none)")


def scored_hit(c: Candidate, explain: bool, plain: bool = False, abstained: bool = False) -> ScoredDoc:
    """The hit a search returns for a ranked candidate, with its ranks for --explain."""
    d = c.doc
    info = {"bm25_rank": c.ranks.get("bm25"), "vector_rank": c.ranks.get("vector"),
            "fused": round(c.fused, 6), "decay": round(c.decay, 4), "final": round(c.final, 6)}
    if "date" in c.ranks:
        info["date_rank"] = c.ranks["date"]
    if plain:  # the dense ranking of the query without the speakers' names ran
        info["vector_plain_rank"] = c.ranks.get("vector-plain")
    if abstained:  # BM25 sat out on this query (--explain only)
        info["bm25_abstained"] = True
    if explain:
        info.update({"relevance": round(c.relevance, 4), "access_count": c.access_count,
                     "confidence": d.confidence})
    return ScoredDoc(d, score=round(c.final, 6), explain=info)
