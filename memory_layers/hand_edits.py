"""Files whose folder and frontmatter disagree after a hand edit, named rather than acted on
in silence.

- an archived file moved back by hand into a live folder (facts/, decisions/ ...) keeps
  `status: archived`: every reader of live items leaves it out, so `list` would hide it;
- a `type:` typed into the frontmatter that is not its folder's: the item is read as the
  frontmatter says, and `forget`/`restore` file it under that type's folder, away from where
  the user put it.

`doctor` names each (one line: the file and both values); `list` says when it leaves one out.
"""

from __future__ import annotations

from pathlib import Path

from lorestack.memory_layers.models import FOLDER_TYPES, TYPE_FOLDERS, MemoryItem


def _place(mem, path: Path) -> tuple[bool, str] | None:
    """(in the archive, its type folder's name) for an item file of `mem`; None for a file
    of no type folder (project.md, profile.md)."""
    for paths in (mem.project, mem.home):
        if paths is None or paths.root not in path.parents:
            continue
        if paths.archive_dir in path.parents:
            return True, path.relative_to(paths.archive_dir).parts[0]
        if path.parent == paths.root:
            return None
        return False, path.parent.name
    return None


def archived_in_live_folder(mem, path: Path, item: MemoryItem) -> bool:
    place = _place(mem, path)
    return item.status == "archived" and place is not None and not place[0]


def hidden_note(item_id: str, folder: str) -> str:
    return (f"status: archived in a live folder ({folder}/), so not listed as active; "
            f"`lorestack restore {item_id}` makes it live where it is (or move it to "
            f"archive/{folder}/)")


def disagreements(mem, threshold: float) -> list[str]:
    """One line per item file whose folder and frontmatter disagree (names sealed)."""
    from lorestack.memory_layers.sealed_names import seal, seal_path

    out = []
    for loaded in mem.load_items(include_archived=True).items:
        place = _place(mem, loaded.path)
        if place is None:
            continue
        archived, folder = place
        item, shown = loaded.item, seal_path(str(loaded.path), threshold)
        folder_type = FOLDER_TYPES.get(folder)
        if folder_type and item.type != folder_type:
            out.append(f"{shown}: type: {item.type} in its frontmatter, but it is in "
                       f"{folder}/ (type {folder_type}); read as a {item.type}, and `forget`/"
                       f"`restore` would move it to {TYPE_FOLDERS.get(item.type, 'facts')}/: "
                       "make them agree")
        if not archived and item.status == "archived":
            out.append(f"{shown}: {hidden_note(seal(item.id, threshold), folder)}")
    return out
