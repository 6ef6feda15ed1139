"""What a retriever returns: the indexed document wrapped with its score and explanation.

The shape of llama-index's `NodeWithScore` (`node` + `score`): a `ScoredDoc` holds the
`IndexDoc` it found instead of copying its fields, and reads through to them, so code that
asks `hit.id` or `hit.time` keeps working. The loader accepts anything with the small
`Hit` protocol (id, type, path, time), which is what it needs to find the whole item.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol, runtime_checkable

from lorestack.retrieval.documents import IndexDoc


@runtime_checkable
class Hit(Protocol):
    """The least the loader needs from a retrieval result to show the whole item."""

    @property
    def id(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def path(self) -> str | None: ...

    @property
    def time(self) -> datetime | None: ...


@dataclass
class ScoredDoc:
    """One search result: the document, its final score, and how it was reached."""

    doc: IndexDoc
    score: float = 0.0
    explain: dict = field(default_factory=dict)

    # read-through accessors (the document's fields are not copied)
    @property
    def id(self) -> str:
        return self.doc.id

    @property
    def type(self) -> str:
        return self.doc.type

    @property
    def layer(self) -> str:
        return self.doc.layer

    @property
    def scope(self) -> str:
        return self.doc.scope

    @property
    def status(self) -> str:
        return self.doc.status

    @property
    def title(self) -> str:
        return self.doc.title

    @property
    def text(self) -> str:
        return self.doc.text

    @property
    def path(self) -> str:
        return self.doc.path

    @property
    def time(self) -> datetime:
        return self.doc.time

    @property
    def confidence(self) -> float:
        return self.doc.confidence

    def as_dict(self) -> dict:
        """Flat JSON view (what `search --json` prints): the document's fields + score."""
        return {
            "id": self.id,
            "type": self.type,
            "layer": self.layer,
            "scope": self.scope,
            "status": self.status,
            "title": self.title,
            "text": self.text,
            "path": self.path,
            "time": self.time.isoformat(),
            "confidence": self.confidence,
            "score": self.score,
            "explain": self.explain,
        }


SearchHit = ScoredDoc  # the name used before hits wrapped their document


@dataclass
class LightHit:
    """A hit known only by id, type and file (the lexical fast path, baselines, tests)."""

    id: str
    type: str
    path: str | None = None
    time: datetime | None = None
    scope: str = "project"
