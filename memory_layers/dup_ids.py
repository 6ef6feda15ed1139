"""Two files of one memory with the same id: which one is the item, decided here only.

Every reader (the store's `load_all` and `find`, the index's `merge_docs`, the context cache)
keeps the file with the lowest `rank`, so `list`, `show`, `forget`, `search`, `context`, the
hooks, `anchors`, `review`, the guardrail and `remember`'s duplicate check all name and change
the same file; the other one is reported with `note`. A reader of the live items only (the
store's `load_all(include_archived=False)`) still leaves out a live file whose id an archived
copy holds (`live_only`): it read that leftover as the item. In order:
an archived copy (an archive interrupted between writing it and removing the live file); then
the file sitting in its type's folder (a caveat in caveats/ over a copy of it pasted into
facts/: the copy is the newcomer); then the path, so the choice never turns on scan order.
"""

from __future__ import annotations

import os
import re
from pathlib import Path, PurePath

from lorestack.core.errors import InvalidItem
from lorestack.memory_layers.models import FOLDER_TYPES, TYPE_FOLDERS

_ARCHIVE_DEPTH = 3  # as store.ARCHIVE_DEPTH: folders read under archive/<type>/
_SPECIAL_TYPES = {"project.md": "fact", "profile.md": "preference"}  # store.SPECIAL_FILES'


def placed_type(path: str) -> str | None:
    """The type a file's place in the memory gives it (facts/x.md, archive/facts/2025/x.md,
    project.md): read from the path's tail, so a relative or an absolute path will do."""
    parts = PurePath(path).parts
    for depth in range(_ARCHIVE_DEPTH + 1, 0, -1):  # archive/<type>/ sorted into folders
        if len(parts) > depth + 1 and parts[-2 - depth] == "archive" \
                and parts[-1 - depth] in FOLDER_TYPES:
            return FOLDER_TYPES[parts[-1 - depth]]
    if len(parts) > 1 and parts[-2] in FOLDER_TYPES:
        return FOLDER_TYPES[parts[-2]]
    return _SPECIAL_TYPES.get(parts[-1]) if parts else None


def rank(path: str, type_: str, status: str) -> tuple:
    """Sort key of a file holding an id: the lowest is the one read."""
    return (status != "archived", placed_type(path) != type_, str(path))


def loaded_rank(loaded) -> tuple:
    """`rank` of a store's LoadedItem."""
    return rank(str(loaded.path), loaded.item.type, loaded.item.status)


def note(kept, item_id: str) -> str:
    """What is said of the file left out (after its path)."""
    if "archive" in PurePath(str(kept)).parts:  # an archive cut short, most likely
        return (f"duplicate id '{item_id}' (an archived copy holds it: {kept}, the file every "
                "command reads and changes, as a `forget` cut short leaves it); delete this "
                "file, or give it a new id to keep it as an item")
    return (f"duplicate id '{item_id}' (also in {kept}, the file every command reads and "
            "changes); rename the id in one of them")


def line(root, dropped: str, kept: str, item_id: str, threshold: float) -> str:
    """`note` after the dropped file's path (both given under `root`), names sealed."""
    from lorestack.memory_layers.sealed_names import seal_path, sealed_line

    kept_path = seal_path(str(Path(root, kept)), threshold)
    return sealed_line(f"{Path(root, dropped)}: {note(kept_path, item_id)}",
                       Path(root, dropped), threshold)


def kept_over(items: list, seen: dict[str, int], loaded, problems: list) -> bool:
    """Whether `loaded` (a store's LoadedItem) holds an id one of `items` holds already (`seen`
    gives its place): then the one `rank` puts first stays in `items`, the other is noted."""
    previous = seen.get(loaded.item.id)
    if previous is None:
        seen[loaded.item.id] = len(items)
        return False
    kept, dropped = sorted((items[previous], loaded), key=loaded_rank)
    items[previous] = kept
    problems.append(InvalidItem(dropped.path, note(kept.path, kept.item.id)))
    return True


# an `id:` line, as a person may type it (any case, quoted, a comment after it)
_ID_LINE = re.compile(rb"(?mi)^[ \t]*id[ \t]*:[ \t]*[\"']?(.*?)[\"']?(?:[ \t]+#.*)?[ \t]*\r?$")


def _archived_files(store, types) -> list[str]:
    from lorestack.memory_layers.safefiles import FolderScan, real_root, scan_folder

    out = FolderScan()
    archive, root_real = store.paths.archive_dir, real_root(store.paths.root)
    folders = TYPE_FOLDERS.values() if types is None else [TYPE_FOLDERS[t] for t in types
                                                          if t in TYPE_FOLDERS]
    for folder in sorted(folders):
        scan_folder(os.path.join(archive, folder), root_real, out, descend=_ARCHIVE_DEPTH)
    return [e.path for e in out.entries]


_HEAD = 65536  # the part of an archived file looked at for its `id:` line
_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _head(path: str) -> bytes:
    """The start of a file the scan listed as a regular file in the memory. A link (the scan
    let it through: it stays inside the memory) fails to open here and is read in full
    through the store's safe reader instead, as is any file this finds an id in."""
    fd = os.open(path, _FLAGS)
    try:
        return os.read(fd, _HEAD)
    finally:
        os.close(fd)


def archived_holders(store, ids: set[str], types=None) -> dict[str, Path]:
    """Of `ids`, those an archived copy in `store` holds (under the archive folders of `types`
    when given), with that copy's path. Only an archived file whose `id:` line or name is one
    of them is parsed: 2,000 archived files take ~0.1 s (parsing them all, as the resident
    service's parse cache would, took 1.4 s the first time)."""
    found: dict[str, Path] = {}
    if not ids:
        return found
    for name in _archived_files(store, types):
        try:
            try:
                head = _head(name)
            except OSError:
                head = store.read_file(Path(name))[0]
            named = {m.strip().decode("utf-8", "replace") for m in _ID_LINE.findall(head)}
            if os.path.basename(name)[:-3] not in ids and not named & ids:
                continue
            path = Path(name)
            loaded = store.load_file(path)
        except (InvalidItem, OSError):
            continue  # `doctor` and `list` name it
        item_id = loaded.item.id
        if item_id in ids and (item_id not in found or name < str(found[item_id])):
            found[item_id] = path
    return found


def live_only(store, items: list, problems: list, types=None) -> list:
    """`items` (live LoadedItems of `store`) without those whose id an archived copy holds (an
    archive interrupted between writing the copy and removing the live file): `show`,
    `forget` and `restore` read the copy, so the live file is not the item; it is noted."""
    holders = archived_holders(store, {li.item.id for li in items}, types)
    for li in items:
        if li.item.id in holders:
            problems.append(InvalidItem(li.path, note(holders[li.item.id], li.item.id)))
    return [li for li in items if li.item.id not in holders]
