"""Which file a client's tool call adds a line to (Proposal.written, file_written.py): a
one-file edit or write whose new text holds a line its old text (the edit's old_string, or
the file as it is on disk for a write) did not. A command, or a patch of several files whose
lines are not told apart by file here, writes none."""

from __future__ import annotations

from pathlib import Path


def on_disk_text(paths: list[str], bases: list[Path]) -> str:
    """What a one-file write replaces: the file as it is (its first 1 MB), '' when new."""
    if len(paths) != 1 or paths[0].startswith("/") or not bases:
        return ""
    try:
        with open(bases[0] / paths[0], "rb") as f:
            return f.read(1 << 20).decode("utf-8", errors="replace")
    except OSError:
        return ""


def written(paths: list[str], deleted: list[str], text: str, replaced: str) -> list[str]:
    """The file a one-file edit or write adds a line to (a line of its new text that its old
    text lacks); none for a command or a patch of several files (whose lines are not told
    apart by file here)."""
    old = {line.strip() for line in replaced.splitlines()}
    if len(paths) != 1 or deleted or not any(
            line.strip() and line.strip() not in old for line in text.splitlines()):
        return []
    return list(paths)
