"""File store for L1/L2 items: one markdown file per item, folders per type, archive never deletes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from memstrata.memory_layers.fsutil import checksum, locked, write_atomic
from memstrata.memory_layers.markdown import parse_item, serialize_item
from memstrata.memory_layers.models import FOLDER_TYPES, TYPE_FOLDERS, MemoryItem, now_utc, slugify

from memstrata.core.errors import ConcurrentEdit, InvalidItem, ItemNotFound
from memstrata.core.paths import MemoryPaths

# the identity card and the profile are single files with fixed ids
SPECIAL_FILES = {"project.md": ("project", "fact"), "profile.md": ("profile", "preference")}


@dataclass
class LoadedItem:
    item: MemoryItem
    path: Path
    checksum: str


@dataclass
class LoadResult:
    items: list[LoadedItem] = field(default_factory=list)
    problems: list[InvalidItem] = field(default_factory=list)


class MemoryStore:
    """Items of one memory root (a project's `.memory/` or the global `~/.memstrata/`)."""

    def __init__(self, paths: MemoryPaths, scope: str):
        self.paths = paths
        self.scope = scope

    # ---- layout -------------------------------------------------------------------------
    def exists(self) -> bool:
        return self.paths.root.is_dir()

    def ensure_layout(self) -> list[Path]:
        """Create the folders (idempotent); return those that were new."""
        created = []
        for folder in [*TYPE_FOLDERS.values(), "journal", "archive", ".index"]:
            path = self.paths.root / folder
            if not path.exists():
                path.mkdir(parents=True, exist_ok=True)
                created.append(path)
        ignore = self.paths.root / ".gitignore"
        if not ignore.exists():
            write_atomic(ignore, b"# derived caches; rebuild with `memstrata reindex`\n.index/\n")
            created.append(ignore)
        return created

    # ---- reading ------------------------------------------------------------------------
    def item_files(self, include_archived: bool = True) -> list[Path]:
        root = self.paths.root
        files = [root / name for name in SPECIAL_FILES if (root / name).is_file()]
        for folder in TYPE_FOLDERS.values():
            directory = root / folder
            if directory.is_dir():
                files.extend(sorted(p for p in directory.glob("*.md") if not p.name.startswith(".")))
        if include_archived and self.paths.archive_dir.is_dir():
            files.extend(sorted(
                p for p in self.paths.archive_dir.rglob("*.md")
                if not p.name.startswith(".") and p.parent.name in TYPE_FOLDERS.values()
            ))
        return files

    def _defaults_for(self, path: Path) -> tuple[str | None, str | None]:
        if path.parent == self.paths.root and path.name in SPECIAL_FILES:
            return SPECIAL_FILES[path.name]
        return None, FOLDER_TYPES.get(path.parent.name)

    def load_file(self, path: Path) -> LoadedItem:
        raw = path.read_bytes()
        fixed_id, default_type = self._defaults_for(path)
        item = parse_item(path, raw, default_type=default_type, default_scope=self.scope)
        if fixed_id:
            item.id = fixed_id if item.id == path.stem else item.id
        if self.paths.archive_dir in path.parents and item.status != "archived":
            item.status = "archived"
        item.scope = self.scope
        return LoadedItem(item, path, checksum(raw))

    def load_all(self, include_archived: bool = True) -> LoadResult:
        """Every item that parses; every file that does not is reported, never touched."""
        result = LoadResult()
        seen: dict[str, int] = {}
        for path in self.item_files(include_archived):
            try:
                loaded = self.load_file(path)
            except FileNotFoundError:
                continue  # deleted while we were listing
            except InvalidItem as exc:
                result.problems.append(exc)
                continue
            except OSError as exc:
                result.problems.append(InvalidItem(path, f"cannot read: {exc.strerror}"))
                continue
            previous = seen.get(loaded.item.id)
            if previous is not None:
                # an archive copy next to a live copy (interrupted archive): archived wins
                other = result.items[previous]
                if loaded.item.status == "archived" and other.item.status != "archived":
                    result.items[previous] = loaded
                result.problems.append(InvalidItem(
                    path, f"duplicate id '{loaded.item.id}' (also in {other.path}); "
                          "rename one of the ids"))
                continue
            seen[loaded.item.id] = len(result.items)
            result.items.append(loaded)
        return result

    def find(self, item_id: str) -> LoadedItem:
        # fast path: file named after the id or the slug is unknown, so scan
        for path in self.item_files():
            try:
                loaded = self.load_file(path)
            except (InvalidItem, OSError):
                continue
            if loaded.item.id == item_id:
                return loaded
        raise ItemNotFound(f"no memory item with id '{item_id}' in {self.paths.root}")

    # ---- writing ------------------------------------------------------------------------
    def _new_path(self, item: MemoryItem) -> Path:
        folder = self.paths.root / TYPE_FOLDERS[item.type]
        base = slugify(item.title)
        candidate = folder / f"{base}.md"
        n = 2
        while candidate.exists():
            candidate = folder / f"{base}-{n}.md"
            n += 1
        return candidate

    def create(self, item: MemoryItem) -> Path:
        """Write a new item file. The caller has already run the secret guard."""
        if item.type == "event":
            raise ValueError("events go to the journal, not the item store")
        with locked(self.paths.locks_dir, "items-create"):
            path = self._new_path(item)
            write_atomic(path, serialize_item(item).encode("utf-8"))
        return path

    def write_special(self, name: str, item: MemoryItem, *, expected: str | None) -> Path:
        """Write project.md / profile.md, refusing to clobber a file that changed meanwhile."""
        path = self.paths.root / name
        self.replace(path, item, expected)
        return path

    def replace(self, path: Path, item: MemoryItem, expected: str | None) -> None:
        """Rewrite `path` only if its bytes still hash to `expected` (None = must not exist)."""
        with locked(self.paths.locks_dir, f"file-{path.name}"):
            try:
                current = checksum(path.read_bytes())
            except FileNotFoundError:
                current = None
            if current != expected:
                raise ConcurrentEdit(
                    f"{path} changed on disk since it was read (edited by hand or another "
                    "process); nothing was overwritten, re-run the command"
                )
            write_atomic(path, serialize_item(item).encode("utf-8"))

    def update(self, loaded: LoadedItem, item: MemoryItem) -> None:
        item.updated = now_utc()
        self.replace(loaded.path, item, loaded.checksum)

    def archive(self, loaded: LoadedItem, *, reason: str, superseded_by: str | None = None) -> Path:
        """Move an item to archive/<folder>/, status archived, links kept. Never deletes content."""
        item = loaded.item.model_copy(deep=True)
        item.body = loaded.item.body
        item.status = "archived"
        item.updated = now_utc()
        if superseded_by:
            item.superseded_by = superseded_by
        extra = dict(item.model_extra or {})
        extra["archived_reason"] = reason
        item = MemoryItem.model_validate({**item.frontmatter(), **extra})
        item.body = loaded.item.body
        folder = TYPE_FOLDERS.get(item.type, "facts")
        target = self.paths.archive_dir / folder / loaded.path.name
        n = 2
        while target.exists():
            target = target.with_name(f"{loaded.path.stem}-{n}.md")
            n += 1
        with locked(self.paths.locks_dir, f"file-{loaded.path.name}"):
            try:
                current = checksum(loaded.path.read_bytes())
            except FileNotFoundError as exc:
                raise ConcurrentEdit(f"{loaded.path} was removed meanwhile; nothing archived") from exc
            if current != loaded.checksum:
                raise ConcurrentEdit(
                    f"{loaded.path} changed on disk since it was read; nothing archived, re-run")
            # write the archive copy first: a crash in between leaves two copies, never none
            write_atomic(target, serialize_item(item).encode("utf-8"))
            os.unlink(loaded.path)
        return target

    def unarchive(self, loaded: LoadedItem, item: MemoryItem) -> Path:
        """Move an archived item back to its type folder as `item` (the reverse of archive)."""
        folder = self.paths.root / TYPE_FOLDERS.get(item.type, "facts")
        target = folder / loaded.path.name
        n = 2
        while target.exists():
            target = folder / f"{loaded.path.stem}-{n}.md"
            n += 1
        with locked(self.paths.locks_dir, f"file-{loaded.path.name}"):
            try:
                current = checksum(loaded.path.read_bytes())
            except FileNotFoundError as exc:
                raise ConcurrentEdit(f"{loaded.path} was removed meanwhile; nothing restored") from exc
            if current != loaded.checksum:
                raise ConcurrentEdit(
                    f"{loaded.path} changed on disk since it was read; nothing restored, re-run")
            # the live copy first: a crash in between leaves two copies, never none
            write_atomic(target, serialize_item(item).encode("utf-8"))
            os.unlink(loaded.path)
        return target
