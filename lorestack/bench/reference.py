"""Reference rankings the bench puts beside ours: what a plain setup gets on the same turns.

- `plain-vector`: all-MiniLM-L6-v2 (the same embedder) on each event's raw text as the
  dataset gives it ("Caroline: I went to the support group"), cosine order;
- `plain-bm25`: Okapi BM25 (k1 1.2, b 0.75) over lowercased words of the raw text, no
  stemming, the lexical index's stopwords;
- `plain-rrf`: the two fused with reciprocal rank, k = 60.

They index nothing of ours (no fields, no dates, no speaker clause) and exist to be beaten:
a stage of the pipeline that loses to them is a regression. Their hits are packed by the
same loader as every mode, so contexts are rendered and counted alike.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

REFERENCE_MODES = ("plain-vector", "plain-bm25", "plain-rrf")
_WORD = re.compile(r"\w+")
RRF_K = 60


def _words(text: str, stop: frozenset[str]) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in stop]


@dataclass
class ReferenceIndex:
    """Raw event texts of one store, embedded and counted once."""

    ids: list[str]
    vectors: np.ndarray
    postings: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    lengths: list[int] = field(default_factory=list)
    avg_len: float = 1.0
    stop: frozenset[str] = frozenset()

    @classmethod
    def build(cls, texts: dict[str, str], embed) -> ReferenceIndex:
        from lorestack.retrieval.lexical import STOPWORDS

        ids = list(texts)
        stop = frozenset(STOPWORDS)
        vectors = embed([texts[i] for i in ids]) if ids else np.zeros((0, 1), np.float32)
        postings: dict[str, list[tuple[int, int]]] = {}
        lengths = []
        for n, i in enumerate(ids):
            counts = Counter(_words(texts[i], stop))
            lengths.append(sum(counts.values()))
            for word, tf in counts.items():
                postings.setdefault(word, []).append((n, tf))
        avg = sum(lengths) / max(1, len(lengths))
        return cls(ids, np.asarray(vectors, np.float32), postings, lengths, avg or 1.0, stop)

    def vector_rank(self, query_vec, allowed: np.ndarray) -> list[int]:
        scores = self.vectors @ np.asarray(query_vec, np.float32)
        scores = np.where(allowed, scores, -np.inf)
        order = np.argsort(-scores, kind="stable")
        return [int(i) for i in order if allowed[i]]

    def bm25_rank(self, query: str, allowed: np.ndarray) -> list[int]:
        n = len(self.ids)
        words = set(_words(query, self.stop))
        scores = np.zeros(n, np.float64)
        for w in words:
            posting = self.postings.get(w, [])
            df = len(posting)
            if not df:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            for i, tf in posting:
                norm = 0.25 + 0.75 * self.lengths[i] / self.avg_len
                scores[i] += idf * tf * 2.2 / (tf + 1.2 * norm)
        order = np.argsort(-scores, kind="stable")
        return [int(i) for i in order if allowed[i] and scores[i] > 0]

    def rank(self, mode: str, query: str, query_vec, allowed: np.ndarray, k: int) -> list[str]:
        """The `k` best event ids for `query` in a reference `mode`."""
        if mode == "plain-vector":
            order = self.vector_rank(query_vec, allowed)
        elif mode == "plain-bm25":
            order = self.bm25_rank(query, allowed)
        else:
            fused: dict[int, float] = {}
            for ranking in (self.bm25_rank(query, allowed), self.vector_rank(query_vec, allowed)):
                for r, i in enumerate(ranking[: max(k, 100)], start=1):
                    fused[i] = fused.get(i, 0.0) + 1.0 / (RRF_K + r)
            order = sorted(fused, key=lambda i: -fused[i])
        return [self.ids[i] for i in order[:k]]
