"""The loader cache's change detection: a stat scan of the memory folders, and its fingerprint.

`quick_scan` stats the resident files one by one and the other folders by their own mtime
(what every request pays); `scan_root` stats every live item file (the periodic full scan).
"""

from __future__ import annotations

import os
import zlib
from dataclasses import dataclass, field

from lorestack.core.paths import MemoryPaths


@dataclass
class ScanEntry:
    rel: str
    mtime_ns: int
    size: int


@dataclass
class Scan:
    entries: list[ScanEntry] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # unsafe entries (never read), one line each

    @property
    def fingerprint(self) -> str:
        """Order-independent digest of names, mtimes and sizes (a changed file changes it)."""
        total = 0
        for e in self.entries:
            total = (total + zlib.crc32(f"{e.rel}\0{e.mtime_ns}\0{e.size}".encode())) & 0xFFFFFFFFFFFF
        for line in self.skipped:
            total = (total + zlib.crc32(line.encode())) & 0xFFFFFFFFFFFF
        return f"{len(self.entries)}-{len(self.skipped)}-{total:x}"


RESIDENT_FOLDERS = ("criteria", "caveats")


def quick_scan(paths: MemoryPaths) -> Scan:
    """Resident files stat by stat; the other folders by their own mtime only.

    Adding, removing or renaming a file (every lorestack write, most editors) changes the
    folder's mtime; an in-place edit of a non-resident file is caught by the periodic full
    scan (`loader.catalog_rescan_s`). Resident files are always checked one by one.
    """
    from lorestack.memory_layers.models import TYPE_FOLDERS

    scan = scan_root(paths, folders=RESIDENT_FOLDERS)
    for folder in TYPE_FOLDERS.values():
        if folder in RESIDENT_FOLDERS:
            continue
        try:
            st = os.stat(paths.root / folder)
        except OSError:
            continue
        scan.entries.append(ScanEntry(folder + "/", st.st_mtime_ns, 0))
    return scan


def scan_root(paths: MemoryPaths, folders: tuple[str, ...] | None = None,
              threshold: float | None = None) -> Scan:
    """Stat every item file (special files + type folders; with no `folders`, archive/<type>/
    too: an archived copy of an id holds it, `dup_ids`), through the store's safe scanner:
    links out of the root, FIFOs and devices land in `skipped` (with `threshold`, each names
    its entry sealed, as a line that is written down must)."""
    from lorestack.memory_layers.sealed_names import sealed_problem
    from lorestack.memory_layers.store import scan_store

    found = scan_store(paths.root, include_archived=True, folders=folders)
    base = str(paths.root)
    scan = Scan(skipped=[str(e if threshold is None else sealed_problem(e, threshold))
                         for e in found.skipped])
    cut = len(base.rstrip(os.sep)) + 1  # entries are base/<name> or base/<folder>/<name>
    for e in found.entries:
        scan.entries.append(ScanEntry(e.path[cut:].replace(os.sep, "/"), e.mtime_ns, e.size))
    return scan


# the unreadable (or duplicate-id) files a quick check stats on every request: the newest
# ones, as the file being mended is the one just broken; the others wait for the full scan.
# All of them cost a hook ~7 ms a thousand (10k, a store still git-crypt locked: 70 ms, load 7)
WATCHED_MAX = 200


def watched(broken: list[list]) -> list[list]:
    """The newest WATCHED_MAX distinct [rel, mtime_ns, size] of `broken`."""
    distinct = {rel: [rel, mtime_ns, size] for rel, mtime_ns, size in broken}
    return sorted(distinct.values(), key=lambda b: b[1], reverse=True)[:WATCHED_MAX]


def restated(root, broken: list) -> bool:
    """Whether a file that failed to parse at the last scan ([rel, mtime_ns, size] each) has
    changed or gone since: mended in place, it must not stay "unreadable" (and out of the
    catalog) until the periodic full scan. A name holding a key is kept sealed (derived files
    never hold one) and found again by its seal."""
    from lorestack.memory_layers.sealed_names import unseal_path

    for rel, mtime_ns, size in broken:
        try:
            st = os.stat(unseal_path(os.path.join(str(root), rel)))
        except OSError:
            return True
        if (st.st_mtime_ns, st.st_size) != (mtime_ns, size):
            return True
    return False
