"""The one owner of memory locations: project root (walk up for `.memory/`) and global home."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from lorestack.core import overlay
from lorestack.core.errors import MemoryRootNotFound

MEMORY_DIRNAME = ".memory"


def global_home() -> Path:
    """`~/.lorestack`, or `$LORESTACK_HOME`."""
    env = overlay.getenv("LORESTACK_HOME")
    if env:
        return Path(env).expanduser()
    home = overlay.getenv("HOME")
    return (Path(home).expanduser() if home else Path.home()) / ".lorestack"


def find_project_root(start: Path | None = None, explicit: str | os.PathLike | None = None) -> Path:
    """Return the `.memory` directory for the project.

    `explicit` (from `--root`) or `$LORESTACK_ROOT` may name either the `.memory` folder
    itself or the repository that holds it. Otherwise walk up from `start` like git does.
    """
    given = explicit if explicit is not None else overlay.getenv("LORESTACK_ROOT")
    if given:
        path = Path(given).expanduser().resolve()
        if path.name == MEMORY_DIRNAME:
            return path
        return path / MEMORY_DIRNAME
    here = (start or overlay.working_dir()).resolve()
    for candidate in (here, *here.parents):
        mem = candidate / MEMORY_DIRNAME
        if mem.is_dir():
            return mem
    raise MemoryRootNotFound(
        f"no {MEMORY_DIRNAME}/ found in {here} or any parent; run `lorestack init` first "
        "(or pass --root / set LORESTACK_ROOT)"
    )


@dataclass(frozen=True)
class MemoryPaths:
    """Where one memory (project or global) keeps its files."""

    root: Path  # the `.memory` (or `~/.lorestack`) folder

    @property
    def index_dir(self) -> Path:
        return self.root / ".index"

    @property
    def locks_dir(self) -> Path:
        return self.index_dir / "locks"

    @property
    def journal_dir(self) -> Path:
        return self.root / "journal"

    @property
    def archive_dir(self) -> Path:
        return self.root / "archive"

    @property
    def project_card(self) -> Path:
        return self.root / "project.md"

    @property
    def profile(self) -> Path:
        return self.root / "profile.md"

    @property
    def repo_dir(self) -> Path:
        """The folder the memory describes (parent of `.memory`)."""
        return self.root.parent
