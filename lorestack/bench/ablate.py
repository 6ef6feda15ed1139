"""`bench retrieval --ablate`: the default pipeline again with one stage off at a time.

Each ablation swaps the store's settings (or one loader constant) for the questions of a
line and restores them after, so one ingest serves every variant. Stages fixed at index time
(what the vector sees, the neighbour text in BM25) are switched off at query time where a
weight allows it. A stage whose removal costs nothing on real data is a candidate for
deletion (see docs/recall.md).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

Ablation = tuple[str, Callable[..., AbstractContextManager]]


def _with_settings(section: str, **values) -> Callable[..., AbstractContextManager]:
    @contextmanager
    def apply(store) -> Iterator[None]:
        mem = store.mem
        saved = mem.settings
        part = getattr(saved, section).model_copy(update=values)
        mem.settings = saved.model_copy(update={section: part})
        store.index.settings = mem.settings
        try:
            yield
        finally:
            mem.settings = saved
            store.index.settings = saved
    return apply


def _with_constant(module: str, name: str, value) -> Callable[..., AbstractContextManager]:
    @contextmanager
    def apply(_store) -> Iterator[None]:
        owner = importlib.import_module(module)
        saved = getattr(owner, name)
        setattr(owner, name, value)
        try:
            yield
        finally:
            setattr(owner, name, saved)
    return apply


def ablations() -> list[Ablation]:
    """(name, context manager taking the bench store) per stage of the default pipeline."""
    return [
        ("-date", _with_settings("retrieval", date_weight=0.0)),
        ("-speaker", _with_settings("retrieval", speaker_weight=0.0)),
        ("-near", _with_settings("retrieval", neighbour_weight=0.0)),
        ("+name-only", _with_settings("retrieval", name_only_hits=True)),
        ("-dense-plain", _with_settings("retrieval", dense_names="keep")),
        ("-abstain", _with_constant("lorestack.retrieval.lexical", "ABSTAIN_COVERAGE", 0.0)),
        ("-decay", _with_settings("retrieval", reranker="none")),
        ("-excerpts", _with_settings("loader", excerpts=False)),
        ("-fill", _with_settings("loader", fill_budget=False)),
        ("rrf_k=60", _with_settings("retrieval", rrf_k=60)),
    ]
