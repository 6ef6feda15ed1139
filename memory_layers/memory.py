"""The public facade: one object that knows the project memory, the global memory and settings.

Every CLI command, hook and MCP tool calls one method here (or in the subpackages) and
renders what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorestack.core.errors import ItemNotFound, LorestackError, MemoryRootNotFound
from lorestack.core.paths import MemoryPaths, find_project_root, global_home
from lorestack.core.settings import Settings, load_settings

if TYPE_CHECKING:
    from lorestack.memory_layers.journal import Journal
    from lorestack.memory_layers.store import MemoryStore


@dataclass(frozen=True)
class ProjectMemory:
    """A project memory that is known to exist: what `Memory.require_project` returns."""

    paths: MemoryPaths
    store: MemoryStore
    journal: Journal


@dataclass
class InitResult:
    root: Path
    created: list[Path] = field(default_factory=list)
    card_written: bool = False
    card_kept: bool = False
    above: Path | None = None  # a memory in a parent folder, which this one hides below it


class Memory:
    """Project memory (may be absent) + global memory + settings."""

    def __init__(self, project: MemoryPaths | None, home: MemoryPaths, settings: Settings,
                 project_name: str | None = None):
        from lorestack.memory_layers.journal import Journal
        from lorestack.memory_layers.store import MemoryStore

        self.project = project
        self.home = home
        self.settings = settings
        self.config_problems: list[str] = []  # what a lenient opening left out of config files
        self.project_name = project_name or (project.repo_dir.name if project else "global")
        limit = settings.limits.max_file_bytes
        self.project_store: MemoryStore | None = (
            MemoryStore(project, "project", limit) if project else None)
        self.global_store = MemoryStore(home, "global", limit)
        self.journal: Journal | None = Journal(project, limit) if project else None
        for store in filter(None, (self.project_store, self.global_store)):
            store.name_threshold = settings.guard.entropy_threshold

    # ---- opening ------------------------------------------------------------------------
    @classmethod
    def open(cls, root: str | Path | None = None, *, cwd: Path | None = None,
             home: str | Path | None = None, require_project: bool = True,
             lenient_config: bool = False, **overrides: Any) -> Memory:
        """Find `.memory/` (walk up, `--root`, `LORESTACK_ROOT`) and read settings once.
        `lenient_config` (hooks): a broken config file does not stop the opening; what was left
        out of it is in `config_problems`."""
        home_paths = MemoryPaths(Path(home).expanduser() if home else global_home())
        project_root: Path | None
        try:
            project_root = find_project_root(cwd, root)
            if not project_root.is_dir():
                raise MemoryRootNotFound(
                    f"{project_root} does not exist; run `lorestack init` there first")
        except MemoryRootNotFound:
            if require_project:
                raise
            project_root = None
        problems: list[str] = []
        if lenient_config:
            from lorestack.core.settings_lenient import load_settings_lenient

            settings, problems = load_settings_lenient(project_root, home_paths.root, **overrides)
        else:
            settings = load_settings(project_root, home_paths.root, **overrides)
        project = MemoryPaths(project_root) if project_root else None
        mem = cls(project, home_paths, settings)
        mem.config_problems = problems
        return mem

    @property
    def primary(self) -> MemoryPaths:
        """Where derived state (index, logs) lives: the project, else the global home."""
        return self.project or self.home

    def require_project(self) -> ProjectMemory:
        """The project's paths, store and journal, none of them optional; or a clear error."""
        if self.project is None or self.project_store is None or self.journal is None:
            raise MemoryRootNotFound("no project memory here; run `lorestack init` first")
        return ProjectMemory(self.project, self.project_store, self.journal)

    def store_for(self, scope: str):
        if scope == "global":
            return self.global_store
        return self.require_project().store

    # ---- init ---------------------------------------------------------------------------
    @staticmethod
    def init(directory: Path, *, global_: bool = False, home: Path | None = None) -> InitResult:
        """Create the layout and draft `project.md`; never overwrite what the user edited."""
        from lorestack.memory_layers.identity import draft_identity
        from lorestack.memory_layers.models import MemoryItem
        from lorestack.memory_layers.store import MemoryStore

        if global_:
            paths = MemoryPaths(Path(home) if home else global_home())
        else:
            directory = directory.resolve()
            paths = MemoryPaths(directory if directory.name == ".memory" else directory / ".memory")
        store = MemoryStore(paths, "global" if global_ else "project")
        result = InitResult(root=paths.root, above=None if global_ else _memory_above(paths))
        result.created = store.ensure_layout()
        target = paths.profile if global_ else paths.project_card
        if target.exists():
            result.card_kept = True
            return result
        if global_:
            item = MemoryItem(id="profile", type="preference", scope="global",
                              title="Collaboration profile",
                              body="# Collaboration profile\n\n- (how you like to work with an assistant)\n")
        else:
            title, body = draft_identity(paths.repo_dir)
            item = MemoryItem(id="project", type="fact", title=title, body=body,
                              importance=1.0, tags=["identity"])
        try:
            store.write_special(target.name, item, expected=None)
            result.card_written = True
        except LorestackError:
            result.card_kept = True  # someone created it meanwhile: theirs wins
        return result

    # ---- reading ------------------------------------------------------------------------
    def load_items(self, include_archived: bool = True, types=None):
        """(items, problems) across global + project; project items override global ones.

        `types` reads only those types' folders (files lorestack writes live in their type's
        folder), so a check need not parse thousands of facts to find the decisions."""
        from lorestack.memory_layers.scopes import visible_global
        from lorestack.memory_layers.store import LoadResult

        merged = LoadResult()
        global_result = self.global_store.load_all(include_archived, types) if self.home.root.is_dir() else LoadResult()
        project_result = self.project_store.load_all(include_archived, types) if self.project_store else LoadResult()
        merged.items.extend(visible_global(project_result.items, global_result.items,
                                           lambda li: (li.item.id, li.item.type, li.item.title)))
        merged.items.extend(project_result.items)
        merged.problems = global_result.problems + project_result.problems
        return merged

    def get(self, item_id: str):
        """An item by id, or by the short id a session sees (`7k2m9` for `dec-7k2m9q4x`)."""
        if not item_id.strip():  # an unset shell variable, most often
            raise ItemNotFound("an empty id: give an item's or event's id (`lorestack list` "
                               "shows them)")
        from lorestack.memory_layers.models import without_tilde

        item_id = without_tilde(item_id)
        for store in filter(None, (self.project_store, self.global_store)):
            if not store.exists():
                continue
            try:
                return store.find(item_id)
            except ItemNotFound:
                continue
        from lorestack.memory_layers.sealed_names import is_sealed, seal, seals

        loaded = self.load_items(include_archived=True)
        ids = [li.item.id for li in loaded.items]
        threshold = self.settings.guard.entropy_threshold
        if is_sealed(item_id):  # an id holding a key, as every command and derived file shows it
            # by its hash: a seal printed under another guard.entropy_threshold still resolves
            full = next((i for i in ids if seals(i, item_id)), None)
        else:  # a raw name typed, for a file lorestack rewrote with its id sealed; a short id
            full = next((i for i in ids if seals(item_id, i)), None) or self._expand_short_id(
                item_id, ids, threshold)
        if full is not None and full != item_id:
            return self.get(full)
        broken = _unreadable_holding(loaded.problems, item_id,
                                     [m.root for m in (self.project, self.home) if m])
        if broken is not None:  # a hand edit broke the file: say so, not "no such id"
            from lorestack.memory_layers.sealed_names import seal_path

            raise ItemNotFound(f"'{seal(item_id, threshold)}' is in "
                               f"{seal_path(str(broken.path), threshold)}, which cannot be read "
                               f"({broken.problem}); mend the file and try again")
        # the id as typed may be a raw key (an id named after one): told sealed, as `list` shows it
        raise ItemNotFound(f"no memory item or event with id '{seal(item_id, threshold)}'; "
                           "`lorestack list` shows ids")

    def check_input(self, text: str, *, where: str = "input") -> None:
        """Refuse input that would be stored invisible, break a writer, or stall every read."""
        from lorestack.memory_layers.input_check import check_input_text

        check_input_text(text, where=where, max_bytes=self.settings.limits.max_item_bytes)

    @staticmethod
    def _expand_short_id(short: str, ids, threshold: float = 4.2) -> str | None:
        """The one id whose random tail starts with `short` (4+ characters); None if none,
        an error naming the candidates (sealed when one holds a key) if several."""
        from lorestack.memory_layers.sealed_names import seal

        short = short.strip()
        if len(short) < 4 or "-" in short:
            return None
        matches = sorted({i for i in ids if i.partition("-")[2].startswith(short)})
        if len(matches) > 1:
            named = ", ".join(seal(m, threshold) for m in matches[:5])
            raise ItemNotFound(f"short id '{seal(short, threshold)}' matches {len(matches)} "
                               f"items ({named}); give more of the id")
        return matches[0] if matches else None

    def guard(self, text: str, *, redact: bool | None = None, where: str = "input") -> str:
        from lorestack.memory_layers.secret_guard import guard_text

        return guard_text(
            text,
            redact_secrets=self.settings.guard.redact if redact is None else redact,
            where=where,
            entropy_threshold=self.settings.guard.entropy_threshold,
        )


__all__ = ["Memory", "InitResult"]


def _memory_above(paths: MemoryPaths) -> Path | None:
    """The `.memory` of a parent folder, if any: every command run below this folder will use
    the new memory instead of it (as git does with a nested repository)."""
    from lorestack.core.errors import MemoryRootNotFound
    from lorestack.core.paths import find_project_root

    try:
        return find_project_root(start=paths.repo_dir.parent, explicit="")
    except MemoryRootNotFound:
        return None


def _unreadable_holding(problems: list, item_id: str, roots: list):
    """The unreadable item file (InvalidItem) whose `id:` line names `item_id` (or, a short
    id, an id whose tail starts with it), if any. Read
    through safefiles like every other reader: a planted link out or a FIFO is never opened."""
    import re

    from lorestack.memory_layers.safefiles import UnsafeEntry, read_memory_file

    named = re.escape(item_id)
    if re.fullmatch(r"[a-z0-9]{4,8}", item_id.strip()):  # a short id: the start of the tail
        named = rf"[a-z]{{2,8}}-{re.escape(item_id.strip())}[a-z0-9]*"
    line = re.compile(rf"^id:\s*['\"]?{named}['\"]?\s*$", re.M)
    for problem in problems:
        if isinstance(problem, UnsafeEntry):
            continue
        data = None
        for root in roots:  # the memory folder holding it (project or global)
            try:  # the frontmatter is at the top
                data = read_memory_file(problem.path, root, max_bytes=65536).data
                break
            except (OSError, TypeError, AttributeError, UnsafeEntry):
                continue
        if data is not None and line.search(data.decode("utf-8", errors="replace").split("\n---", 1)[0]):
            return problem
    return None
