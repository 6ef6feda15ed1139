"""An index written before names were sealed: what still holds a raw name, and the clean-up a
rebuild does.

Since documents version 7 every derived file keeps an id or file name holding a key (typed by
hand) sealed (memory_layers/sealed_names.py), and a journal event's id since version 8. An
index written earlier held them raw; the first sync after the upgrade re-reads every file and
writes the catalog sealed, but a deleted sqlite row or tantivy document can stay readable in the
file until it is compacted. So `doctor` looks for the raw keys in the index folder's bytes and
asks for one `lorestack reindex`, which rebuilds everything and seals what a rebuild keeps
(usage, session files, hooks.log, locks).
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from lorestack.memory_layers.sealed_names import seal, seal_path

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory

_READ_LIMIT = 256 * 1024 * 1024  # a file larger than this is not searched (not an index's)


def name_keys(mem: Memory, holders: set[str] | None = None) -> set[str]:
    """The raw keys (the secret spans) in the memory files' names, and in the ids of the files
    in `holders` (the files a secret was found in, a day file's event ids included; None:
    every item's id)."""
    from lorestack.memory_layers.models import GENERATED_ID
    from lorestack.memory_layers.secret_guard import find_secrets
    from lorestack.retrieval.documents import list_sources

    keys: set[str] = set()
    threshold = mem.settings.guard.entropy_threshold
    days = set()
    for source in list_sources(mem):
        keys.update(f.value for f in find_secrets(os.path.basename(source.path), threshold)
                    if f.value)
        if source.kind == "journal":
            days.add(str(source.path))
    ids = []
    if holders is None:
        ids = [li.item.id for li in mem.load_items(include_archived=True).items]
    else:
        project = mem.project.root if mem.project is not None else None
        for path in sorted(holders):
            scope = "project" if project is not None and project in Path(path).parents else "global"
            if str(path) in days:  # a day file: the ids of its events (typed by hand)
                ids.extend(_event_ids(Path(path)))
                continue
            try:
                ids.append(mem.store_for(scope).load_file(Path(path)).item.id)
            except Exception:  # noqa: BLE001 - unreadable: its name was looked at above
                continue
    for item_id in ids:
        if not GENERATED_ID.fullmatch(item_id):
            keys.update(f.value for f in find_secrets(item_id, threshold) if f.value)
    return {k for k in keys if len(k) >= 8}


def _event_ids(path: Path) -> list[str]:
    from lorestack.memory_layers.journal import parse_bytes

    try:
        return [event.id for event in parse_bytes(path.read_bytes(), path).events]
    except (OSError, ValueError):  # unreadable: its name was looked at above
        return []


def raw_name_files(index_dir: Path, keys: set[str], threshold: float = 4.2) -> list[str]:
    """The files under the index folder (relative) whose bytes or name hold one of `keys`."""
    if not keys or not index_dir.is_dir():
        return []
    needles = [k.encode("utf-8") for k in keys]
    found = []
    for folder, _dirs, names in os.walk(index_dir):
        for name in names:
            path = Path(folder) / name
            rel = seal_path(str(path.relative_to(index_dir)), threshold)  # named sealed, by doctor
            if any(k in name for k in keys):
                found.append(rel)
                continue
            try:
                if path.is_symlink() or path.stat().st_size > _READ_LIMIT:
                    continue
                data = path.read_bytes()
            except OSError:
                continue
            if any(n in data for n in needles):
                found.append(rel)
    return sorted(found)


def seal_after_rebuild(index) -> None:
    """`MemoryIndex.rebuild`'s last step, when some name or id is kept sealed."""
    holders = index.catalog.sealed_files()
    if holders:
        if index._usage is not None:  # reopened on next use, after the compaction
            index._usage.close()
            index._usage = None
        seal_leftovers(index.mem, index.dir, holders)


def seal_leftovers(mem: Memory, index_dir: Path, holders: set[str]) -> None:
    """After a rebuild: seal the raw names in what a rebuild keeps, and compact the sqlite
    files so no deleted row keeps one. `holders`: the files whose id or name is sealed."""
    keys = name_keys(mem, holders)
    threshold = mem.settings.guard.entropy_threshold
    for name in ("catalog.sqlite", "usage.sqlite"):
        _seal_sqlite(index_dir / name, name == "usage.sqlite", threshold)
    if not keys:
        return
    _seal_sessions(index_dir / "sessions", threshold)
    _redact_log(index_dir / "hooks.log", keys, threshold)
    for folder in {index_dir / "loader", mem.primary.locks_dir}:
        for path in folder.glob("*") if folder.is_dir() else ():
            if folder.name == "loader" or any(k in path.name for k in keys):
                path.unlink(missing_ok=True)  # the loader's cache is rebuilt on next use


def _seal_sqlite(path: Path, rename_ids: bool, threshold: float) -> None:
    if not path.is_file():
        return
    try:
        db = sqlite3.connect(str(path), timeout=10, isolation_level=None)
    except sqlite3.Error:
        return
    try:
        if rename_ids:
            rows = db.execute("SELECT id, count, last_access FROM usage").fetchall()
            renamed = [(seal(i, threshold), c, a, i) for i, c, a in rows
                       if seal(i, threshold) != i]
            for sealed, count, last, raw in renamed:
                db.execute("DELETE FROM usage WHERE id=?", (raw,))
                db.execute(
                    "INSERT INTO usage (id, count, last_access) VALUES (?, ?, ?) "
                    "ON CONFLICT(id) DO UPDATE SET count = count + excluded.count, "
                    "last_access = max(coalesce(last_access, ''), excluded.last_access)",
                    (sealed, count, last))
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.Error:
        pass  # busy or damaged: doctor still names the file
    finally:
        db.close()


def _seal_sessions(folder: Path, threshold: float) -> None:
    from lorestack.memory_layers.fsutil import write_atomic

    for path in folder.glob("*.json") if folder.is_dir() else ():
        try:
            state = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError):
            path.unlink(missing_ok=True)
            continue
        if not isinstance(state, dict):
            continue
        sealed = {k: [seal(v, threshold) if isinstance(v, str) else v for v in value]
                  if isinstance(value, list) else value for k, value in state.items()}
        if sealed != state:
            write_atomic(path, json.dumps(sealed).encode("utf-8"), durable=False)


def _redact_log(path: Path, keys: set[str], threshold: float) -> None:
    from lorestack.memory_layers.fsutil import write_atomic

    try:
        text = path.read_text("utf-8", errors="replace")
    except OSError:
        return
    clean = text
    for key in sorted(keys, key=len, reverse=True):
        clean = clean.replace(key, seal(key, threshold))
    if clean != text:
        write_atomic(path, clean.encode("utf-8"), durable=False)
