"""Where a tool call's paths are in the project (proposals.py): a tool's absolute path made
relative to the project, a relative one read from the hook's cwd, a command's absolute
paths inside the project named as the project names them, and which files are there already.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lorestack.guardrail.globs import normalise_path


def relative_path(path: str, bases: list[Path], here: str = "") -> str:
    """`path` relative to the project; a relative one is read from the hook's cwd `here`."""
    p = Path(path)
    if p.is_absolute():
        for base in bases:
            try:
                return normalise_path(p.resolve().relative_to(base.resolve()).as_posix())
            except (ValueError, OSError):
                continue
    return normalise_path(f"{here}/{path}" if here and path else path)


def cwd_below_root(cwd: Any, bases: list[Path]) -> str:
    """The hook's cwd relative to the project root when it is a folder below it, else ''
    (a relative path in the call is read from there, not from the root)."""
    if not cwd or not bases:
        return ""
    try:
        rel = Path(str(cwd)).resolve().relative_to(bases[0].resolve()).as_posix()
    except (ValueError, OSError):
        return ""
    return "" if rel == "." else rel


# an absolute path in a command: `cat /home/me/app/lib/x.py`, `#!/bin/sh`, `> /tmp/out.txt`
ABSOLUTE = re.compile(r"(?<![\w@:/.~$-])/(?:[\w.+-]+/)*[\w.+-]*")


def in_project(word: str, bases: list[Path]) -> str:
    """`word` relative to the project when it lies inside it ('.' for the root itself), else
    unchanged: a command touches the paths its words govern (a redirect, `mv`'s target), read
    by shell_writes.py, never one it merely names, and `/bin/sh` is no file of the project's
    bin/ (it was read as one, and made every command holding it a change of bin/)."""
    if not bases:
        return word
    try:
        rel = Path(word).resolve().relative_to(bases[0].resolve()).as_posix()
    except (ValueError, OSError):
        return word
    rel = "" if rel == "." else rel
    return (rel or ".") + ("/" if word.endswith("/") and rel else "")


def on_disk(path: str, bases: list[Path]) -> bool:
    """A file of the project the tool call would write that is there already (a Write over
    it edits it); a path outside the project (`#!/bin/sh` in a command) is none."""
    if path.startswith("/"):
        return False
    try:
        return any((base / path).is_file() for base in bases[:2])
    except OSError:
        return False
