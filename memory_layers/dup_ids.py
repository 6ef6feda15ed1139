"""Two files of one memory with the same id: which one is the item, decided here only.

Every reader (the store's `load_all` and `find`, the index's `merge_docs`, the context cache)
keeps the file with the lowest `rank`, so `list`, `show`, `forget`, `search`, `context` and the
hooks all name and change the same file; the other one is reported with `note`. In order:
an archived copy (an archive interrupted between writing it and removing the live file); then
the file sitting in its type's folder (a caveat in caveats/ over a copy of it pasted into
facts/: the copy is the newcomer); then the path, so the choice never turns on scan order.
"""

from __future__ import annotations

from pathlib import Path, PurePath

from lorestack.memory_layers.models import FOLDER_TYPES

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
    return (f"duplicate id '{item_id}' (also in {kept}, the file every command reads and "
            "changes); rename the id in one of them")


def line(root, dropped: str, kept: str, item_id: str, threshold: float) -> str:
    """`note` after the dropped file's path (both given under `root`), names sealed."""
    from lorestack.memory_layers.sealed_names import seal_path, sealed_line

    kept_path = seal_path(str(Path(root, kept)), threshold)
    return sealed_line(f"{Path(root, dropped)}: {note(kept_path, item_id)}",
                       Path(root, dropped), threshold)
