"""An export as `lorestack export` wrote it before it redacted (or as a person writes one): each
file's text as it is, secrets and names holding a key included. `import-memory` must still
read such a file safely."""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath

from lorestack.core.paths import MemoryPaths
from lorestack.memory_layers.portable import _kind, memory_files


def unredacted_export(memory_root: Path) -> str:
    paths = MemoryPaths(memory_root)
    lines = [{"format": "lorestack-export", "version": 1}]
    for path in memory_files(paths):
        rel = PurePosixPath(path.relative_to(memory_root).as_posix())
        lines.append({"kind": _kind(rel), "path": str(rel), "text": path.read_text("utf-8")})
    return "".join(json.dumps(line) + "\n" for line in lines)
