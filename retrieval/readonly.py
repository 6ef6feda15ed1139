"""A store that cannot be written (read-only mount, no write permission) is not a corrupt one.

Search keeps its index under `.memory/.index/`: tantivy takes a lock file, Chroma and the
catalog write to sqlite. On a read-only store every one of them fails, and each failure looked
like corruption (doctor said "corrupt", a search tried to rebuild the catalog by deleting the
indexes). These two checks let the callers name the real cause instead.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

_READ_ONLY_ERRNOS = {errno.EROFS, errno.EACCES, errno.EPERM}
# what the native parts say (tantivy's Rust io errors, sqlite inside Chroma and the catalog)
_READ_ONLY_TEXT = ("readonly database", "read-only file system", "readonlyfilesystem",
                   "permission denied", "permissiondenied")


def read_only_reason(folder: Path) -> str | None:
    """Why FOLDER (or its nearest existing parent) cannot be written, or None if it can."""
    probe = Path(folder)
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        if os.statvfs(probe).f_flag & os.ST_RDONLY:
            return "read-only file system"
    except (OSError, AttributeError):  # no statvfs (Windows): the access check still runs
        pass
    if not os.access(probe, os.W_OK):
        return "no write permission"
    return None


def is_read_only_error(exc: BaseException | None) -> bool:
    """Whether EXC (or an exception it was raised from) says a write was refused."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, OSError) and exc.errno in _READ_ONLY_ERRNOS:
            return True
        if any(t in str(exc).lower() for t in _READ_ONLY_TEXT):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def read_only_message(folder: Path, why: str) -> str:
    return (f"the index folder {folder} is read-only: {why}; search needs to write there "
            "(make it writable); `list`, `context` and `export` still work")


def refuse_if_read_only(folder: Path, exc: BaseException | None = None) -> None:
    """Raise IndexReadOnly when FOLDER cannot be written (or EXC says a write was refused)."""
    from lorestack.core.errors import IndexReadOnly

    why = read_only_reason(folder)
    if why is None and exc is not None and is_read_only_error(exc):
        why = f"{type(exc).__name__}: {exc}"
    if why is not None:
        raise IndexReadOnly(read_only_message(folder, why))
