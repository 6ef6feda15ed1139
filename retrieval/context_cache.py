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
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from lorestack.core.paths import MemoryPaths
from lorestack.memory_layers import dup_ids
from lorestack.memory_layers.conflicts import conflict_note
from lorestack.memory_layers.scopes import title_key
from lorestack.memory_layers.sealed_names import seal, seal_path, sealed_line, unseal_path
from lorestack.memory_layers.secret_guard import has_secret, redact_for_reading
from lorestack.retrieval.cache_memo import RESIDENTS, path_index, read_catalog, stamp
from lorestack.retrieval.cache_scan import (  # noqa: F401 - read here by callers and tests
    RESIDENT_FOLDERS,
    Scan,
    ScanEntry,
    quick_scan,
    restated,
    scan_root,
    watched,
)
from lorestack.retrieval.render_context import (
    RENDER_VERSION,
    TokenMemo,
    catalog_line,
    display_path,
    item_body,
    longest_tilde_fence,
)

# 2: anchors travel with resident items; 3: titles and bodies redacted; 4: an anchor holding a
# secret is left out; 5: an id or path holding a key is sealed; 6: redacted at the guard's threshold;
# 7: of two files with one id, the one `dup_ids` picks (was: the first by path); 8: archived
# files are read too, so a live copy of a forgotten id is not served; 9: a file's merge-conflict
# markers are noted (and left out of its text)
CACHE_VERSION = 9
RESIDENT_TYPES = ("criterion", "caveat")
RESIDENT_IDS = ("project", "profile")
# catalog order: criteria first (a left-out criterion must stay visible), then caveats, then
# preferences (reachable without a query), decisions, facts
_TYPE_RANK = {"criterion": 0, "caveat": 1, "preference": 2, "decision": 3, "fact": 4}


@dataclass
class CachedItem:
    """What the loader needs to know about one memory file without reading it again."""

    id: str
    type: str
    title: str
    status: str
    scope: str
    path: str           # relative to the memory root (the folder may move)
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
    note: str = ""      # set when the file was over limits.max_file_bytes (read truncated)
    anchors: list = field(default_factory=list)  # the code it is about (resident items only)
    anchored: dict = field(default_factory=dict)
    anchor_commit: str = ""
    secret_anchors: int = 0  # anchors left out because they hold a secret (typed by hand)

    @property
    def updated_at(self) -> datetime:
        return datetime.fromisoformat(self.updated)

    def sort_key(self) -> str:
        """`priority()` as one string that sorts the same way (stored in the catalog file)."""
        importance = round((1 - max(0.0, min(1.0, self.importance))) * 999999)
        age = int(max(0.0, 9_999_999_999 - self.updated_ts))
        return f"{1 - int(self.resident)}{_TYPE_RANK.get(self.type, 9)}{importance:06d}{age:010d}{self.display}"

    def priority(self) -> tuple:
        """Catalog order: resident kinds first, then important, then recently updated."""
        return (-int(self.resident), _TYPE_RANK.get(self.type, 9), -self.importance,
                -self.updated_ts, self.display)


def is_resident(item_id: str, item_type: str) -> bool:
    return item_id in RESIDENT_IDS or item_type in RESIDENT_TYPES


@dataclass
class CatalogRow:
    """One catalog line as stored: sort key, id, type, merge key, line tokens, the line."""

    sort: str
    id: str
    type: str
    key: str
    line_tokens: int
    path: str
    line: str


def _row_text(item: CachedItem) -> str:
    key = title_key(item.type, item.title)  # the scope rule's key (memory_layers.scopes)
    fields = [item.sort_key(), item.id, item.type, key, str(item.line_tokens), item.path,
              item.line.rstrip("\n")]
    return "\t".join(f.replace("\t", " ").replace("\n", " ") for f in fields) + "\n"


def _parse_row(text: str) -> CatalogRow:
    sort, item_id, kind, key, tokens, path, line = text.split("\t", 6)
    return CatalogRow(sort, item_id, kind, key, int(tokens), path, line + "\n")


_REFRESH_LOCKS: dict[str, threading.Lock] = {}
_REFRESH_GUARD = threading.Lock()


def _refresh_lock(key: Path) -> threading.Lock:
    with _REFRESH_GUARD:
        return _REFRESH_LOCKS.setdefault(str(key), threading.Lock())


# line counts of the catalog texts (by identity: `cache_memo.CATALOGS` hands out the same
# string while a file is unchanged), ~1 ms a request at 10k lines
_LINE_COUNTS: dict[int, tuple[str, int]] = {}


class RootView:
    """A root's resident items (whole) and its catalog (parsed lazily, in priority order)."""

    def __init__(self, resident: list[CachedItem], catalog_text: str, problems: list[str],
                 root: Path | None = None, anchored: list[dict] | None = None,
                 paths: dict[str, str] | None = None, threshold: float = 4.2):
        self.root = root
        self.threshold = threshold  # the guard's: names in the cache were sealed at it
        self.anchored = anchored or []  # {id, path, anchors} of active items with anchors
        self.resident = resident
        self._catalog_text = catalog_text
        self.problems = problems
        self._paths: dict[str, str] | None = paths  # id -> relative path, built on first use

    def rows(self):
        for text in self._catalog_text.splitlines():
            if text:
                yield _parse_row(text)

    def paths_for(self, ids: set[str]) -> dict[str, str]:
        """Absolute file paths of the given item ids (the first catalog row of each id)."""
        index = self._paths
        if index is None:
            index = self._paths = path_index(self._catalog_text)
        # catalog paths are clean relative "folder/name" strings: joined as text, the same
        # string `str(root / rel)` gives, without a Path per hit (thousands per prompt)
        base = str(self.root) + os.sep if self.root else ""
        found: dict[str, str] = {}
        for item_id in ids:
            rel = index.get(item_id)
            if rel is not None:
                found[item_id] = unseal_path(base + rel.replace("/", os.sep))
        return found

    @property
    def line_count(self) -> int:
        text = self._catalog_text
        hit = _LINE_COUNTS.get(id(text))
        if hit is not None and hit[0] is text:  # the service's unchanged catalog: counted once
            return hit[1]
        count = text.count("\n")
        if len(_LINE_COUNTS) > 16:
            _LINE_COUNTS.clear()
        _LINE_COUNTS[id(text)] = (text, count)
        return count

    @property
    def empty(self) -> bool:
        return not self.resident and not self._catalog_text.strip()


class RootCache:
    """Cached items of one memory root (project or global).

    Three files under `.index/loader/`: `manifest-<scope>.json` (every file's stat, hash and
    rendering; read only when something changed), `resident-<scope>.json` (the fingerprint and
    the resident items, small) and `catalog-<scope>.tsv` (active items' catalog lines, sorted
    by priority, parsed only as far as the budget reaches).
    """

    def __init__(self, paths: MemoryPaths, scope: str, memo: TokenMemo, *,
                 repo_dir: Path | None, home: Path | None, max_file_bytes: int | None = None,
                 threshold: float = 4.2):
        from lorestack.memory_layers.safefiles import DEFAULT_MAX_FILE_BYTES

        self.max_file_bytes = max_file_bytes or DEFAULT_MAX_FILE_BYTES
        self.paths = paths
        self.scope = scope
        self.memo = memo
        self.repo_dir = repo_dir
        self.home = home
        self.threshold = threshold  # names holding a secret are sealed at the guard's threshold
        folder = paths.index_dir / "loader"
        self.manifest_file = folder / f"manifest-{scope}.json"
        self.resident_file = folder / f"resident-{scope}.json"
        self.catalog_file = folder / f"catalog-{scope}.tsv"

    def _valid(self, data: dict) -> bool:
        return (data.get("version") == CACHE_VERSION and data.get("render") == RENDER_VERSION
                and data.get("encoding") == self.memo.encoding
                and data.get("names", 4.2) == self.threshold)

    def _read_json(self, path: Path) -> dict:
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) and self._valid(data) else {}

    def load(self, rescan_s: float = 300.0) -> RootView:
        """Fresh view of this root; re-parses only files whose stat changed."""
        if not self.paths.root.is_dir():
            return RootView([], "", [])
        view = self._fresh(rescan_s)
        if view is not None:
            return view
        # one refresh per root at a time: a request that arrives while another parses the
        # store (seconds at 10k items) waits for that parse instead of repeating it
        with _refresh_lock(self.resident_file):
            view = self._fresh(rescan_s)
            if view is not None:
                return view
            return self._load_slow()

    def _fresh(self, rescan_s: float) -> RootView | None:
        """The cached view when the quick scan says nothing changed (and a full scan is
        recent); None otherwise."""
        key = str(self.resident_file)
        seen = stamp(self.resident_file)
        hit = RESIDENTS.get(key)
        if hit is not None and seen is not None and hit[0] == seen and self._valid(hit[1]):
            fast, made = hit[1], hit[2]
        else:
            fast, made = self._read_json(self.resident_file), None
            if fast and seen is not None:
                if len(RESIDENTS) > 16:
                    RESIDENTS.clear()
                RESIDENTS[key] = (seen, fast, None)
        if not fast or time.time() - float(fast.get("full_scan_at", 0) or 0) >= rescan_s:
            return None
        if fast.get("quick") != quick_scan(self.paths).fingerprint:
            return None
        if restated(self.paths.root, fast.get("broken", ())):
            return None  # a file that did not parse was edited since (mended, perhaps)
        if made is not None:
            try:  # a stat when the catalog is unchanged: then it is the text the view holds
                catalog, _paths = read_catalog(self.catalog_file)
            except (OSError, ValueError):
                return None
            if made._catalog_text is catalog:
                return made
        view = self._view(fast)
        if view is not None and seen is not None and RESIDENTS.get(key, (None,))[0] == seen:
            RESIDENTS[key] = (seen, fast, view)
        return view

    def _load_slow(self) -> RootView:
        fast = self._read_json(self.resident_file)
        quick = quick_scan(self.paths).fingerprint
        scan = scan_root(self.paths, threshold=self.threshold)  # its problems are cached
        if fast and fast.get("fingerprint") == scan.fingerprint:
            view = self._view(fast)
            if view is not None:
                self._write_fast(fast, quick)
                return view
        return self._refresh(scan, self._read_json(self.manifest_file), quick)

    def anchored(self, rescan_s: float = 300.0) -> list[dict]:
        """{id, path, anchors} of the active items with anchors: from the small resident file
        alone while nothing changed (the pre-tool hook's look-up never reads the catalog)."""
        fast = self._read_json(self.resident_file)
        if (fast and "anchored" in fast and fast.get("catalog_fingerprint") == fast.get("fingerprint")
                and time.time() - float(fast.get("full_scan_at", 0) or 0) < rescan_s
                and fast.get("quick") == quick_scan(self.paths).fingerprint
                and not restated(self.paths.root, fast.get("broken", ()))):
            return list(fast["anchored"])
        return self.load(rescan_s).anchored

    def _view(self, fast: dict) -> RootView | None:
        try:
            catalog, paths = read_catalog(self.catalog_file)
        except (OSError, ValueError):
            return None
        if fast.get("catalog_fingerprint") != fast.get("fingerprint"):
            return None
        return RootView([CachedItem(**row) for row in fast.get("resident", [])], catalog,
                        list(fast.get("problems", [])), self.paths.root,
                        list(fast.get("anchored", [])), paths, self.threshold)

    def _write_fast(self, fast: dict, quick: str) -> None:
        from lorestack.memory_layers.fsutil import write_atomic

        try:
            write_atomic(self.resident_file, json.dumps(
                {**fast, "quick": quick, "full_scan_at": time.time()},
                ensure_ascii=False).encode("utf-8"))
        except OSError:
            pass

    def _refresh(self, scan: Scan, data: dict, quick: str) -> RootView:
        from lorestack.core.errors import InvalidItem
        from lorestack.memory_layers.fsutil import checksum, write_atomic
        from lorestack.memory_layers.store import MemoryStore

        old = {row["path"]: CachedItem(**row) for row in data.get("items", [])}  # by rel path
        store = MemoryStore(self.paths, self.scope, self.max_file_bytes)
        items: list[CachedItem] = []
        problems: list[str] = list(scan.skipped)
        broken: list[list] = []  # [rel (sealed), mtime_ns, size] of each file that did not parse
        held: dict[str, tuple] = {}  # id -> (place in items, rel, [rel (sealed), mtime_ns, size])
        for entry in sorted(scan.entries, key=lambda e: e.rel):
            path = self.paths.root / entry.rel
            prev = old.get(entry.rel)
            if prev is None and old:  # a name holding a key is kept sealed
                prev = old.get(seal_path(entry.rel, self.threshold))
            same = prev is not None and (prev.mtime_ns, prev.size) == (entry.mtime_ns, entry.size)
            cached = prev if same else None
            try:
                if cached is None:
                    raw, note = store.read_file(path)
                    sha = checksum(raw)
                    if prev is not None and prev.sha == sha:
                        prev.mtime_ns, prev.size = entry.mtime_ns, entry.size
                        cached = prev
                if cached is None:
                    loaded = store.parse_loaded(path, raw, note)
                    cached = self._entry(loaded.item, path, sha, entry, raw)
                    cached.note = note + " (loaded truncated)" if note else cached.note
                    if loaded.item.conflict_lines:  # told on every read, as a truncation is
                        cached.note = sealed_line(f"{path}: {conflict_note(loaded.item)}", path,
                                                  self.threshold)
            except InvalidItem as exc:
                problems.append(sealed_line(str(exc), path, self.threshold))
                broken.append([seal_path(entry.rel, self.threshold), entry.mtime_ns, entry.size])
                continue
            except OSError:
                continue  # vanished between scan and read; the next scan settles it
            stat = [seal_path(entry.rel, self.threshold), entry.mtime_ns, entry.size]
            if cached.id in held:  # either file may be the one given its own id: both watched
                (at, keep, other_stat), drop = held[cached.id], entry.rel
                if dup_ids.rank(drop, cached.type, cached.status) < dup_ids.rank(
                        keep, items[at].type, items[at].status):  # this file holds the id
                    items[at], held[cached.id], drop, keep = cached, (at, drop, stat), keep, drop
                problems.append(dup_ids.line(self.paths.root, drop, keep, cached.id, self.threshold))
                broken += [stat, other_stat]
                continue
            held[cached.id] = (len(items), entry.rel, stat)
            if cached.note:
                problems.append(cached.note)
            items.append(cached)
        items.sort(key=CachedItem.priority)
        resident = [i for i in items if i.resident]
        catalog = "".join(_row_text(i) for i in items if i.status == "active")
        # what the pre-tool hook looks up by file, without parsing every item
        anchored = [{"id": i.id, "path": i.path, "anchors": i.anchors,
                     "secret_anchors": i.secret_anchors} for i in items
                    if (i.anchors or i.secret_anchors) and i.status == "active"]
        head = {"version": CACHE_VERSION, "render": RENDER_VERSION, "encoding": self.memo.encoding,
                "names": self.threshold}
        try:
            write_atomic(self.manifest_file, json.dumps(
                {**head, "items": [vars(i) for i in items]}, ensure_ascii=False).encode("utf-8"))
            write_atomic(self.catalog_file, catalog.encode("utf-8"))
            # written last: its fingerprints vouch for the other two files
            write_atomic(self.resident_file, json.dumps(
                {**head, "fingerprint": scan.fingerprint, "catalog_fingerprint": scan.fingerprint,
                 "quick": quick, "full_scan_at": time.time(),
                 "problems": problems, "broken": watched(broken), "resident": [vars(i) for i in resident],
                 "anchored": anchored},
                ensure_ascii=False).encode("utf-8"))
        except OSError:
            pass  # read-only index: correct, just slower next time
        return RootView(resident, catalog, problems, self.paths.root, anchored,
                        threshold=self.threshold)

    def _entry(self, item, path: Path, sha: str, entry: ScanEntry, raw: bytes) -> CachedItem:
        shown = seal_path(display_path(path, self.repo_dir, self.home), self.threshold)
        # an archived file is kept only to hold its id (never in the catalog): not counted
        archived = item.status == "archived"
        file_tokens = 0 if archived else self.memo.exact(raw.decode("utf-8", "replace"))
        verdict = item.criterion.verdict if item.type == "criterion" and item.criterion else ""
        # a criterion's verdict travels with its catalog line (when it is not resident)
        line = "" if archived else catalog_line(
            shown, f"{item.type}/{verdict}" if verdict else item.type, file_tokens, item.title,
            self.threshold)
        resident = is_resident(item.id, item.type) and item.status == "active"
        body = item_body(item, self.threshold) if resident else ""
        # a secret typed into the file by hand is kept out of the cache too (the render's
        # detector and threshold; a change of guard.entropy_threshold rebuilds it: `names`)
        title, body = (redact_for_reading(t, self.threshold)[0] for t in (item.title, body))
        # an anchor names a file to match: a redacted one would match nothing (and read as
        # "deleted"), so one holding a secret is left out; the file keeps it for the pre-tool
        # look-up (`about.anchored_to` reads the item for such a row)
        anchors = [a for a in item.anchors if not has_secret(a, self.threshold)]
        pinned = dict((item.model_extra or {}).get("anchored") or {}) if resident else {}
        # an id or file name holding a key (typed by hand) is cached sealed, as the index
        # holds it (readers find the file with `unseal_path`)
        return CachedItem(
            id=seal(item.id, self.threshold), type=item.type, title=title, status=item.status,
            scope=self.scope, path=seal_path(entry.rel, self.threshold), display=shown,
            updated=item.updated.isoformat(), updated_ts=item.updated.timestamp(),
            confidence=float(item.confidence), importance=float(item.importance),
            file_tokens=file_tokens, line=line, line_tokens=self.memo.exact(line), resident=resident,
            body=body, body_tokens=self.memo.exact(body), tilde=longest_tilde_fence(body),
            verdict=verdict, sha=sha, mtime_ns=entry.mtime_ns, size=entry.size,
            anchors=anchors, secret_anchors=len(item.anchors) - len(anchors),
            anchored={k: v for k, v in pinned.items() if not has_secret(str(k), self.threshold)},
            anchor_commit=str((item.model_extra or {}).get("anchor_commit") or "") if resident
            else "",
        )

