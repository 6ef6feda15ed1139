"""Which file a client's tool call adds a line to (Proposal.written, file_written.py): a
one-file edit or write whose new text holds a line its old text (the edit's old_string, or
the file as it is on disk for a write) did not; each file of a Codex apply_patch envelope
whose section adds a line it does not take out (patch_written). A command writes none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lorestack.guardrail.globs import normalise_path


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


_SECTION = ("*** Add File: ", "*** Update File: ", "*** Delete File: ")


def patch_written(value: Any) -> list[str]:
    """The files a Codex apply_patch envelope in a tool input adds a line to, as the envelope
    names them: per `*** Add File:` / `*** Update File:` section (under `*** Move to:`, the new
    name), a non-blank `+` line that is not among that section's `-` lines. A deleted file, a
    section that only takes lines out or moves one, writes none (as diff_headers.written_in_diff
    reads a git diff)."""
    if isinstance(value, dict):
        return list(dict.fromkeys(p for v in value.values() for p in patch_written(v)))
    if isinstance(value, list):
        return list(dict.fromkeys(p for v in value for p in patch_written(v)))
    if not isinstance(value, str) or "*** Begin Patch" not in value:
        return []
    added: dict[str, set[str]] = {}
    removed: dict[str, set[str]] = {}
    current = ""
    for line in value.splitlines():
        marker = next((m for m in _SECTION if line.startswith(m)), "")
        if marker:
            current = "" if marker == _SECTION[2] else normalise_path(line[len(marker):])
        elif line.startswith("*** Move to: ") and current:
            moved = normalise_path(line[len("*** Move to: "):])
            added[moved], removed[moved] = added.pop(current, set()), removed.pop(current, set())
            current = moved
        elif line.startswith("*** "):  # End Patch, End of File
            continue
        elif current and line[:1] in "+-" and line[1:].strip():
            (added if line[0] == "+" else removed).setdefault(current, set()).add(line[1:].strip())
    return [p for p, lines in added.items() if lines - removed.get(p, set())]
