"""Durable file primitives: atomic replace, locked appends, checksums."""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from lorestack.core.errors import LorestackError

LOCK_TIMEOUT_S = 10.0


def checksum(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_checksum(path: Path) -> str | None:
    try:
        return checksum(path.read_bytes())
    except FileNotFoundError:
        return None


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    """The process umask, read without changing it where the OS allows (threads share it)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    current = os.umask(0o022)
    os.umask(current)
    return current


def _mode_for(path: Path) -> int:
    """An existing file keeps its permission bits; a new one gets what `open()` would give it."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return 0o666 & ~_umask()


def write_atomic(path: Path, data: bytes, *, durable: bool = True,
                 before_replace: Callable[[], None] | None = None) -> None:
    """Write to a temp file in the same folder, fsync, then os.replace: old or new, never torn.

    The file keeps its mode (a 644 settings file stays 644, an executable hook stays 755); a new
    file gets the usual umask-based mode rather than mkstemp's private 600. `durable=False`
    skips the fsyncs (still never torn): for bookkeeping that a crash may lose, such as what a
    session was already shown, written on every hook. `before_replace` runs once the new
    bytes are on disk, just before the rename (a check that the file is still the one read:
    done there, a hand edit saved during the write and fsync is seen, not overwritten); if it
    raises, nothing is replaced."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        try:
            os.fchmod(fd, mode)
        except (OSError, AttributeError):  # Windows has no fchmod; modes barely apply there
            pass
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        if before_replace is not None:
            before_replace()
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    if durable:
        _fsync_dir(path.parent)


def append_durable(path: Path, data: bytes, check: Callable[[bytes], None] | None = None) -> None:
    """One write(2) with O_APPEND, then fsync. Call under a lock.

    Only ever into a regular file: a symlink (which could point out of the repository) or a
    FIFO planted under that name is refused, never followed or blocked on. `data` starts on a
    line of its own: a file saved by hand without its final newline gets one first, so the
    last line there (a journal entry's closing marker) is not glued to what follows.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    flags = os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENXIO, errno.EISDIR):
            raise LorestackError(f"{path} is not a regular file (a symlink, FIFO or folder); "
                                 "nothing was written — move it away and retry") from exc
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise LorestackError(f"{path} is not a regular file; nothing was written — move "
                                 "it away and retry")
        os.set_blocking(fd, True)
        size = os.fstat(fd).st_size
        if check is not None and size:  # it sees the file's first bytes; raising writes nothing
            check(os.pread(fd, 64, 0))
        if size and data and os.pread(fd, 1, size - 1) != b"\n":
            data = b"\n" + data
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


def ensure_cache_dir(path: Path) -> Path | None:
    """Make `path` (a derived-state folder such as `.memory/.index`) a real folder.

    If something else sits under that name (a regular file, a FIFO, a dangling link), it is
    renamed aside — never deleted — and the new name is returned so the caller can say so.
    """
    moved = None
    if os.path.lexists(path) and not (path.is_dir() and not path.is_symlink()):
        if path.is_symlink() and path.is_dir():
            return None  # a deliberate link to a cache folder elsewhere: leave it
        import time

        moved = path.with_name(f"{path.name}.moved-aside-{int(time.time())}")
        os.replace(path, moved)
    path.mkdir(parents=True, exist_ok=True)
    return moved


@contextmanager
def locked(lock_dir: Path, name: str, timeout: float = LOCK_TIMEOUT_S):
    """An inter-process lock named `name`, kept outside tracked files. A name holding a key
    (an item's file named after one, by hand) is sealed: the lock file is a derived file too,
    at a threshold every process agrees on (`sealed_names.LOCK_THRESHOLD`)."""
    from lorestack.memory_layers.sealed_names import LOCK_THRESHOLD, seal

    name = seal(name, LOCK_THRESHOLD)
    if not lock_dir.is_dir():
        ensure_cache_dir(lock_dir.parent)
        ensure_cache_dir(lock_dir)
    safe = name.replace(os.sep, "_").replace("/", "_")
    lock = FileLock(str(lock_dir / f"{safe}.lock"))
    try:
        lock.acquire(timeout=timeout)
    except Timeout as exc:
        raise LorestackError(
            f"another lorestack process holds the lock '{name}' for more than {timeout:.0f}s; "
            "try again shortly"
        ) from exc
    try:
        yield
    finally:
        lock.release()
