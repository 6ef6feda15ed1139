"""How an operation gets its memory: opened for the caller (folder, environment, flags).

`open_memory` is the one-shot opener a command uses. The resident service hands in its own
opener that keeps each project's `Memory` warm, keyed by the caller's settings overlay, so a
caller with one more `LORESTACK_*` variable gets its own settings instead of a refusal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.app.models import Caller
    from lorestack.memory_layers.memory import Memory

Opener = Callable[["Caller", bool], "Memory"]


def open_memory(caller: Caller, require_project: bool = True, *,
                lenient_config: bool = False) -> Memory:
    """Open the caller's memory, reading every settings layer once (call inside `overlay.caller`).
    `lenient_config`: see `Memory.open` (hooks)."""
    from lorestack.memory_layers.memory import Memory

    cwd = Path(caller.cwd) if caller.cwd and Path(caller.cwd).is_dir() else None
    return Memory.open(caller.root, cwd=cwd, require_project=require_project,
                       lenient_config=lenient_config, **caller.flags)


def given(mem: Memory) -> Opener:
    """The opener for a memory a server already holds open (the MCP server, the viewer)."""

    def opener(_caller: Caller, _require_project: bool = True) -> Memory:
        return mem

    return opener


def jsonable(value: Any) -> Any:
    """Library results (pydantic models, dataclasses, paths, dates) as plain JSON values."""
    if isinstance(value, BaseModel):
        data = value.model_dump(mode="json", by_alias=True, exclude_none=True)
        body = getattr(value, "body", None)
        if "body" not in data and body is not None:
            data["body"] = body  # an item's markdown body is kept outside its frontmatter
        return data
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [jsonable(v) for v in value]
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Exception):
        return str(value)  # a problem a result carries (a file skipped, and why)
    return value


def text_or_none(path: Path | None) -> str | None:
    return None if path is None else str(path)
