"""One recall-mode vocabulary for every command (search, context, hooks, settings, bench).

- `default`: the full pipeline — BM25 + dense + date retrievers, weighted RRF, then the
  configured reranker (none by default: fused order; `decay` blends in decay/confidence/freshness). `hybrid` is an accepted alias.
- `rrf`: plain reciprocal-rank fusion of BM25 and dense, no date retriever, no rerank.
- `bm25`, `vector`: one retriever alone.
- `none`: no query recall (only where recall is optional: context, hooks).
"""

from __future__ import annotations

from enum import Enum

from lorestack.core.errors import LorestackError


class RecallMode(str, Enum):
    DEFAULT = "default"
    RRF = "rrf"
    BM25 = "bm25"
    VECTOR = "vector"
    NONE = "none"

    def __str__(self) -> str:  # click and f-strings show the plain name
        return self.value


ALIASES = {"hybrid": RecallMode.DEFAULT}
SEARCH_MODES: tuple[str, ...] = ("default", "rrf", "bm25", "vector")
CHOICES: tuple[str, ...] = (*SEARCH_MODES, "hybrid")  # what a search option accepts
CONTEXT_CHOICES: tuple[str, ...] = (*CHOICES, "none")  # context and hooks may skip recall


def parse_mode(value: str | RecallMode, *, allow_none: bool = False) -> RecallMode:
    """The mode named by `value` (aliases resolved); a one-line error for anything else."""
    found: RecallMode | None = value if isinstance(value, RecallMode) else None
    if found is None:
        name = str(value or "").strip().lower()
        found = ALIASES.get(name) or next((m for m in RecallMode if m.value == name), None)
    if found is None:
        choices = CONTEXT_CHOICES if allow_none else CHOICES
        raise LorestackError(f"unknown recall mode '{value}' ({' | '.join(choices)})")
    mode = found
    if mode is RecallMode.NONE and not allow_none:
        raise LorestackError(f"recall mode 'none' is not a search mode ({' | '.join(CHOICES)})")
    return mode
