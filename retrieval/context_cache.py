"""The loader's cache: what every memory file costs and says, kept fresh by a cheap stat scan.

A session start must not parse thousands of markdown files. One `os.scandir` pass over the
item folders gives (name, mtime, size) per file; their combined fingerprint says whether
anything changed. If nothing did, the pre-rendered resident blocks and the priority-sorted
catalog are read from one JSON file. If something did, only the changed files are parsed
again, and a resident block is re-rendered only when its file's content hash changed.
Everything lives under `.index/loader/` and can be deleted at any time.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from memstrata.paths import MemoryPaths

from .render_context import (
    RENDER_VERSION, TokenMemo, catalog_line, display_path, item_body, longest_tilde_fence,
)

CACHE_VERSION = 1
RESIDENT_TYPES = ("criterion", "caveat")
RESIDENT_IDS = ("project", "profile")
_TYPE_RANK = {"caveat": 0, "criterion": 1, "decision": 2, "preference": 3, "fact": 4}


@dataclass
class ScanEntry:
    rel: str
    mtime_ns: int
    size: int


@dataclass
class Scan:
    entries: list[ScanEntry] = field(default_factory=list)

    @property
    def fingerprint(self) -> str:
        """Order-independent digest of names, mtimes and sizes (a changed file changes it)."""
        total = 0
        for e in self.entries:
            total = (total + zlib.crc32(f"{e.rel}\0{e.mtime_ns}\0{e.size}".encode())) & 0xFFFFFFFFFFFF
        return f"{len(self.entries)}-{total:x}"


def scan_root(paths: MemoryPaths) -> Scan:
    """Stat every live item file (special files + type folders; archive excluded)."""
    from memstrata.memory_layers.models import TYPE_FOLDERS
    from memstrata.memory_layers.store import SPECIAL_FILES

    scan = Scan()
    root = paths.root
    for name in SPECIAL_FILES:
        try:
            st = os.stat(root / name)
        except OSError:
            continue
        scan.entries.append(ScanEntry(name, st.st_mtime_ns, st.st_size))
    for folder in TYPE_FOLDERS.values():
        try:
            it = os.scandir(root / folder)
        except OSError:
            continue
        with it:
            for entry in it:
                name = entry.name
                if not name.endswith(".md") or name.startswith("."):
                    continue
                try:
                    st = entry.stat()
                except OSError:
                    continue
                scan.entries.append(ScanEntry(f"{folder}/{name}", st.st_mtime_ns, st.st_size))
    return scan


@dataclass
class CachedItem:
    """What the loader needs to know about one memory file without reading it again."""

    id: str
    type: str
    title: str
    status: str
    scope: str
    path: str           # absolute
    display: str        # how the catalog shows it
    updated: str        # ISO time
    updated_ts: float   # the same, as a POSIX timestamp (for sorting)
    confidence: float
    importance: float
    file_tokens: int    # cost of opening the file
    line: str           # the catalog line
    line_tokens: int
    resident: bool
    body: str = ""      # rendered body block (resident items only)
    body_tokens: int = 0
    tilde: int = 0      # longest tilde fence in the body
    verdict: str = ""
    sha: str = ""
    mtime_ns: int = 0
    size: int = 0

    @property
    def updated_at(self) -> datetime:
        return datetime.fromisoformat(self.updated)

    def priority(self) -> tuple:
        """Catalog order: resident kinds first, then important, then recently updated."""
        return (-int(self.resident), _TYPE_RANK.get(self.type, 9), -self.importance,
                -self.updated_ts, self.display)


def is_resident(item_id: str, item_type: str) -> bool:
    return item_id in RESIDENT_IDS or item_type in RESIDENT_TYPES


class RootCache:
    """Cached items of one memory root (project or global)."""

    def __init__(self, paths: MemoryPaths, scope: str, memo: TokenMemo, *,
                 repo_dir: Path | None, home: Path | None):
        self.paths = paths
        self.scope = scope
        self.memo = memo
        self.repo_dir = repo_dir
        self.home = home
        self.file = paths.index_dir / "loader" / f"items-{scope}.json"
        self.problems: list[str] = []

    def _read(self) -> dict:
        try:
            data = json.loads(self.file.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        if (data.get("version") != CACHE_VERSION or data.get("render") != RENDER_VERSION
                or data.get("encoding") != self.memo.encoding):
            return {}
        return data

    def load(self) -> list[CachedItem]:
        """Fresh items for this root; re-parses only files whose stat changed."""
        if not self.paths.root.is_dir():
            return []
        scan = scan_root(self.paths)
        data = self._read()
        if data and data.get("fingerprint") == scan.fingerprint:
            self.problems = list(data.get("problems", []))
            return [CachedItem(**row) for row in data.get("items", [])]
        return self._refresh(scan, data)

    def _refresh(self, scan: Scan, data: dict) -> list[CachedItem]:
        from memstrata.errors import InvalidItem
        from memstrata.memory_layers.fsutil import checksum, write_atomic
        from memstrata.memory_layers.store import MemoryStore

        old = {row["path"]: CachedItem(**row) for row in data.get("items", [])}
        store = MemoryStore(self.paths, self.scope)
        items: list[CachedItem] = []
        problems: list[str] = []
        seen_ids: set[str] = set()
        for entry in sorted(scan.entries, key=lambda e: e.rel):
            path = self.paths.root / entry.rel
            prev = old.get(str(path))
            if prev is not None and prev.mtime_ns == entry.mtime_ns and prev.size == entry.size:
                if prev.id not in seen_ids:
                    seen_ids.add(prev.id)
                    items.append(prev)
                continue
            try:
                raw = path.read_bytes()
                sha = checksum(raw)
                if prev is not None and prev.sha == sha:
                    prev.mtime_ns, prev.size = entry.mtime_ns, entry.size
                    if prev.id not in seen_ids:
                        seen_ids.add(prev.id)
                        items.append(prev)
                    continue
                loaded = store.load_file(path)
            except InvalidItem as exc:
                problems.append(str(exc))
                continue
            except OSError:
                continue  # vanished between scan and read; the next scan settles it
            item = loaded.item
            if item.id in seen_ids:
                problems.append(f"{path}: duplicate id '{item.id}'")
                continue
            seen_ids.add(item.id)
            items.append(self._entry(item, path, sha, entry, raw))
        payload = {
            "version": CACHE_VERSION, "render": RENDER_VERSION, "encoding": self.memo.encoding,
            "fingerprint": scan.fingerprint, "problems": problems,
            "items": [vars(i) for i in sorted(items, key=CachedItem.priority)],
        }
        try:
            write_atomic(self.file, json.dumps(payload, ensure_ascii=False).encode("utf-8"))
        except OSError:
            pass  # read-only index: correct, just slower next time
        self.problems = problems
        return sorted(items, key=CachedItem.priority)

    def _entry(self, item, path: Path, sha: str, entry: ScanEntry, raw: bytes) -> CachedItem:
        shown = display_path(path, self.repo_dir, self.home)
        file_tokens = self.memo(raw.decode("utf-8", "replace"))
        line = catalog_line(shown, item.type, file_tokens, item.title)
        resident = is_resident(item.id, item.type) and item.status == "active"
        body = item_body(item) if resident else ""
        verdict = item.criterion.verdict if item.type == "criterion" and item.criterion else ""
        return CachedItem(
            id=item.id, type=item.type, title=item.title, status=item.status, scope=self.scope,
            path=str(path), display=shown, updated=item.updated.isoformat(),
            updated_ts=item.updated.timestamp(),
            confidence=float(item.confidence), importance=float(item.importance),
            file_tokens=file_tokens, line=line, line_tokens=self.memo(line), resident=resident,
            body=body, body_tokens=self.memo(body), tilde=longest_tilde_fence(body),
            verdict=verdict, sha=sha, mtime_ns=entry.mtime_ns, size=entry.size,
        )


def merged_items(project: list[CachedItem], global_: list[CachedItem]) -> list[CachedItem]:
    """Project items override global ones with the same id or (type, title), like load_items."""
    keys = {i.id for i in project} | {(i.type, i.title.strip().lower()) for i in project}
    out = [g for g in global_ if g.id not in keys and (g.type, g.title.strip().lower()) not in keys]
    out.extend(project)
    return sorted(out, key=CachedItem.priority)
