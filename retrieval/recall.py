"""Recall for the loader's top-k tier: the retriever's hits for a query, and reinforcement.

Kept apart from the loader so its assembly logic stays readable; `lexical_hits` is the
session-start fast path (tantivy alone), `search_hits` the full pipeline at the caller's time.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from lorestack.memory_layers.models import FILE_ITEM_TYPES
from lorestack.retrieval.hits import LightHit
from lorestack.retrieval.modes import parse_mode

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory


def lexical_hits(mem: Memory, query: str, k: int, views) -> list[LightHit]:
    """BM25 over the tantivy index alone, for L1/L2 items: the session-start fast path.

    It imports neither the vector store nor numpy, so a session start that already has a warm
    lexical index can afford recall; ranking is the lexical retriever's own.
    """
    from lorestack.retrieval.lexical import Filters, LexicalIndex
    from lorestack.retrieval.pool import active

    pool = active()
    index = pool.get(mem).lexical if pool is not None else LexicalIndex(mem.primary.index_dir / "tantivy")
    try:
        ranked = index.search(query, k * 2, Filters(
            types=list(FILE_ITEM_TYPES), statuses=["active"]))
    finally:
        if pool is None:
            index.close()
    wanted = {doc_id for doc_id, _ in ranked}
    paths: dict[str, str] = {}
    for view in views:
        paths.update(view.paths_for(wanted - set(paths)))
    return [LightHit(doc_id, "item", paths[doc_id]) for doc_id, _ in ranked if doc_id in paths][:k]


def index_is_warm(mem: Memory) -> bool:
    """Whether a lexical index was ever built here (without importing the index code)."""
    return (mem.primary.index_dir / "tantivy" / "meta.json").is_file()


def search_hits(mem: Memory, query: str, *, k: int, mode: str, sync: bool,
                warnings: list[str] | None = None, now: datetime | None = None,
                record_access: bool = True) -> list:
    """The retriever's hits for the query in `mode` (retrieval/modes.py); warnings collected.

    `now` is the caller's time: decay and access reinforcement use it, not the wall clock.
    """
    from lorestack.retrieval.pool import borrow_index

    with borrow_index(mem, warn=(warnings.append if warnings is not None else None)) as index:
        return index.search(query, k=k, mode=parse_mode(mode).value,
                            sync=sync, record_access=record_access, now=now)


def search_ranking(mem: Memory, query: str, *, k: int, mode: str, sync: bool,
                   warnings: list[str] | None = None,
                   now: datetime | None = None) -> tuple[int, list]:
    """(depth, hits): `search_hits` for `k` (access not recorded), with the whole ranking it
    made. A search ranks `depth` = max(k, `retrieval.candidates`) candidates and keeps the
    best k; every k' up to `depth` ranks that same pool, so its best k' are the first k' of
    these hits. The loader keeps them and draws its growth from them instead of searching
    again."""
    from lorestack.retrieval.pool import borrow_index

    with borrow_index(mem, warn=(warnings.append if warnings is not None else None)) as index:
        depth = index.ranking_depth(k)
        return depth, index.search(query, k=depth, mode=parse_mode(mode).value, sync=sync,
                                   record_access=False, now=now)


def record_shown(mem: Memory, ids: list[str], now: datetime) -> None:
    """Reinforce (decay) only what the context actually showed, not every candidate searched."""
    import sqlite3

    from lorestack.core.errors import IndexReadOnly
    from lorestack.retrieval.usage import UsageStore

    if not ids or not mem.primary.index_dir.is_dir():
        return
    try:
        store = UsageStore(mem.primary.index_dir / "usage.sqlite")
    except (IndexReadOnly, sqlite3.Error, OSError):  # e.g. a read-only store: the context
        return  # is still given, only not reinforced
    try:
        store.record(ids, now)
    finally:
        store.close()
