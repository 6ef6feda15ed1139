"""Sealed names: what an id, file name or anchor typed by hand around a key becomes outside the
user's own markdown file.

A person may name a file after the token it describes (`facts/zzz-ghp_….md`) or type one into
an id or an anchor. The file stays as they named it (it is theirs; `doctor` asks them to rename
it), but every file lorestack derives from it (the catalog, tantivy, Chroma, usage, the loader's
cache, session files, secrets.json, lock files, hooks.log) and every command's output hold the
sealed form instead: the name redacted as the text is, then `~` and the first hex digits of the
sha256 of the raw name (`[REDACTED:github token]~3f9a0c12de`). Two such names stay two keys,
the same name gives the same seal at every sync, and `show`/`forget`/`done`/`supersede` find the
item or event from it (`Memory.get`, `event_archive.find_event`). A name that holds no secret is
returned unchanged.

A name is sealed at the same detector threshold as the text (`guard.entropy_threshold`): a
name the detector flags is never kept raw. Callers holding settings pass it; the default is the
settings' default. The index records the threshold it was sealed at (`retrieval/sync.py`), so a
change of the setting rewrites it. A seal is resolved by its hash alone (`seals`): one printed
under another threshold (pasted into a note, a script, an issue) still names its item.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import TypeVar

P = TypeVar("P", bound=BaseException)

SEAL_HEX = 10
DEFAULT_THRESHOLD = 4.2  # GuardSettings.entropy_threshold
# Lock files are named by every process that takes the lock, whatever its settings (a hook with
# an environment overlay, the service, a CLI run with another config), so their names cannot
# follow guard.entropy_threshold: two processes would lock two files. They are sealed at the
# lowest threshold instead. The threshold moves one test only (a token's entropy against
# min(threshold, ...) in `secret_guard.looks_random`), so at 0 the detector flags every name
# that any setting would: a key the user's lower threshold catches never names a lock file
# raw (measured: at 3.0, `file-note-kff3….md.lock` before). A harmless name it also seals is
# only a lock file's name, unique by its hash.
LOCK_THRESHOLD = 0.0
_SEALED = re.compile(r"\[REDACTED:[^\]]+\].*~[0-9a-f]{" + str(SEAL_HEX) + "}", re.S)
_TAIL = re.compile(r"~([0-9a-f]{" + str(SEAL_HEX) + r"})\Z")


# names already read, with what the detector found in them: a sync reads each file's name for
# its catalog key and again for its docs (`secret_spots.name_kinds`), and the detector's own
# memo (4096 texts) is flushed by the titles and bodies of a large store in between
_NAMES: dict[tuple[str, float], tuple[str, tuple[str, ...]]] = {}
_NAMES_MAX = 100_000


def redact_name(name: str, threshold: float = DEFAULT_THRESHOLD) -> tuple[str, tuple[str, ...]]:
    """(name redacted, kinds found), the detector run once per name, threshold and process."""
    from lorestack.memory_layers.secret_guard import redact_for_reading

    known = _NAMES.get((name, threshold))
    if known is None:
        if len(_NAMES) >= _NAMES_MAX:
            _NAMES.clear()
        clean, found = redact_for_reading(name, threshold)
        known = _NAMES[(name, threshold)] = (clean, tuple(found))
    return known


def seal(name: str, threshold: float = DEFAULT_THRESHOLD) -> str:
    """`name` (an id, one file or folder name, an anchor) with any secret in it sealed."""
    if not name:
        return name
    clean, kinds = redact_name(name, threshold)
    if not kinds:
        return name
    return f"{clean}~{name_digest(name)}"


def name_digest(name: str) -> str:
    """The hash a seal of `name` ends with (whatever the threshold it was sealed at)."""
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:SEAL_HEX]


def seals(raw: str, sealed: str) -> bool:
    """Whether `sealed` is a seal of the name `raw`, at this threshold or any other: the
    redacted part depends on the threshold, the hash of the raw name does not."""
    if "[REDACTED:" not in sealed:
        return False
    tail = _TAIL.search(sealed)
    return tail is not None and tail.group(1) == name_digest(raw)


def names(text: str, raw: str) -> bool:
    """Whether `text` (an event's text or tags) names `raw`, as it is or sealed."""
    return raw in text or ("[REDACTED:" in text and f"~{name_digest(raw)}" in text)


def seal_path(path: str, threshold: float = DEFAULT_THRESHOLD) -> str:
    """A path with each folder and file name sealed on its own (the folders stay readable)."""
    if not path:
        return path
    parts = path.split(os.sep)
    sealed = [seal(part, threshold) for part in parts]
    return path if sealed == parts else os.sep.join(sealed)


def is_sealed(name: str) -> bool:
    return "[REDACTED:" in name and _SEALED.search(name) is not None


def unseal_path(path: str) -> str:
    """The real file a sealed path stands for (each sealed part found among its folder's
    entries by its hash, whatever threshold sealed it); the path unchanged when it holds no seal
    or no entry matches any more."""
    if not is_sealed(path):
        return path
    parts = path.split(os.sep)
    out: list[str] = []
    for part in parts:
        if out and is_sealed(part):
            folder = os.sep.join(out) or os.sep
            try:
                entries = os.listdir(folder)
            except OSError:
                return path
            match = next((n for n in entries if seals(n, part)), None)
            if match is None:
                return path
            part = match
        out.append(part)
    return os.sep.join(out)


def sealed_line(line: str, path: str | Path, threshold: float = DEFAULT_THRESHOLD) -> str:
    """A problem line naming `path`, with the path sealed and any other key in it redacted (a
    file named after a key that cannot be parsed is told in hooks.log, the loader's cache,
    `list`, the viewer and doctor: never by its raw name)."""
    from lorestack.memory_layers.secret_guard import redact_for_reading

    raw = str(path)
    sealed = seal_path(raw, threshold)
    if sealed == raw:
        return line
    return redact_for_reading(line.replace(raw, "\x00"), threshold)[0].replace("\x00", sealed)


def sealed_problem(problem: P, threshold: float = DEFAULT_THRESHOLD) -> P:
    """An InvalidItem (or another error with a `path`) whose text names its file sealed."""
    path = getattr(problem, "path", None)
    if path is None:
        return problem
    text = str(problem)
    line = sealed_line(text, path, threshold)
    if line != text:
        problem.args = (line,)
    return problem
