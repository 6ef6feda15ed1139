"""What the viewer lists: every item file and journal day, kept fresh by a stat sweep.

A page over ten thousand items must not parse ten thousand YAML files. The inventory parses
a file once and keeps a small summary of it; each later sweep only stats the files and
re-parses those whose (mtime, size) changed, so a page pays one stat per file. The files stay
the truth: an item page always reads its file again before showing or editing it.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

from memstrata.memory_layers.journal import JournalProblem
from memstrata.memory_layers.memory import Memory
from memstrata.memory_layers.models import TYPE_LAYER, CriterionSpec, JournalEvent
from memstrata.memory_layers.store import MemoryStore

from memstrata.core.errors import InvalidItem

SWEEP_INTERVAL_S = 1.0  # at most one stat sweep per second; writes through the viewer force one


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
    """Stat-validated summaries of one memory's item files and journal days."""

    def __init__(self, mem: Memory, count_tokens):
        self.mem = mem
        self.count_tokens = count_tokens
        self._items: dict[Path, _Entry] = {}
        self._days: dict[Path, tuple[int, int, DaySummary]] = {}
        self._snapshot = Snapshot()
        self._events: list[JournalEvent] = []
        self._events_by_id: dict[str, JournalEvent] = {}
        self._lock = threading.RLock()
        self._last_sweep = float("-inf")
        self.last_sweep_s = 0.0

    # ---- sweeping -----------------------------------------------------------------------
    def refresh(self, force: bool = False) -> None:
        with self._lock:
            if not force and time.monotonic() - self._last_sweep < SWEEP_INTERVAL_S:
                return
            started = time.perf_counter()
            items_changed = self._sweep_items()
            days_changed = self._sweep_days()
            if items_changed:
                self._snapshot = self._merge()
            if days_changed:
                events = [e for _, _, d in self._days.values() for e in d.events]
                events.sort(key=lambda e: e.time)
                self._events = events
                self._events_by_id = {e.id: e for e in events}
            self._last_sweep = time.monotonic()
            self.last_sweep_s = time.perf_counter() - started

    def _stores(self) -> list[MemoryStore]:
        stores = []
        if self.mem.home.root.is_dir():
            stores.append(self.mem.global_store)
        if self.mem.project_store is not None and self.mem.project_store.exists():
            stores.append(self.mem.project_store)
        return stores

    def _sweep_items(self) -> bool:
        changed = False
        seen: set[Path] = set()
        for store in self._stores():
            for path in store.item_files(include_archived=True):
                try:
                    st = os.stat(path)
                except OSError:
                    continue
                seen.add(path)
                entry = self._items.get(path)
                if entry is not None and entry.mtime_ns == st.st_mtime_ns and entry.size == st.st_size:
                    continue
                self._items[path] = self._parse(store, path, st)
                changed = True
        for gone in [p for p in self._items if p not in seen]:
            del self._items[gone]
            changed = True
        return changed

    def _parse(self, store: MemoryStore, path: Path, st: os.stat_result) -> _Entry:
        try:
            loaded = store.load_file(path)
        except InvalidItem as exc:
            return _Entry(st.st_mtime_ns, st.st_size, None, exc.problem)
        except OSError as exc:
            return _Entry(st.st_mtime_ns, st.st_size, None, f"cannot read: {exc.strerror}")
        it = loaded.item
        extra = it.model_extra or {}
        proposed = extra.get("proposed_supersedes")
        summary = ItemSummary(
            id=it.id, type=it.type, layer=TYPE_LAYER[it.type], status=it.status, scope=it.scope,
            title=it.title, tags=list(it.tags), created=it.created, updated=it.updated,
            confidence=it.confidence, importance=it.importance, path=path,
            tokens=self.count_tokens(it.text), size=st.st_size, supersedes=list(it.supersedes),
            superseded_by=it.superseded_by, source_kind=it.source.kind,
            events=list(it.source.events), proposed_supersedes=str(proposed) if proposed else None,
            criterion=it.criterion)
        return _Entry(st.st_mtime_ns, st.st_size, summary)

    def _merge(self) -> Snapshot:
        snap = Snapshot()
        project_root = self.mem.project.root if self.mem.project else None
        project, global_ = [], []
        for path, entry in self._items.items():
            if entry.summary is None:
                snap.problems.append(f"{path}: {entry.problem}")
                continue
            in_project = project_root is not None and project_root in path.parents
            (project if in_project else global_).append(entry.summary)
        keys = {(s.type, s.title.strip().lower()) for s in project} | {s.id for s in project}
        merged = [s for s in global_
                  if s.id not in keys and (s.type, s.title.strip().lower()) not in keys]
        merged.extend(project)
        for s in merged:
            previous = snap.by_id.get(s.id)
            # an archived copy next to a live one (interrupted archive): the archived one wins
            if previous is not None and not (s.status == "archived" and previous.status != "archived"):
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
            self._days[path] = (st.st_mtime_ns, st.st_size,
                                DaySummary(day, path, parsed.events, parsed.problems, tokens))
            changed = True
        for gone in [p for p in self._days if p not in seen]:
            del self._days[gone]
            changed = True
        return changed

    # ---- reading ------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        self.refresh()
        return self._snapshot

    def days(self) -> list[DaySummary]:
        self.refresh()
        return sorted((d for _, _, d in self._days.values()), key=lambda d: d.day)

    def events(self) -> list[JournalEvent]:
        self.refresh()
        return self._events

    def event(self, event_id: str) -> JournalEvent | None:
        self.refresh()
        return self._events_by_id.get(event_id)
