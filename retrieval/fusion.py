"""One retriever contract (`query -> ranked doc ids`); fusion is a retriever made of retrievers.

Weighted reciprocal-rank fusion: score(d) = sum_r w_r / (k + rank_r(d)). The class keeps
Cormack et al.'s k = 60 (llama-index's QueryFusionRetriever uses the same), but the shipped
setting `retrieval.rrf_k` is 10: with k = 60 an exact identifier that only BM25 finds (1/61)
loses to near-duplicates both retrievers rank around 20th (2/80); on the generated 5x60 bench
k = 10 lifted the default pipeline's recall_any@10 from .70 to .90 (see configs/default.toml).
A retriever that fails is left out and named in `warnings`, so a broken index degrades recall
instead of failing search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from lorestack.retrieval.lexical import Abstained, Filters, LexicalIndex


@runtime_checkable
class Retriever(Protocol):
    name: str

    def retrieve(self, query: str, limit: int, filters: Filters | None = None) -> list[tuple[str, float]]:
        """[(doc id, score)] best first."""
        ...


class LexicalRetriever:
    """BM25 over the tantivy index."""

    name = "bm25"

    def __init__(self, index: LexicalIndex, now=None, near_weight: float = 0.0,
                 names: frozenset[str] = frozenset(), abstain: bool = False):
        self.index = index
        self.now = now  # the question's time: the days it names match resolved event dates
        self.near_weight = near_weight  # neighbouring turns' text (retrieval/neighbours.py)
        self.names = names  # name words of the query: a match on them alone is no hit
        self.abstain = abstain  # no ranking when no hit holds the query's rare words (lexical.py)
        self.abstained = False  # it sat out on the last query (one retriever per search)

    def retrieve(self, query, limit, filters=None):
        extra: dict = {}
        if self.near_weight > 0:
            extra["near_weight"] = self.near_weight
        if self.names:
            extra["names"] = self.names
        if self.abstain:
            extra["abstain"] = True
        hits = self.index.search(query, limit, filters, now=self.now, **extra)
        self.abstained = isinstance(hits, Abstained)
        return hits


class VectorRetriever:
    """Cosine similarity over Chroma, the query embedded by our embedder."""

    name = "vector"

    def __init__(self, store, embed_query: Callable[[str], object], accept=None,
                 name: str = "vector"):
        self.name = name  # the key of its ranks in the fusion (two dense rankings: two names)
        self.store = store
        self.embed_query = embed_query
        self.accept = accept  # doc ids -> those passing the filters (cheaper than chroma's where)

    def retrieve(self, query, limit, filters=None):
        if not query.strip():
            return []
        accept = (lambda ids: self.accept(ids, filters)) if self.accept and filters else None
        return self.store.search(self.embed_query(query), limit, filters, accept=accept)


@dataclass
class Fused:
    id: str
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # retriever name -> 1-based rank


@dataclass
class FusionResult:
    hits: list[Fused]
    warnings: list[str] = field(default_factory=list)


class FusionRetriever:
    """Weighted RRF over any retrievers."""

    name = "rrf"

    def __init__(self, retrievers: list[tuple[Retriever, float]], rrf_k: int = 60):
        self.retrievers = retrievers
        self.rrf_k = rrf_k

    def fuse(self, query: str, limit: int, filters: Filters | None = None,
             per_retriever: int | None = None) -> FusionResult:
        table: dict[str, Fused] = {}
        warnings: list[str] = []
        for retriever, weight in self.retrievers:
            try:
                ranked = retriever.retrieve(query, per_retriever or limit, filters)
            except Exception as exc:  # noqa: BLE001 - degrade to what still works
                warnings.append(f"{retriever.name} retriever unavailable ({type(exc).__name__}: {exc})")
                continue
            for rank, (doc_id, _score) in enumerate(ranked, start=1):
                entry = table.setdefault(doc_id, Fused(doc_id, 0.0))
                entry.ranks[retriever.name] = rank
                entry.score += weight / (self.rrf_k + rank)
        # rounded, then the best single rank, then the id: a fixed order for equal scores
        hits = sorted(table.values(),
                      key=lambda f: (-round(f.score, 9), min(f.ranks.values()), f.id))
        return FusionResult(hits[:limit], warnings)

    def retrieve(self, query, limit, filters=None):
        return [(f.id, f.score) for f in self.fuse(query, limit, filters).hits]
