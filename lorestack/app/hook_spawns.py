"""Detached processes a hook starts so a later hook is fast: the index synced again after it
was found cold, the loader cache built after a session start missed its deadline."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time

from lorestack.app.hooks import log_failure


def spawn_index_sync(mem) -> None:
    """Bring the index back in a detached process (a BM25 search syncs it), once at a time."""
    marker = mem.primary.index_dir / "syncing"
    try:
        if marker.exists() and time.time() - marker.stat().st_mtime < 300:
            return
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        # opened leniently, as the hook was: a broken config.toml must not keep it cold
        command = [sys.executable, "-m", "lorestack.app.hook_jobs", "warm", str(mem.primary.root)]
        kwargs: dict = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL,
                        "stderr": subprocess.DEVNULL, "close_fds": True}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        subprocess.Popen(command, **kwargs)
        log_failure("index is cold: rebuilding it in the background", mem=mem)
    except Exception as exc:  # noqa: BLE001
        log_failure(f"background index sync not started: {exc!r}", mem=mem)


def spawn_warmup(mem) -> None:
    """Build the loader cache in a detached process, so the next session start is fast.

    A first session start on a big store (parsing thousands of files) can outlast the hook's
    deadline; the hook then answers empty and leaves this to finish in the background.
    """
    marker = mem.primary.index_dir / "loader" / "warming"
    try:
        if marker.exists() and time.time() - marker.stat().st_mtime < 120:
            return  # one is already running
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
        command = [sys.executable, "-m", "lorestack.cli", "--root", str(mem.primary.root),
                   "context", "--mode", "none", "--no-recent"]
        kwargs: dict = {"stdin": subprocess.DEVNULL, "stdout": subprocess.DEVNULL,
                        "stderr": subprocess.DEVNULL, "close_fds": True}
        if os.name == "posix":
            kwargs["start_new_session"] = True
        subprocess.Popen(command, **kwargs)
    except Exception as exc:  # noqa: BLE001
        log_failure(f"cache warm-up not started: {exc!r}", mem=mem)


def transcript_problem(path: str) -> str | None:
    """Why `path` (a payload's transcript_path) can name no file, or None: one that holds a
    NUL byte or is longer than the system allows started an extraction that could only fail
    (and the pointer event recorded instead was refused, with a traceback in hooks.log)."""
    try:
        os.stat(path)
    except ValueError:
        return "holds a NUL byte"
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return f"is longer than a file name can be ({len(path)} characters)"
    return None
