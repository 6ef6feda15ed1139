"""Whether a new item says what an active one already says (`remember` reinforces that one
instead of storing a copy): the same text, or nearly (case, punctuation, small wording
changes), with the same numbers in the same order."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from lorestack.core.errors import LorestackError
from lorestack.memory_layers import dup_ids
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import MemoryItem

NEAR_DUPLICATE = 0.9  # similarity of the normalised texts above which it is the same memory


def _normalised(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def _numbers(text: str) -> list[str]:
    """The numbers in the order they are written: "w1 item 4" and "w4 item 1" hold the same
    digits but are different memories (sorting them once merged such pairs)."""
    return re.findall(r"\d+(?:[.,:]\d+)*", text)


def find_duplicate(mem: Memory, item: MemoryItem, *, skip: set[Path] | None = None,
                   seen: set[Path] | None = None):
    """An active item of the same type and scope saying the same thing (exactly, or near:
    case, punctuation and small wording changes aside), else None. `skip`: files already
    looked at, not read again; `seen` collects the files read."""
    wanted = _normalised(item.text)
    if not wanted:
        return None
    numbers = _numbers(item.text)
    store = mem.store_for(item.scope)
    best, best_ratio = None, 0.0
    for loaded in _live_items(store, skip):
        if seen is not None:
            seen.add(loaded.path)
        other = loaded.item
        if other.type != item.type or other.status != "active" or other.id in ("project", "profile"):
            continue
        text = _normalised(other.text)
        if text == wanted:
            return loaded
        if _numbers(other.text) != numbers:
            continue  # "Python 3.10" and "Python 3.12", "batch 1" and "batch 2" differ
        matcher = difflib.SequenceMatcher(None, wanted, text, autojunk=False)
        if matcher.real_quick_ratio() < NEAR_DUPLICATE or matcher.quick_ratio() < NEAR_DUPLICATE:
            continue
        ratio = matcher.ratio()
        if ratio >= NEAR_DUPLICATE and ratio > best_ratio:
            best, best_ratio = loaded, ratio
    return best


def _live_items(store, skip: set[Path] | None):
    if skip is None:
        yield from store.load_all(include_archived=False).items
        return
    fresh = []
    for path in store.item_files(include_archived=False):
        if path not in skip:
            try:
                fresh.append(store.load_file(path))
            except (OSError, LorestackError):  # gone meanwhile, or not an item: as load_all
                continue
    # as load_all: a live file whose id an archived copy holds is not the item (`dup_ids`)
    yield from dup_ids.live_only(store, fresh, [])


def duplicate_held(mem: Memory, item: MemoryItem, found, seen: set[Path]):
    """Under the create lock: the duplicate the unlocked scan found, read again, or one in a
    file written since that scan (another `remember` of the same thing)."""
    if found is not None:
        try:
            again = mem.store_for(item.scope).load_file(found.path)
        except (OSError, LorestackError):
            again = None
        if again is not None and again.item.status == "active" and again.item.id == found.item.id:
            return again
        return find_duplicate(mem, item)  # changed meanwhile: look again, all of it
    return find_duplicate(mem, item, skip=seen)
