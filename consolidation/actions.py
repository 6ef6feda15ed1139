"""Plan steps and their idempotent application.

Every step carries a deterministic key (derived from the cited event ids) and a
deterministic item id, so applying a step twice, or after a crash half-way through, ends in
the same files: a step first looks for its own traces (an item with its id or key, a key in
an item's `source.merged`, an archive copy) and only does what is missing.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from lorestack.core.errors import ConcurrentEdit, InvalidItem
from lorestack.memory_layers import dup_ids
from lorestack.memory_layers.fsutil import locked
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import MemoryItem, new_id, now_utc
from lorestack.memory_layers.store import LoadedItem, MemoryStore

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"

Op = Literal["add", "merge", "supersede", "propose", "archive_item", "archive_day"]


def claim_key(event_ids: list[str]) -> str:
    """The identity of a claim: a hash of the sorted ids of the events behind it."""
    digest = hashlib.sha256(",".join(sorted(event_ids)).encode()).hexdigest()
    return f"c1-{digest[:20]}"


def item_id_for(key: str, item_type: str) -> str:
    prefix = new_id(item_type).split("-", 1)[0]
    digest = hashlib.sha256(key.encode()).digest()
    return f"{prefix}-{''.join(_ALPHABET[b % 32] for b in digest[:8])}"


def content_hash(item: MemoryItem, *, state: bool = False) -> str:
    """A hash of what a person edits in an item: type, title, tags, body (and with `state`,
    its status and confirmation too). Consolidation's own merges change none of it."""
    parts = [item.type, item.title.strip(), ",".join(item.tags), item.body.strip()]
    if state:
        parts += [item.status, str(item.human_confirmed)]
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def machine_owned(item: MemoryItem) -> bool:
    """Written by consolidation and not edited since. An item whose text a person changed
    after consolidation wrote it is theirs: never merged into or superseded without review.
    Items written before the hash was kept (no `source.written`) stay machine-owned."""
    if item.source.kind != "consolidation":
        return False
    written = (item.source.model_extra or {}).get("written")
    return not written or written == content_hash(item)


class Action(BaseModel):
    """One step of a run's plan (stored as JSON in the checkpoint)."""

    op: Op
    key: str = ""
    item: dict[str, Any] | None = None  # frontmatter of the item to create
    body: str = ""
    target: str | None = None  # existing item id (merge / supersede / propose / archive)
    events: list[str] = Field(default_factory=list)
    importance: float | None = None
    confidence: float | None = None  # merge: the reinforced confidence
    reason: str = ""
    day: str | None = None  # journal file name for archive_day
    cluster: list[str] = Field(default_factory=list)  # every event of the cluster behind it
    keys: list[str] = Field(default_factory=list)  # merge: every claim folded into this write
    expect: str = ""  # the target's content_hash(state=True) when the plan was made

    def merge_keys(self) -> list[str]:
        return self.keys or [self.key]

    def describe(self) -> str:
        title = (self.item or {}).get("title", "")
        new = (self.item or {}).get("id", "")
        if self.op == "add":
            return f"add {new} ({(self.item or {}).get('status')}): {title}"
        if self.op == "merge":
            return f"merge {len(self.events)} event(s) into {self.target}"
        if self.op == "supersede":
            return f"{new} supersedes {self.target}: {title}"
        if self.op == "propose" and (self.item or {}).get("proposed_merge_into"):
            return f"propose {new} as evidence for {self.target} (pending review): {title}"
        if self.op == "propose":
            return f"propose {new} to replace {self.target} (pending review): {title}"
        if self.op == "archive_item":
            return f"archive {self.target}: {self.reason}"
        return f"archive journal/{self.day}"


@dataclass
class Applied:
    action: Action
    done: bool  # False: already applied earlier (resume) or impossible
    note: str = ""
    paths: list[Path] = field(default_factory=list)


class World:
    """The project's items by id: read once, then kept current file by file as steps write."""

    def __init__(self, mem: Memory):
        self.mem = mem
        self.store: MemoryStore = mem.require_project().store
        self.refresh()

    def refresh(self) -> None:
        """Re-read every item file (at the start, and when files may have changed under us)."""
        self.by_id: dict[str, list[LoadedItem]] = {}
        self.by_path: dict[Path, LoadedItem] = {}
        self.keys: dict[str, str] = {}
        self.merged: set[str] = set()
        for path in self.store.item_files():
            self.touch(path)

    def touch(self, path: Path | None) -> None:
        """Re-read one file this process just wrote, moved or removed."""
        if path is None:
            return
        previous = self.by_path.pop(path, None)
        if previous is not None:
            copies = self.by_id.get(previous.item.id, [])
            self.by_id[previous.item.id] = [c for c in copies if c.path != path]
        try:
            loaded = self.store.load_file(path)
        except (InvalidItem, OSError):
            return
        self.by_path[path] = loaded
        self.by_id.setdefault(loaded.item.id, []).append(loaded)
        extra = loaded.item.source.model_extra or {}
        if extra.get("key"):
            self.keys[extra["key"]] = loaded.item.id
        self.merged.update(extra.get("merged") or [])

    def get(self, item_id: str) -> LoadedItem | None:
        """The file holding the id, as every command reads it (`dup_ids`)."""
        return min(self.by_id.get(item_id) or [], key=dup_ids.loaded_rank, default=None)

    def live(self, item_id: str) -> LoadedItem | None:
        copies = [c for c in self.by_id.get(item_id) or [] if c.item.status != "archived"]
        return min(copies, key=dup_ids.loaded_rank, default=None)

    def key_applied(self, key: str) -> bool:
        return key in self.keys or key in self.merged


CrashHook = Callable[[str], None]


def _noop(_: str) -> None:
    return None


def _item_from(action: Action) -> MemoryItem:
    item = MemoryItem.model_validate(action.item)
    item.body = action.body
    now = now_utc()
    item.created = item.updated = now
    return item


def _ensure_created(world: World, action: Action, mem: Memory) -> tuple[bool, Path | None]:
    item = _item_from(action)
    if world.get(item.id) is not None or action.key in world.keys:
        return False, None
    item.title = mem.guard(item.title, redact=True, where="claim title")
    item.body = mem.guard(item.body, redact=True, where="claim text")
    item.tags = [mem.guard(t, redact=True, where="claim tags") for t in item.tags]
    item.source = type(item.source).model_validate(
        {**item.source.model_dump(exclude_none=True), "written": content_hash(item)})
    path = world.store.create(item)
    world.touch(path)
    return True, path


_ARCHIVING_FIELDS = ("status", "updated", "archived_reason", "superseded_by")


def _as_archived(loaded: LoadedItem) -> tuple[dict, str]:
    """An item as its archive copy would hold it: what archiving changes left out."""
    data = loaded.item.frontmatter()
    for key in _ARCHIVING_FIELDS:
        data.pop(key, None)
    return data, loaded.item.body


def _finish_archive(world: World, item_id: str) -> None:
    """An archive interrupted between copy and unlink leaves two copies: drop the live one,
    if it still says what the archive copy says. A live copy that differs was edited since
    (or restored by hand): it is the user's, so nothing is removed and the step is skipped."""
    copies = world.by_id.get(item_id) or []
    archived = [c for c in copies if c.item.status == "archived"]
    if not archived:
        return
    for copy in copies:
        if copy.item.status != "archived" and world.store.paths.archive_dir not in copy.path.parents:
            if all(_as_archived(copy) != _as_archived(a) for a in archived):
                raise ConcurrentEdit(
                    f"{copy.path} and its archive copy {archived[0].path} differ (edited since "
                    "an interrupted archive, or restored by hand); nothing removed — keep one")
            with locked(world.store.paths.locks_dir, f"file-{copy.path.name}"):
                try:
                    if world.store._current_checksum(copy.path) != copy.checksum:
                        raise ConcurrentEdit(f"{copy.path} changed on disk since it was read; "
                                             "nothing removed")
                    os.unlink(copy.path)
                except FileNotFoundError:
                    pass
            world.touch(copy.path)


def _archive(world: World, item_id: str, *, reason: str, superseded_by: str | None = None
             ) -> tuple[bool, Path | None]:
    _finish_archive(world, item_id)
    live = world.live(item_id)
    if live is None:
        return False, None
    path = world.store.archive(live, reason=reason, superseded_by=superseded_by)
    world.touch(live.path)
    world.touch(path)
    return True, path


def apply_action(mem: Memory, world: World, action: Action, crash: CrashHook = _noop) -> Applied:
    """Do what is missing of `action`; report whether anything changed."""
    try:
        changed = _target_changed(world, action)
        if changed:
            return Applied(action, False, note=f"skipped: {changed}")
        if action.op in ("add", "propose"):
            done, path = _ensure_created(world, action, mem)
            return Applied(action, done, paths=[path] if path else [])
        if action.op == "supersede":
            done, path = _ensure_created(world, action, mem)
            crash("supersede:created")
            new_id = (action.item or {}).get("id")
            archived, old_path = _archive(world, action.target or "",
                                          reason=f"superseded by {new_id} (consolidation)",
                                          superseded_by=new_id)
            return Applied(action, done or archived, paths=[p for p in (path, old_path) if p])
        if action.op == "merge":
            return _merge(world, action)
        if action.op == "archive_item":
            done, path = _archive(world, action.target or "", reason=action.reason)
            return Applied(action, done, paths=[path] if path else [])
        if action.op == "archive_day":
            return _archive_day(mem, action)
    except ConcurrentEdit as exc:
        world.refresh()  # someone edited memory meanwhile: see their version from now on
        return Applied(action, False, note=f"skipped: {exc}")
    raise ValueError(f"unknown plan step {action.op!r}")


def expect_targets(world: World, actions: list[Action]) -> None:
    """Keep in each step that changes an existing item what that item said when planned."""
    for action in actions:
        live = world.live(action.target or "") if action.op in _CHANGES_TARGET else None
        if live is not None:
            action.expect = _expect_hash(live.item, action.op)


_CHANGES_TARGET = ("merge", "supersede", "archive_item")


def _expect_hash(item: MemoryItem, op: str) -> str:
    # fading is judged on importance: a person who raised it meant to keep the item (a merge
    # raises it too, so merge and supersede steps leave it out)
    extra = f"{item.importance}" if op == "archive_item" else ""
    return content_hash(item, state=True) + extra


def _target_changed(world: World, action: Action) -> str:
    """Why a step must not run: its target was edited after the plan was made (a plan left by
    a crash is applied on resume, perhaps after the user changed the item meanwhile)."""
    if action.op not in _CHANGES_TARGET or not action.expect:
        return ""
    live = world.live(action.target or "")
    if live is None or _expect_hash(live.item, action.op) == action.expect:
        return ""
    return (f"{action.target} ({live.path.name}) was edited after this step was planned; "
            "left as it is, the events are tried again next run")


def coalesce_merges(actions: list[Action]) -> list[Action]:
    """One write per merged item per window: later merges into a target join the first."""
    out: list[Action] = []
    first: dict[str, Action] = {}
    for action in actions:
        if action.op != "merge" or not action.target:
            out.append(action)
            continue
        head = first.get(action.target)
        if head is None:
            head = action.model_copy(deep=True)
            head.keys = [action.key]
            first[action.target] = head
            out.append(head)
            continue
        head.keys.append(action.key)
        head.events = sorted(set(head.events) | set(action.events))
        head.cluster = sorted(set(head.cluster) | set(action.cluster))
        head.importance = action.importance  # reinforcement accumulates in plan order
        head.confidence = action.confidence
    return out


def _merge(world: World, action: Action) -> Applied:
    if all(key in world.merged for key in action.merge_keys()):
        return Applied(action, False)
    loaded = world.live(action.target or "")
    if loaded is None:
        return Applied(action, False, note=f"{action.target} is gone or archived; nothing merged")
    item = loaded.item.model_copy(deep=True)
    item.body = loaded.item.body
    extra = dict(item.source.model_extra or {})
    merged = list(extra.get("merged") or [])
    merged.extend(k for k in action.merge_keys() if k not in merged)
    source = item.source.model_copy(update={"events": sorted(set(item.source.events) | set(action.events))})
    data = {**source.model_dump(exclude_none=True), "merged": merged}
    item.source = type(item.source).model_validate(data)
    if action.importance is not None:
        item.importance = action.importance
    if action.confidence is not None:
        item.confidence = max(item.confidence, action.confidence)
    world.store.update(loaded, item)
    world.touch(loaded.path)
    _record_access(world.mem, [item.id])
    return Applied(action, True, paths=[loaded.path])


def _record_access(mem: Memory, ids: list[str]) -> None:
    """Agreement counts as a use: the item's access count rises, so it decays more slowly."""
    try:
        from lorestack.retrieval.usage import UsageStore

        store = UsageStore(mem.require_project().paths.index_dir / "usage.sqlite")
        try:
            store.record(ids)
        finally:
            store.close()
    except Exception:  # noqa: BLE001 - reinforcement is best effort, never worth failing a run
        pass


def _archive_day(mem: Memory, action: Action) -> Applied:
    paths = mem.require_project().paths
    source = paths.journal_dir / (action.day or "")
    target = paths.archive_dir / "journal" / (action.day or "")
    with locked(paths.locks_dir, f"journal-{action.day}"):
        if not source.exists():
            return Applied(action, False)
        if target.exists():
            return Applied(action, False, note=f"{target} already exists; left {source} in place")
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, target)  # a rename: the file is moved whole, never rewritten
    return Applied(action, True, paths=[target])
