"""File store for L1/L2 items: one markdown file per item, folders per type, archive never deletes."""

from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path

from lorestack.core.errors import ConcurrentEdit, InvalidItem, ItemNotFound
from lorestack.core.paths import MemoryPaths
from lorestack.memory_layers import conflicts, dup_ids
from lorestack.memory_layers.fsutil import checksum, locked, write_atomic
from lorestack.memory_layers.markdown import parse_item, serialize_item
from lorestack.memory_layers.models import FOLDER_TYPES, TYPE_FOLDERS, MemoryItem, now_utc, slugify
from lorestack.memory_layers.safefiles import (
    DEFAULT_MAX_FILE_BYTES,
    STRAY_NOTE,
    Entry,
    FolderScan,
    UnsafeEntry,
    check_file,
    holds_markdown,
    read_memory_file,
    real_root,
    scan_folder,
)

# the identity card and the profile are single files with fixed ids
SPECIAL_FILES = {"project.md": ("project", "fact"), "profile.md": ("profile", "preference")}


@dataclass
class LoadedItem:
    item: MemoryItem
    path: Path
    checksum: str
    note: str | None = None  # set when the file was over the size limit and read truncated


@dataclass
class LoadResult:
    items: list[LoadedItem] = field(default_factory=list)
    problems: list[InvalidItem] = field(default_factory=list)


def scan_store(root: Path | str, include_archived: bool = True,
               folders: tuple[str, ...] | None = None, specials: bool = True) -> FolderScan:
    """Every item file of a memory root (special files, type folders, archive/<type>/), listed
    through the safe scanner: unsafe entries land in `skipped`, never in `entries`.

    The one listing that the store, the index sync, the loader cache and the guardrail share.
    """
    base = os.fspath(root)
    out = FolderScan()
    if not os.path.isdir(base):
        return out
    root_real = real_root(base)
    if specials:
        for name in SPECIAL_FILES:
            path = os.path.join(base, name)
            try:
                st = check_file(path, root_real)
            except UnsafeEntry as exc:
                out.skipped.append(exc)
                continue
            if st is not None:
                out.entries.append(Entry(path, name, st.st_mtime_ns, st.st_size))
    for folder in folders if folders is not None else TYPE_FOLDERS.values():
        scan_folder(os.path.join(base, folder), root_real, out, strays=folders is None)
    if folders is None and specials:
        _root_strays(base, out)
    if include_archived and folders is None:
        archive = os.path.join(base, "archive")
        # a person may sort their archive (archive/facts/2025/x.md): what they archived stays
        # readable, listable and restorable; deeper or misplaced markdown is named, not ignored
        for folder in sorted(TYPE_FOLDERS.values()):
            scan_folder(os.path.join(archive, folder), root_real, out, strays=specials,
                        descend=ARCHIVE_DEPTH)
        if specials:
            _strays_in(archive, _ARCHIVE_FOLDERS, ARCHIVE_STRAY_NOTE, out)
    return out


ARCHIVE_DEPTH = 3  # levels of sub-folders read under archive/<type>/
# archive/ also holds journal days (TTL) and archived events, which the journal reads
_ARCHIVE_FOLDERS = frozenset({*TYPE_FOLDERS.values(), "journal", "events"})
ARCHIVE_STRAY_NOTE = ("markdown that is never read (archived items live in archive/facts/, "
                      "archive/decisions/, archive/caveats/, archive/preferences/ or "
                      "archive/criteria/); move it there")


_ROOT_FOLDERS = frozenset({*TYPE_FOLDERS.values(), "journal", "archive"})


def _root_strays(base: str, out: FolderScan) -> None:
    """Markdown at the root that no scan reads (`notes/`, `ideas.md`): named, not ignored."""
    _strays_in(base, _ROOT_FOLDERS | set(SPECIAL_FILES), STRAY_NOTE, out)


def _strays_in(folder: str, known, note: str, out: FolderScan) -> None:
    """Name each markdown file, and each folder holding some, in `folder` but not in `known`."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:
        return
    for entry in entries:
        name = entry.name
        if name.startswith(".") or name in known:
            continue
        if entry.is_dir(follow_symlinks=False):
            if holds_markdown(entry.path):
                out.skipped.append(UnsafeEntry(entry.path, note))
        elif name.lower().endswith((".md", ".markdown")) and entry.is_file(follow_symlinks=False):
            out.skipped.append(UnsafeEntry(entry.path, note))


class MemoryStore:
    """Items of one memory root (a project's `.memory/` or the global `~/.lorestack/`)."""

    def __init__(self, paths: MemoryPaths, scope: str,
                 max_file_bytes: int = DEFAULT_MAX_FILE_BYTES):
        self.paths = paths
        self.scope = scope
        self.max_file_bytes = max_file_bytes
        self.name_threshold = 4.2  # the guard's threshold: a problem line names a file sealed at it

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
            write_atomic(ignore, b"# derived caches; rebuild with `lorestack reindex`\n"
                                 b".index.moved-aside-*\n.index/\n")
            created.append(ignore)
        attributes = self.paths.root / ".gitattributes"
        if not attributes.exists():
            # two people appending to the same journal day merge by keeping both entries
            write_atomic(attributes, b"# journal days are append-only: a merge keeps both "
                                     b"sides' entries\njournal/*.md merge=union\n")
            created.append(attributes)
        return created

    # ---- reading ------------------------------------------------------------------------
    def scan(self, include_archived: bool = True) -> FolderScan:
        return scan_store(self.paths.root, include_archived)

    def scan_folders(self, folders: tuple[str, ...]) -> FolderScan:
        """Only these type folders (no special files, no archive)."""
        return scan_store(self.paths.root, False, folders=folders, specials=False)

    def item_files(self, include_archived: bool = True) -> list[Path]:
        """Readable item files (unsafe entries are left out; `scan` reports them)."""
        scan = self.scan(include_archived)
        return [Path(e.path) for e in scan.entries]

    def _defaults_for(self, path: Path) -> tuple[str | None, str | None]:
        if path.parent == self.paths.root and path.name in SPECIAL_FILES:
            return SPECIAL_FILES[path.name]
        folder = path.parent.name
        if self.paths.archive_dir in path.parents:  # archive/<type>/ or a folder under it
            folder = path.relative_to(self.paths.archive_dir).parts[0]
        return None, FOLDER_TYPES.get(folder)

    def read_file(self, path: Path) -> tuple[bytes, str | None]:
        """(bytes, truncation note) of one item file, read through the safe reader."""
        result = read_memory_file(path, self.paths.root, self.max_file_bytes)
        note = result.note(path, self.max_file_bytes) if result.truncated else None
        return result.data, note

    def load_file(self, path: Path) -> LoadedItem:
        from lorestack.memory_layers import parse_cache

        if not parse_cache.enabled():
            return self._load_file(path)
        # the resident service keeps parsed items; a file is parsed again when its stat changes
        return parse_cache.cached(path, f"item:{self.scope}", lambda: self._load_file(path),
                                  lambda li: replace(li, item=li.item.model_copy()))

    def _load_file(self, path: Path) -> LoadedItem:
        raw, note = self.read_file(path)
        return self.parse_loaded(path, raw, note)

    def parse_loaded(self, path: Path, raw: bytes, note: str | None = None) -> LoadedItem:
        fixed_id, default_type = self._defaults_for(path)
        item = parse_item(path, raw, default_type=default_type, default_scope=self.scope)
        if fixed_id:
            item.id = fixed_id if item.id == path.stem else item.id
        if self.paths.archive_dir in path.parents and item.status != "archived":
            item.status = "archived"
        item.scope = self.scope
        return LoadedItem(item, path, checksum(raw), note)

    def load_all(self, include_archived: bool = True, types=None) -> LoadResult:
        """Every item that parses; every file that does not (or is unsafe) is reported.

        `types` reads only those types' folders (files lorestack writes live in their type's
        folder; no archive), so a check need not parse thousands of facts for the decisions."""
        result = LoadResult()
        seen: dict[str, int] = {}
        if types is None:
            scan = self.scan(include_archived)
        else:
            scan = scan_store(self.paths.root, False,
                              folders=tuple(TYPE_FOLDERS[t] for t in types if t in TYPE_FOLDERS),
                              specials=any(kind in types for _i, kind in SPECIAL_FILES.values()))
        result.problems.extend(scan.skipped)
        for entry in scan.entries:
            path = Path(entry.path)
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
            if loaded.note:
                result.problems.append(InvalidItem(path, loaded.note.split(": ", 1)[1]
                                                   + " (loaded truncated)"))
            if loaded.item.conflict_lines:
                result.problems.append(InvalidItem(path, str(conflicts.conflict_note(loaded.item))))
            if not dup_ids.kept_over(result.items, seen, loaded, result.problems):
                result.items.append(loaded)  # else dup_ids decided which file holds the id
        if not include_archived:  # an archived copy holds its id, even when it is not read
            result.items = dup_ids.live_only(self, result.items, result.problems, types)
        if result.problems:  # a file named after a key is told sealed (hooks.log, caches)
            from lorestack.memory_layers.sealed_names import sealed_problem

            result.problems = [sealed_problem(p, self.name_threshold) for p in result.problems]
        return result

    def find(self, item_id: str) -> LoadedItem:
        from lorestack.memory_layers import parse_cache

        if parse_cache.enabled():  # the resident service: the file it parsed with this id
            found = self._find_kept(item_id)
            if found is not None:
                return found
        if copies := self.copies(item_id):  # every file with the id: dup_ids picks the one
            return min(copies, key=dup_ids.loaded_rank)
        raise ItemNotFound(f"no memory item with id '{item_id}' in {self.paths.root}")

    def copies(self, item_id: str, include_archived: bool = True) -> list[LoadedItem]:
        """Every readable file holding the id (`find` takes one, `forget` all): a scan, where
        outside the service a file whose bytes never spell the id (nor its stem) is not parsed."""
        from lorestack.memory_layers import parse_cache

        needle = item_id.encode("utf-8") if not parse_cache.enabled() else None
        copies: list[LoadedItem] = []
        for path in self.item_files(include_archived):
            try:
                if needle is None or path.stem == item_id or self._defaults_for(path)[0]:
                    loaded = self.load_file(path)
                else:
                    raw, note = self.read_file(path)
                    if needle not in raw:
                        continue
                    loaded = self.parse_loaded(path, raw, note)
            except (InvalidItem, OSError):
                continue
            if loaded.item.id == item_id:
                copies.append(loaded)
        return copies

    def _find_kept(self, item_id: str) -> LoadedItem | None:
        """The item with this id among the files the service keeps parsed, when exactly one of
        this store's holds it and every file is kept unchanged; else None and `find` scans (a new
        file, a moved or edited one, two files with one id)."""
        from lorestack.memory_layers import parse_cache

        kind = f"item:{self.scope}"
        # only when every file of the store is kept as it is now: a file added since, or one
        # edited to carry this id, may be a second file with it (then `find` scans, in order)
        if not all(parse_cache.fresh(path, kind) for path in self.item_files()):
            return None
        root = str(self.paths.root) + os.sep
        kept = [p for p in parse_cache.matching(kind, lambda li: li.item.id == item_id)
                if p.startswith(root)]
        if len(kept) != 1:  # none, or two files with the id: `find` scans and picks
            return None
        try:
            loaded = self.load_file(Path(kept[0]))
        except (InvalidItem, OSError):
            return None
        return loaded if loaded.item.id == item_id else None

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

    def creating(self):
        """The lock every new item file is written under: held around a check for an existing
        item and the write, the two are one step (N identical `remember`s make one file)."""
        return locked(self.paths.locks_dir, "items-create")

    def create(self, item: MemoryItem, *, held: bool = False) -> Path:
        """Write a new item file (`held`: the caller holds `creating()`). The caller has
        already run the secret guard."""
        if item.type == "event":
            raise ValueError("events go to the journal, not the item store")
        with nullcontext() if held else self.creating():
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
                old: bytes | None = self._current_bytes(path)
            except FileNotFoundError:
                old = None
            def still(current: bytes | None) -> None:
                if (checksum(current) if current is not None else None) != expected:
                    raise ConcurrentEdit(
                        f"{path} changed on disk since it was read (edited by hand or another "
                        "process); nothing was overwritten, re-run the command"
                    )

            still(old)
            conflicts.refuse_rewrite(path, old)
            item = self._named_sealed(path, item)
            # checked again once the new bytes are on disk: an editor's save during the write
            # and fsync (milliseconds) is refused, not overwritten
            write_atomic(path, serialize_item(item, comments_from=old).encode("utf-8"),
                         before_replace=lambda: still(self._bytes_or_none(path)))

    def _named_sealed(self, path: Path, item: MemoryItem) -> MemoryItem:
        """`item` as lorestack writes it from the file at `path`: an id (or a title) that was
        derived from the file's name, which a person typed a key into, goes into the frontmatter
        sealed, as every derived file and answer names it. A file without frontmatter has no
        id of its own; the first one lorestack writes must not be the raw key."""
        from lorestack.memory_layers.sealed_names import seal

        if item.id != path.stem:
            return item
        sealed = seal(item.id, self.name_threshold)
        if sealed == item.id:
            return item
        title = sealed if item.title == path.stem else item.title
        return item.model_copy(update={"id": sealed, "title": title})

    def _bytes_or_none(self, path: Path) -> bytes | None:
        try:
            return self._current_bytes(path)
        except FileNotFoundError:
            return None

    def _current_checksum(self, path: Path) -> str:
        return checksum(self._current_bytes(path))

    def _current_bytes(self, path: Path) -> bytes:
        """The whole file as it is now, read through the safe reader (no FIFO wait, no link
        out of the root); FileNotFoundError when it is gone."""
        try:
            return read_memory_file(path, self.paths.root, max_bytes=1 << 62).data
        except UnsafeEntry as exc:
            raise ConcurrentEdit(f"{exc}; nothing was overwritten") from exc

    @staticmethod
    def _refuse_truncated(loaded: LoadedItem) -> None:
        if loaded.note:
            raise ConcurrentEdit(f"{loaded.path} is over limits.max_file_bytes and was read "
                                 "truncated; lorestack will not rewrite it (edit it by hand)")

    def update(self, loaded: LoadedItem, item: MemoryItem) -> None:
        self._refuse_truncated(loaded)
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
        return self._move(loaded, item, self.paths.archive_dir / TYPE_FOLDERS.get(item.type, "facts"),
                          "archived")

    def unarchive(self, loaded: LoadedItem, item: MemoryItem) -> Path:
        """Move an archived item back to its type folder as `item` (the reverse of archive)."""
        return self._move(loaded, item, self.paths.root / TYPE_FOLDERS.get(item.type, "facts"),
                          "restored")

    def _move(self, loaded: LoadedItem, item: MemoryItem, folder: Path, done: str) -> Path:
        """Write `item` into `folder` under the file's name (numbered when taken) and remove the
        original: under the file's lock, and only if it is unchanged since it was read."""
        self._refuse_truncated(loaded)
        target = folder / loaded.path.name
        n = 2
        while target.exists():
            target = folder / f"{loaded.path.stem}-{n}.md"
            n += 1
        with locked(self.paths.locks_dir, f"file-{loaded.path.name}"):
            try:
                old = self._current_bytes(loaded.path)
            except FileNotFoundError as exc:
                raise ConcurrentEdit(f"{loaded.path} was removed meanwhile; nothing {done}") from exc
            if checksum(old) != loaded.checksum:
                raise ConcurrentEdit(
                    f"{loaded.path} changed on disk since it was read; nothing {done}, re-run")
            conflicts.refuse_rewrite(loaded.path, old)
            # the new copy first: a crash in between leaves two copies, never none
            item = self._named_sealed(loaded.path, item)
            write_atomic(target, serialize_item(item, comments_from=old).encode("utf-8"))
            # and the original checked again just before it goes: an edit saved while the copy
            # was written stays, and the copy is taken back
            if self._bytes_or_none(loaded.path) != old:
                os.unlink(target)
                raise ConcurrentEdit(
                    f"{loaded.path} changed on disk while it was {done}; nothing {done}, re-run")
            os.unlink(loaded.path)
        return target
