"""What the viewer lists: every item file and journal day, kept fresh by a stat sweep.

A page over ten thousand items must not parse ten thousand YAML files. The inventory parses
a file once and keeps a small summary of it; each later sweep only stats the files and
re-parses those whose (mtime, size) changed, so a page pays one stat per file. The files stay
the truth: an item page always reads its file again before showing or editing it.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from lorestack.core.errors import InvalidItem
from lorestack.memory_layers import dup_ids
from lorestack.memory_layers.journal import JournalProblem
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import TYPE_FOLDERS, TYPE_LAYER, CriterionSpec, JournalEvent
from lorestack.memory_layers.sealed_names import seal, sealed_line
from lorestack.memory_layers.store import ARCHIVE_DEPTH, SPECIAL_FILES, MemoryStore

FULL_SWEEP_S = 10.0  # an in-place edit (folder mtime unchanged) shows up within this


@dataclass
class ItemSummary:
    """One item file as the lists show it (the page itself reads the file again)."""

    id: str
    type: str
    layer: str
    status: str
    scope: str
    title: str
    tags: list[str]
    created: datetime
    updated: datetime
    confidence: float
    importance: float
    path: Path
    tokens: int
    size: int
    supersedes: list[str]
    superseded_by: str | None
    source_kind: str
    events: list[str]
    proposed_supersedes: str | None = None
    criterion: CriterionSpec | None = None


@dataclass
class DaySummary:
    day: date
    path: Path
    events: list[JournalEvent]
    problems: list[JournalProblem]
    tokens: int


@dataclass
class _Entry:
    mtime_ns: int
    size: int
    summary: ItemSummary | None
    problem: str | None = None


@dataclass
class Snapshot:
    """The merged view at one moment (project items hide global ones with the same key)."""

    items: list[ItemSummary] = field(default_factory=list)
    by_id: dict[str, ItemSummary] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    superseded_by: dict[str, list[str]] = field(default_factory=dict)  # old id -> newer ids


class Inventory:
    """Stat-validated summaries of one memory's item files and journal days.

    `refresh()` (once per request) is cheap: it stats the item folders and re-reads a folder
    only when its mtime moved (a file was added, removed or renamed: every lorestack write and
    most editors' saves). An edit in place does not move the folder's mtime, so a full sweep
    (every file stat'ed) runs in a background thread at most every FULL_SWEEP_S; the first
    refresh and `refresh(force=True)` run it inline.
    """

    def __init__(self, mem: Memory, count_tokens):
        self.mem = mem
        self.count_tokens = count_tokens
        self._items: dict[Path, _Entry] = {}
        self._dirs: dict[Path, int] = {}
        self._days: dict[Path, tuple[int, int, DaySummary]] = {}
        self._snapshot = Snapshot()
        self._events: list[JournalEvent] = []
        self._events_by_id: dict[str, JournalEvent] = {}
        self._lock = threading.RLock()
        self._last_full = float("-inf")
        self._full_thread: threading.Thread | None = None
        self.full_sweep_interval = FULL_SWEEP_S
        self.last_full_sweep_s = 0.0
        self.last_refresh_s = 0.0

    # ---- sweeping -----------------------------------------------------------------------
    def refresh(self, force: bool = False, paths: list[Path] | tuple[Path, ...] = ()) -> None:
        """Bring the summaries up to date; `paths` are files the caller just wrote."""
        started = time.perf_counter()
        with self._lock:
            if force or self._last_full == float("-inf"):
                self._full_sweep()
            else:
                changed = self._quick_sweep()
                for path in paths:
                    changed |= self._restat(self._store_of(path), path)
                if changed:
                    self._snapshot = self._merge()
            if self._sweep_days():
                events = [e for _, _, d in self._days.values() for e in d.events]
                events.sort(key=lambda e: e.time)
                self._events = events
                self._events_by_id = {e.id: e for e in events}
        self.last_refresh_s = time.perf_counter() - started
        if time.monotonic() - self._last_full > self.full_sweep_interval and (
            self._full_thread is None or not self._full_thread.is_alive()
        ):
            self._full_thread = threading.Thread(
                target=self._background_full, daemon=True, name="lorestack-ui-sweep"
            )
            self._full_thread.start()

    def close(self) -> None:
        thread = self._full_thread
        if thread is not None:
            thread.join(timeout=30)

    def _background_full(self) -> None:
        try:
            listing = self._list_all()  # the stat work, without holding up requests
            with self._lock:
                self._apply_full(listing)
        except Exception:  # noqa: BLE001, S110 - the next refresh tries again
            pass

    def _stores(self) -> list[MemoryStore]:
        stores = []
        if self.mem.home.root.is_dir():
            stores.append(self.mem.global_store)
        if self.mem.project_store is not None and self.mem.project_store.exists():
            stores.append(self.mem.project_store)
        return stores

    def _store_of(self, path: Path) -> MemoryStore:
        project = self.mem.project_store
        if project is not None and project.paths.root in path.parents:
            return project
        return self.mem.global_store

    def _folders(self) -> list[tuple[MemoryStore, Path]]:
        out = []
        for store in self._stores():
            for folder in TYPE_FOLDERS.values():
                out.append((store, store.paths.root / folder))
                _archive_tree(store, store.paths.archive_dir / folder, ARCHIVE_DEPTH, out)
        return out

    def _full_sweep(self) -> None:
        self._apply_full(self._list_all())

    def _list_all(self) -> tuple[float, dict[Path, tuple[MemoryStore, os.stat_result]], dict]:
        """Every item file with its stat, and every folder's mtime (reads nothing)."""
        started = time.perf_counter()
        files: dict[Path, tuple[MemoryStore, os.stat_result]] = {}
        dirs: dict[Path, int | None] = {}
        for store in self._stores():
            for name in SPECIAL_FILES:
                path = store.paths.root / name
                try:
                    files[path] = (store, os.stat(path))
                except OSError:
                    continue
        for store, directory in self._folders():
            try:
                dirs[directory] = os.stat(directory).st_mtime_ns
                entries = list(os.scandir(directory))
            except OSError:
                dirs[directory] = None
                continue
            for entry in entries:
                if not entry.name.endswith(".md") or entry.name.startswith("."):
                    continue
                try:
                    st = entry.stat()
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    files[Path(entry.path)] = (store, st)
        return started, files, dirs

    def _apply_full(self, listing) -> None:
        started, files, dirs = listing
        changed = False
        for path, (store, st) in files.items():
            known = self._items.get(path)
            if known is not None and known.mtime_ns == st.st_mtime_ns and known.size == st.st_size:
                continue
            self._items[path] = self._parse(store, path, st)
            changed = True
        for gone in [p for p in self._items if p not in files]:
            del self._items[gone]
            changed = True
        self._dirs.update(dirs)
        if changed or not self._snapshot.by_id:
            self._snapshot = self._merge()
        self._last_full = time.monotonic()
        self.last_full_sweep_s = time.perf_counter() - started

    def _quick_sweep(self) -> bool:
        changed = False
        for store in self._stores():
            for name in SPECIAL_FILES:  # two files: always checked one by one
                changed |= self._restat(store, store.paths.root / name)
        folders = self._folders()
        for store, directory in folders:
            try:
                mtime = os.stat(directory).st_mtime_ns
            except OSError:
                mtime = None
            if mtime == self._dirs.get(directory, "unknown"):
                continue
            seen: set[Path] = set()
            changed |= self._scan_folder(store, directory, seen)
            for gone in [p for p in self._items if p.parent == directory and p not in seen]:
                del self._items[gone]
                changed = True
        # a sub-folder of the archive removed whole: its items go with it
        swept = {directory for _store, directory in folders}
        for gone in [p for p in self._items if p.parent not in swept
                     and p.name not in SPECIAL_FILES]:
            del self._items[gone]
            changed = True
        return changed

    def _scan_folder(self, store: MemoryStore, directory: Path, seen: set[Path]) -> bool:
        """Stat every item file of one folder (parsing the changed ones)."""
        changed = False
        try:
            self._dirs[directory] = os.stat(directory).st_mtime_ns
            entries = list(os.scandir(directory))
        except OSError:
            self._dirs[directory] = None  # type: ignore[assignment]
            return False
        for entry in entries:
            if not entry.name.endswith(".md") or entry.name.startswith("."):
                continue
            path = Path(entry.path)
            try:
                st = entry.stat()
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode):
                continue
            seen.add(path)
            known = self._items.get(path)
            if known is not None and known.mtime_ns == st.st_mtime_ns and known.size == st.st_size:
                continue
            self._items[path] = self._parse(store, path, st)
            changed = True
        return changed

    def _restat(self, store: MemoryStore, path: Path) -> bool:
        try:
            st = os.stat(path)
        except OSError:
            return self._items.pop(path, None) is not None
        known = self._items.get(path)
        if known is not None and known.mtime_ns == st.st_mtime_ns and known.size == st.st_size:
            return False
        self._items[path] = self._parse(store, path, st)
        return True

    def _parse(self, store: MemoryStore, path: Path, st: os.stat_result) -> _Entry:
        try:
            loaded = store.load_file(path)
        except InvalidItem as exc:
            return _Entry(st.st_mtime_ns, st.st_size, None, exc.problem)
        except OSError as exc:
            return _Entry(st.st_mtime_ns, st.st_size, None, f"cannot read: {exc.strerror}")
        from lorestack.memory_layers.secret_guard import redact_for_reading

        it = loaded.item
        extra = it.model_extra or {}
        proposed = extra.get("proposed_supersedes")
        threshold = self.mem.settings.guard.entropy_threshold
        # every id a summary holds is sealed as `list` shows it (an id holding a key, typed by
        # hand): the pages print them, and look them up among the sealed ids of `by_id`
        summary = ItemSummary(
            id=seal(it.id, threshold),
            type=it.type,
            layer=TYPE_LAYER[it.type],
            status=it.status,
            scope=it.scope,
            title=it.title,
            tags=[redact_for_reading(t, threshold)[0] for t in it.tags],  # as shown, and filtered
            created=it.created,
            updated=it.updated,
            confidence=it.confidence,
            importance=it.importance,
            path=path,
            tokens=self.count_tokens(it.text),
            size=st.st_size,
            supersedes=[seal(old, threshold) for old in it.supersedes],
            superseded_by=seal(it.superseded_by, threshold) if it.superseded_by else None,
            source_kind=it.source.kind,
            events=[seal(e, threshold) for e in it.source.events],
            proposed_supersedes=seal(str(proposed), threshold) if proposed else None,
            criterion=it.criterion,
        )
        return _Entry(st.st_mtime_ns, st.st_size, summary)

    def _merge(self) -> Snapshot:
        snap = Snapshot()
        project_root = self.mem.project.root if self.mem.project else None
        project: list = []
        global_: list = []
        for path, entry in self._items.items():
            if entry.summary is None:
                snap.problems.append(sealed_line(f"{path}: {entry.problem}", path,
                                                 self.mem.settings.guard.entropy_threshold))
                continue
            in_project = project_root is not None and project_root in path.parents
            (project if in_project else global_).append(entry.summary)
        from lorestack.memory_layers.scopes import visible_global

        merged = list(visible_global(project, global_, lambda s: (s.id, s.type, s.title)))
        merged.extend(project)
        for s in merged:
            previous = snap.by_id.get(s.id)
            if previous is not None:  # two files with one id: dup_ids decides which holds it
                kept, dropped = sorted((previous, s), key=lambda x: dup_ids.rank(
                    str(x.path), x.type, x.status))
                snap.by_id[s.id] = kept
                snap.problems.append(dup_ids.line("", str(dropped.path), str(kept.path), s.id,
                                                  self.mem.settings.guard.entropy_threshold))
                continue
            snap.by_id[s.id] = s
        snap.items = sorted(snap.by_id.values(), key=lambda s: (s.updated, s.id), reverse=True)
        for s in snap.items:
            for old in s.supersedes:
                snap.superseded_by.setdefault(old, []).append(s.id)
        return snap

    def _sweep_days(self) -> bool:
        journal = self.mem.journal
        if journal is None:
            return False
        changed = False
        seen: set[Path] = set()
        for day in journal.days():
            path = journal.day_file(day)
            try:
                st = os.stat(path)
            except OSError:
                continue
            seen.add(path)
            known = self._days.get(path)
            if known is not None and known[0] == st.st_mtime_ns and known[1] == st.st_size:
                continue
            parsed = journal.read_file(path)
            tokens = sum(self.count_tokens(e.text) for e in parsed.events)
            # an event id typed around a key: the pages name and link it sealed, as `show` does,
            # and the ids its tags name (`closes:<id>`)
            events = [self._sealed(e) for e in parsed.events]
            self._days[path] = (
                st.st_mtime_ns,
                st.st_size,
                DaySummary(day, path, events, parsed.problems, tokens),
            )
            changed = True
        for gone in [p for p in self._days if p not in seen]:
            del self._days[gone]
            changed = True
        return changed

    # ---- reading ------------------------------------------------------------------------
    # (call `refresh()` once per request first; these read what the last refresh saw)
    def snapshot(self) -> Snapshot:
        return self._snapshot

    def days(self) -> list[DaySummary]:
        return sorted((d for _, _, d in self._days.values()), key=lambda d: d.day)

    def events(self) -> list[JournalEvent]:
        return self._events

    def event(self, event_id: str) -> JournalEvent | None:
        return self._events_by_id.get(event_id)

    def cited(self, event_id: str) -> tuple[str, JournalEvent | None]:
        """An event an item cites (by the id it was written under): the id the pages give
        it, sealed when typed around a key, and the event when the journal still holds it."""
        shown = seal(event_id, self.mem.settings.guard.entropy_threshold)
        return shown, self._events_by_id.get(shown)

    def _sealed(self, event: JournalEvent) -> JournalEvent:
        from lorestack.memory_layers.event_archive import sealed_event

        shown = sealed_event(self.mem, event)
        if shown.id == event.id and shown.tags == event.tags:
            return event
        return event.model_copy(update={"id": shown.id, "tags": shown.tags})


def _archive_tree(store: MemoryStore, folder: Path, depth: int,
                  out: list[tuple[MemoryStore, Path]]) -> None:
    """`folder` and its sub-folders `depth` levels down (not through links), as the store reads
    an archive a person sorted into folders (archive/facts/2025/)."""
    out.append((store, folder))
    if depth <= 0:
        return
    try:
        with os.scandir(folder) as it:
            subs = sorted(e.path for e in it
                          if not e.name.startswith(".") and e.is_dir(follow_symlinks=False))
    except OSError:
        return
    for sub in subs:
        _archive_tree(store, Path(sub), depth - 1, out)
