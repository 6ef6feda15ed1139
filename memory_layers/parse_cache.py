"""Parsed files kept by a long-lived process (the resident service), keyed by their stat.

One-shot commands never enable it. When enabled, a memory item or a journal day is parsed
again only when the file's mtime, size or inode changes; the service's watcher also forgets
files it sees change. Callers get a fresh shallow copy of the cached value (`copy`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
_cache: dict[tuple[str, str], tuple[tuple[int, int, int], Any]] | None = None


def enable(on: bool = True) -> None:
    global _cache
    _cache = {} if on else None


def enabled() -> bool:
    return _cache is not None


def cached(path: Path, kind: str, parse: Callable[[], T], copy: Callable[[T], T]) -> T:
    """`parse()` result for `path`, from the cache when the file's stat has not changed.
    Raises what `os.stat` raises (FileNotFoundError) when the file is gone."""
    cache = _cache
    if cache is None:
        return parse()
    info = os.stat(path)
    stamp = (info.st_mtime_ns, info.st_size, info.st_ino)
    key = (str(path), kind)
    hit = cache.get(key)
    if hit is None or hit[0] != stamp:
        hit = (stamp, parse())
        cache[key] = hit
    return copy(hit[1])


def fresh(path: str | os.PathLike, kind: str) -> bool:
    """Whether `path` is kept as parsed from the file as it is now (same stat)."""
    cache = _cache
    hit = None if cache is None else cache.get((str(path), kind))
    if hit is None:
        return False
    try:
        info = os.stat(path)
    except OSError:
        return False
    return hit[0] == (info.st_mtime_ns, info.st_size, info.st_ino)


def matching(kind: str, match: Callable[[Any], bool]) -> list[str]:
    """The paths of the kept values of `kind` that `match` (as parsed when kept: the caller
    loads a path again through `cached`, which checks its stat)."""
    cache = _cache
    if cache is None:
        return []
    return [key[0] for key, (_stamp, value) in list(cache.items())
            if key[1] == kind and match(value)]


def forget(paths: Iterable[str | os.PathLike]) -> None:
    cache = _cache
    if cache is not None:
        wanted = {str(p) for p in paths}
        for key in [k for k in cache if k[0] in wanted]:
            cache.pop(key, None)


def holds(path: str | os.PathLike, kind: str) -> bool:
    cache = _cache
    return cache is not None and (str(path), kind) in cache


def drop(path: str | os.PathLike, kind: str) -> None:
    cache = _cache
    if cache is not None:
        cache.pop((str(path), kind), None)


# item files found to hold no secret, by path and checksum (the name is parsed too: an item with
# no title takes it from its file name) and entropy threshold: an unchanged file is not scanned
# again each time a page of items is redacted (`list` at 10k items: seconds)
_clean: set[tuple[str, float]] = set()
_CLEAN_MAX = 200_000


def known_clean(key: str, threshold: float) -> bool:
    return _cache is not None and (key, threshold) in _clean


def mark_clean(key: str, threshold: float) -> None:
    if _cache is not None:
        if len(_clean) >= _CLEAN_MAX:
            _clean.clear()
        _clean.add((key, threshold))
