"""The one safe way to list and read memory files.

A `.memory/` folder travels through git, so anyone who can push can plant a symlink in it
(`facts/notes.md -> ~/.pgpass`), and a clumsy user can leave a FIFO, a device or a 20 MB
paste there. Every walker of a memory root lists entries through `scan_folder` and reads
them through `read_memory_file`:

- a symlink is followed only when its fully resolved target stays inside the memory root
  (so `..` tricks and links into other folders of the machine are refused); loops and
  dangling links are reported, never followed;
- only regular files are read; they are opened with O_NONBLOCK and checked with fstat, so
  a FIFO or a device never blocks a command or a hook;
- at most `max_bytes` are read; a larger file yields a truncated excerpt and a note.

Refusals raise `UnsafeEntry`, an `InvalidItem`, so every loader that already reports
unparseable files reports these too (naming the file) and carries on with the rest.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field

from lorestack.core.errors import InvalidItem

DEFAULT_MAX_FILE_BYTES = 256 * 1024
# A journal day is written by lorestack one entry at a time: an import or a busy day passes the
# hand-edit limit legitimately, and what lies past a cut is lost to every reader (and imported
# again, as its ids are not seen). Day files are read up to this many times the limit, which
# still bounds a planted or runaway file (16 MiB at the default).
JOURNAL_LIMIT_FACTOR = 64


def journal_read_limit(max_file_bytes: int) -> int:
    return max(1, int(max_file_bytes)) * JOURNAL_LIMIT_FACTOR

_KINDS = {
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a directory",
}


class UnsafeEntry(InvalidItem):
    """An entry skipped for safety: a symlink leaving the root, a loop, not a regular file."""


@dataclass(slots=True)
class Entry:
    """One readable file found by `scan_folder`: its path and its (target's) stat."""

    path: str
    name: str
    mtime_ns: int
    size: int


@dataclass
class FolderScan:
    entries: list[Entry] = field(default_factory=list)
    skipped: list[UnsafeEntry] = field(default_factory=list)


@dataclass
class ReadResult:
    data: bytes
    size: int  # the file's full size
    truncated: bool = False

    def note(self, path: str | os.PathLike, limit: int,
             what: str = "limits.max_file_bytes") -> str:
        return (
            f"{path}: {self.size} bytes is over {what} ({limit}); only "
            "the first part is read — split the file or raise the limit"
        )


def real_root(root: str | os.PathLike) -> str:
    return os.path.realpath(root)


def inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def _kind(mode: int) -> str:
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def resolve_entry(path: str, root_real: str) -> tuple[str, os.stat_result]:
    """(resolved path, its stat) of a readable regular file inside the root, else UnsafeEntry.

    FileNotFoundError propagates (the file vanished: not a safety matter).
    """
    try:
        real = os.path.realpath(path, strict=True)
    except FileNotFoundError:
        if os.path.islink(path):
            raise UnsafeEntry(path, f"dangling symlink (to {os.readlink(path)}); skipped") from None
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafeEntry(path, "symlink loop; skipped") from None
        raise UnsafeEntry(path, f"cannot resolve ({exc.strerror}); skipped") from None
    if not inside(real, root_real):
        raise UnsafeEntry(
            path,
            f"resolves to {real}, outside {root_real}; not read "
            "(memory files must stay inside the memory folder)",
        )
    st = os.stat(real)
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeEntry(path, f"{_kind(st.st_mode)}, not a regular file; skipped")
    return real, st


_MARKDOWN = (".md", ".markdown")
STRAY_NOTE = ("markdown that is never read (items are NAME.md files directly in facts/, "
              "decisions/, caveats/, preferences/ or criteria/); move it there")


_RENAME_NOTE = "markdown that is never read: only "  # then the suffix read, the name to give


def never_read(line: str) -> bool:
    """Whether a skipped entry's line names markdown no scan reads (a note in a sub-folder, a
    file with another suffix): the user's to move or rename, no fault of the memory's."""
    return line.endswith(STRAY_NOTE) or f": {_RENAME_NOTE}" in line


def holds_markdown(folder: str, depth: int = 4) -> bool:
    """Whether a folder (not followed through links) has a markdown file within `depth`."""
    try:
        with os.scandir(folder) as it:
            entries = list(it)
    except OSError:
        return False
    for entry in entries:
        if entry.name.startswith("."):
            continue
        if entry.name.lower().endswith(_MARKDOWN) and entry.is_file(follow_symlinks=False):
            return True
        if depth > 1 and entry.is_dir(follow_symlinks=False) and holds_markdown(entry.path,
                                                                                depth - 1):
            return True
    return False


def _stray(entry: os.DirEntry, suffix: str) -> str | None:
    """What is said of a markdown file the scan would pass over without a word: another
    spelling of the suffix (`.markdown`, `.MD`: renamed, it is read where it is), or a
    sub-folder holding some (None: neither)."""
    name = entry.name
    if name.lower().endswith(_MARKDOWN) and not name.endswith(suffix):
        if not entry.is_file(follow_symlinks=False):
            return None
        stem = name[:name.rfind(".")]
        return f"{_RENAME_NOTE}{suffix} files are items; rename it to {stem}{suffix}"
    return STRAY_NOTE if entry.is_dir(follow_symlinks=False) and holds_markdown(entry.path) \
        else None


def scan_folder(
    folder: str | os.PathLike, root_real: str, out: FolderScan, suffix: str = ".md",
    strays: bool = False, descend: int = 0,
) -> None:
    """Append the folder's readable `*suffix` files (hidden names excluded) to `out`.

    One scandir plus one stat per plain file; a symlink costs a resolve. A folder that is
    itself a link out of the root is refused whole. `strays` also names, in `skipped`, the
    markdown this scan does not read (a sub-folder of notes, `x.markdown`), so a file a
    person put there is not ignored without a word. `descend` reads that many levels of
    sub-folders too (not through links; deeper markdown is named when `strays`).
    """
    folder = os.fspath(folder)
    try:
        folder_real = os.path.realpath(folder, strict=True)
    except OSError:
        return  # missing (or a loop: reported by the caller listing the root, if anywhere)
    if not inside(folder_real, root_real):
        out.skipped.append(
            UnsafeEntry(folder, f"folder links to {folder_real}, outside {root_real}; not read")
        )
        return
    try:
        it = os.scandir(folder)
    except (FileNotFoundError, NotADirectoryError):
        return
    except OSError as exc:
        out.skipped.append(UnsafeEntry(folder, f"cannot list ({exc.strerror})"))
        return
    found: list[Entry] = []
    below: list[str] = []
    with it:
        for entry in it:
            name = entry.name
            if name.startswith("."):
                continue
            if descend > 0 and entry.is_dir(follow_symlinks=False):
                below.append(entry.path)
                continue
            if not name.endswith(suffix):
                if strays and (said := _stray(entry, suffix)):
                    out.skipped.append(UnsafeEntry(entry.path, said))
                continue
            try:
                if entry.is_symlink():
                    _real, st = resolve_entry(entry.path, root_real)
                else:
                    st = entry.stat(follow_symlinks=False)
                    if not stat.S_ISREG(st.st_mode):
                        raise UnsafeEntry(
                            entry.path, f"{_kind(st.st_mode)}, not a regular file; skipped"
                        )
            except UnsafeEntry as exc:
                out.skipped.append(exc)
                continue
            except FileNotFoundError:
                continue
            except OSError as exc:
                out.skipped.append(UnsafeEntry(entry.path, f"cannot stat ({exc.strerror})"))
                continue
            found.append(Entry(entry.path, name, st.st_mtime_ns, st.st_size))
    found.sort(key=lambda e: e.name)
    out.entries.extend(found)
    for sub in sorted(below):
        scan_folder(sub, root_real, out, suffix, strays, descend - 1)


def check_file(path: str | os.PathLike, root_real: str) -> os.stat_result | None:
    """Stat of a single known file (project.md …) if it exists and is safe; None if absent."""
    path = os.fspath(path)
    if not os.path.lexists(path):
        return None
    try:
        return resolve_entry(path, root_real)[1]
    except FileNotFoundError:
        return None


def read_memory_file(
    path: str | os.PathLike, root: str | os.PathLike, max_bytes: int = DEFAULT_MAX_FILE_BYTES
) -> ReadResult:
    """Read a memory file safely (see the module docstring). Raises UnsafeEntry or OSError."""
    path = os.fspath(path)
    root_real = real_root(root)
    real, _st = resolve_entry(path, root_real)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # swapped for a link after we resolved it
            raise UnsafeEntry(path, "became a symlink while being read; skipped") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeEntry(path, f"{_kind(st.st_mode)}, not a regular file; skipped")
        limit = max(1, int(max_bytes))
        chunks = []
        remaining = limit + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) <= limit:
        return ReadResult(data, len(data))
    return ReadResult(_utf8_prefix(data[:limit]), max(st.st_size, len(data)), truncated=True)


def _utf8_prefix(data: bytes) -> bytes:
    """Drop a multi-byte character cut in half at the end (never more than 3 bytes)."""
    for cut in range(4):
        try:
            (data[: len(data) - cut] if cut else data).decode("utf-8")
            return data[: len(data) - cut] if cut else data
        except UnicodeDecodeError as exc:
            if exc.start < len(data) - 4:
                return data  # invalid earlier on: the parser reports it as such
    return data
