"""Files whose folder and frontmatter disagree after a hand edit, named rather than acted on
in silence.

- an archived file moved back by hand into a live folder (facts/, decisions/ ...) keeps
  `status: archived`: every reader of live items leaves it out, so `list` would hide it;
- a `type:` typed into the frontmatter that is not its folder's: the item is read as the
  frontmatter says, and `forget`/`restore` file it under that type's folder, away from where
  the user put it.

- a frontmatter key typed twice: YAML reads the last, and a rewrite keeps only that one.

`doctor` names each (one line: the file and both values); `list` and `show` say when `list`
leaves one out.
"""

from __future__ import annotations

import re
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
    loaded_items = mem.load_items(include_archived=True).items
    for loaded in loaded_items:
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
    for loaded in loaded_items:
        for key, lines in _repeated_keys(loaded.path):
            out.append(f"{seal_path(str(loaded.path), threshold)}: key '{key}' typed "
                       f"{len(lines)} times in the frontmatter (lines {', '.join(map(str, lines))}):"
                       " only the last is read, and a rewrite by lorestack keeps only it")
    return out


_TOP_KEY = re.compile(r"^([^\s#'\"\-][^:#]*?)\s*:(?:\s|$)")


def _repeated_keys(path: Path) -> list[tuple[str, list[int]]]:
    """Top-level frontmatter keys typed more than once (YAML reads the last), with the file's
    line numbers; a file over a megabyte or unreadable is not looked at."""
    try:
        if path.stat().st_size > 1 << 20:
            return []
        return repeated_keys(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError):
        return []


def repeated_keys(text: str) -> list[tuple[str, list[int]]]:
    """As `_repeated_keys`, of a file's text."""
    lines = text.lstrip("\ufeff").splitlines()
    if not lines or lines[0].rstrip() != "---":
        return []
    seen: dict[str, list[int]] = {}
    for number, line in enumerate(lines[1:], 2):
        if line.rstrip() == "---":
            break
        match = _TOP_KEY.match(line)  # indented lines (nested values, block text) are not keys
        if match:
            seen.setdefault(match.group(1), []).append(number)
    return [(key, found) for key, found in seen.items() if len(found) > 1]
