"""Logging: the library logs to `logging.getLogger("lorestack")` and never prints.

This module installs a NullHandler (every lorestack logger comes from here), so a program that embeds lorestack sees nothing unless
it configures logging. Entry points attach where the user looks: the CLI to stderr
(`warning: …` lines), hooks and the guardrail's hook mode to `hooks.log` under the index
folder (a hook's stderr is often invisible, and a client may treat it as an error).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

LOGGER_NAME = "lorestack"
logger = logging.getLogger(LOGGER_NAME)
# a library never configures logging for its host; entry points attach handlers (below)
logger.addHandler(logging.NullHandler())


def get_logger(name: str | None = None) -> logging.Logger:
    """`lorestack` or a child of it (`lorestack.index`, …)."""
    return logger.getChild(name) if name else logger


class _StderrFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        level = record.levelname.lower()
        return f"{level}: {record.getMessage()}"


_attached: dict[str, logging.Handler] = {}  # tag -> the handler we attached under it


def _replace_handler(handler: logging.Handler, tag: str, level: int) -> logging.Handler:
    """One handler per tag: attaching twice (tests, re-entry) never doubles each line."""
    _remove(tag)
    _attached[tag] = handler
    handler.setLevel(level)
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > level:
        logger.setLevel(level)
    return handler


def _remove(tag: str) -> None:
    old = _attached.pop(tag, None)
    if old is not None:
        logger.removeHandler(old)
        old.close()


def attach_stderr(level: int = logging.WARNING) -> logging.Handler:
    """CLI: warnings and errors as one `warning: …` line each on stderr (never stdout)."""

    class _CurrentStderr(logging.StreamHandler):
        # resolve sys.stderr at emit time: click's test runner swaps it per invocation
        @property
        def stream(self):  # type: ignore[override]
            return sys.stderr

        @stream.setter
        def stream(self, _value) -> None:
            pass

    handler = _CurrentStderr()
    handler.setFormatter(_StderrFormatter())
    return _replace_handler(handler, "stderr", level)


class _AppendFileHandler(logging.Handler):
    """Append one line per record; the file and folder are made on first use; never raises."""

    def __init__(self, path: Path):
        super().__init__()
        self.path = path

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(self.format(record).rstrip() + "\n")
        except Exception:  # noqa: BLE001 - a log that cannot be written is skipped
            pass


class _StampFormatter(logging.Formatter):
    """`2026-12-01T16:10:00+00:00 message` — the line format `doctor` reads back."""

    def format(self, record: logging.LogRecord) -> str:
        from datetime import datetime, timezone

        stamp = datetime.fromtimestamp(record.created, timezone.utc).isoformat(timespec="seconds")
        text = record.getMessage().strip()
        if record.levelno < logging.WARNING:
            text = f"info: {text}"
        return f"{stamp} {text}"


def attach_file(path: Path, level: int = logging.INFO) -> logging.Handler:
    """Hooks: timestamped lines appended to `path` (hooks.log)."""
    handler = _AppendFileHandler(path)
    handler.setFormatter(_StampFormatter())
    return _replace_handler(handler, "file", level)


def detach_stderr() -> None:
    """Hooks: nothing on stderr (a client may show or misread it)."""
    _remove("stderr")
