"""The catalog's names for memory files: relative to the store they belong to.

A catalog keyed by absolute paths treats every file of a moved or renamed project (or a
clone of a repository with `.memory/` committed) as new: every file is read and parsed again,
every doc's hash changes and tantivy and Chroma's metadata are rewritten. Keys are therefore
`p:<path inside the project's .memory>` and `g:<path inside the global home>`; the catalog
turns them back into absolute paths (of wherever the store is now) when a doc leaves it.

A path under neither root (a store opened with other roots than its files') keeps its
absolute spelling.

A folder or file name holding a key (named so by hand) is kept sealed in a key
(memory_layers/sealed_names.py): the catalog, secrets.json and everything keyed by file never
hold the raw name; `absolute` finds the real file again.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Container, Iterable, Mapping

from lorestack.memory_layers.sealed_names import (
    DEFAULT_THRESHOLD,
    is_sealed,
    seal_path,
    unseal_path,
)

PROJECT, GLOBAL = "p", "g"
_TAG_OF_KIND = {"item-global": GLOBAL, "item-project": PROJECT, "journal": PROJECT}
# problem lines name files; stored with this marker in place of the root
_MARK = "\x1f"


class StoreRoots:
    """The roots (absolute folder strings) a catalog's keys are relative to, by tag."""

    def __init__(self, roots: Mapping[str, str], threshold: float = DEFAULT_THRESHOLD):
        self.threshold = threshold  # names are sealed at the settings' guard threshold
        self.roots = {tag: root.rstrip(os.sep) for tag, root in roots.items() if root}
        # the longest root first: a home inside a project (tests) must not claim its files
        self._order = sorted(self.roots.items(), key=lambda kv: -len(kv[1]))

    @classmethod
    def of(cls, mem) -> StoreRoots:
        roots = {GLOBAL: str(mem.home.root)}
        if mem.project is not None:
            roots[PROJECT] = str(mem.project.root)
        return cls(roots, mem.settings.guard.entropy_threshold)

    def key(self, path: str, kind: str | None = None, known: Container[str] = ()) -> str:
        """The catalog's name for an absolute path (unchanged if it is under no root), with
        any name holding a key sealed. A raw key found in `known` (the catalog's own keys,
        which a sync writes sealed) is returned as it is: an unchanged store's stat sweep
        runs no detector over its names."""
        tags = [_TAG_OF_KIND[kind]] if kind in _TAG_OF_KIND else [t for t, _ in self._order]
        for tag in tags:
            root = self.roots.get(tag)
            if root and path.startswith(root + os.sep):
                raw = f"{tag}:{path[len(root) + 1:]}"
                return raw if raw in known else f"{tag}:{seal_path(path[len(root) + 1:], self.threshold)}"
        return path if path in known else seal_path(path, self.threshold)

    def absolute(self, key: str) -> str:
        tag, sep, rel = key.partition(":")
        # "p:\\x" is a Windows path stored whole, not the project's file "\\x"
        root = (self.roots.get(tag) if sep and len(tag) == 1 and not rel.startswith(("/", "\\"))
                else None)
        path = f"{root}{os.sep}{rel}" if root is not None else key
        return unseal_path(path) if is_sealed(rel) else path

    def text_key(self, text: str) -> str:
        """A problem line with the roots replaced by markers (so it survives a move)."""
        for tag, root in self._order:
            text = text.replace(root + os.sep, f"{_MARK}{tag}:")
        return text

    def text_absolute(self, text: str) -> str:
        if _MARK not in text:
            return text
        for tag, root in self.roots.items():
            text = text.replace(f"{_MARK}{tag}:", root + os.sep)
        return text


def former_roots(rows: Iterable[tuple[str, str]], roots: StoreRoots) -> StoreRoots:
    """The roots an old (absolute-keyed) catalog's files were under, by tag.

    For each (path, kind) row: the current root if the path is under it; otherwise (the store
    was moved before the upgrade) the prefix that, taken off the path, leaves a file that now
    exists under the current root — the most common such prefix over the rows wins."""
    votes: dict[str, Counter] = {}
    for path, kind in rows:
        tag = _TAG_OF_KIND.get(kind)
        root = roots.roots.get(tag or "")
        if tag is None or root is None:
            continue
        if path.startswith(root + os.sep):
            votes.setdefault(tag, Counter())[root] += 1
            continue
        parts = path.split(os.sep)
        # the longest relative part first: `archive/facts/x.md` must not vote for
        # `…/.memory/archive` because a `facts/x.md` also exists
        for cut in range(1, len(parts)):
            rel = os.sep.join(parts[cut:])
            if os.path.isfile(os.path.join(root, rel)):
                votes.setdefault(tag, Counter())[os.sep.join(parts[:cut])] += 1
                break
    return StoreRoots({tag: count.most_common(1)[0][0] for tag, count in votes.items()},
                      roots.threshold)
