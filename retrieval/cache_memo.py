"""What a long-lived process (the service) keeps of the loader cache's files between requests.

The catalog file's text and id -> path index, and the resident file's parsed data with the
view made from it, each keyed by the file's stat stamp (mtime, size, inode): every write of
either file replaces it (`write_atomic`), so a changed file is read again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def path_index(catalog_text: str) -> dict[str, str]:
    """id -> relative path of every catalog row (the first row wins, as a scan would find)."""
    index: dict[str, str] = {}
    for text in catalog_text.splitlines():
        if text:
            fields = text.split("\t", 6)
            index.setdefault(fields[1], fields[5])
    return index


# the catalog as last read, per file, with its id -> path index: a long-lived process (the
# service) reads and indexes a 10k-line catalog once per change, not once per request
CATALOGS: dict[str, tuple[tuple[int, int, int], str, dict[str, str]]] = {}

# the resident file as last read, per file: its stamp, its parsed data and the view made from
# it (`context_cache.RootView`, with the catalog text above). A warm prompt then reads neither
# file again and builds no `CachedItem`s while both are unchanged; a view is never changed
# once made (its path index is filled in once, the same each time)
RESIDENTS: dict[str, tuple[tuple[int, int, int], dict, Any]] = {}


def stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size, info.st_ino


def read_catalog(path: Path) -> tuple[str, dict[str, str] | None]:
    """The catalog file's text and (when it was read before, unchanged) its path index."""
    info = os.stat(path)
    made = (info.st_mtime_ns, info.st_size, info.st_ino)
    hit = CATALOGS.get(str(path))
    if hit is not None and hit[0] == made:
        return hit[1], hit[2]
    text = path.read_text("utf-8")
    if len(CATALOGS) > 16:
        CATALOGS.clear()
    CATALOGS[str(path)] = (made, text, path_index(text))
    return text, CATALOGS[str(path)][2]
