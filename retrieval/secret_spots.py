"""Where a secret typed by hand into a memory file sits: the file, the line, the kind.

The sync indexes such a file redacted and warns in its report, but the sync that first reads
the file is often one nobody watches (the resident service's, after its watcher saw the edit).
So each sync keeps the places it found in `.index/secrets.json`: the next hook tells the
session once and `doctor` lists them. Only the file, the line and the kind are kept, never
the secret itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lorestack.memory_layers.models import GENERATED_ID

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory

FILE = "secrets.json"


@dataclass(frozen=True)
class SecretSpot:
    path: str             # the memory file (absolute)
    line: int | None      # 1-based; None when the secret spans lines (a key block)
    kinds: tuple[str, ...]

    def where(self, base: Path | None = None) -> str:
        path = self.path
        if base is not None and path.startswith(f"{base}/"):
            path = path[len(str(base)) + 1:]
        return f"{path} line {self.line}" if self.line else path

    def shown_where(self, base: Path | None = None, threshold: float = 4.2) -> str:
        """`where`, with a file name holding a key sealed (the line number left readable)."""
        path = shown_path(SecretSpot(self.path, None, self.kinds).where(base), threshold)
        return f"{path} line {self.line}" if self.line else path

    def describe(self, base: Path | None = None, threshold: float = 4.2) -> str:
        # a file may be named after the key it holds: the place is shown sealed too
        return (f"{self.shown_where(base, threshold)}: looks like a secret "
                f"({', '.join(self.kinds)}); indexed and shown redacted — remove it from the file "
                "(or rename the file)")


def locate(path: str, raw: bytes, kinds: set[str], threshold: float) -> list[SecretSpot]:
    """The lines of a file holding a secret its docs were redacted for (`kinds`)."""
    from lorestack.memory_layers.secret_guard import redact_for_reading

    text = raw.decode("utf-8", errors="replace")
    spots = []
    for number, line in enumerate(text.splitlines(), start=1):
        found = redact_for_reading(line, threshold)[1]
        if found:
            spots.append(SecretSpot(path, number, tuple(sorted(set(found)))))
    # found only across lines (a private key block): the file, without a line
    return spots or [SecretSpot(path, None, tuple(sorted(kinds)))]


def load(mem: Memory) -> list[SecretSpot]:
    """The places the last syncs found ([] when none, or the file is unreadable)."""
    from lorestack.retrieval.catalog_paths import StoreRoots

    try:
        stored = json.loads((mem.primary.index_dir / FILE).read_text())
    except (OSError, ValueError):
        return []
    if not isinstance(stored, dict):
        return []
    roots = StoreRoots.of(mem)
    spots = []
    for key, rows in sorted(stored.items()):
        for row in rows if isinstance(rows, list) else []:
            # [line, kinds]; a row of another shape (another version's file) is passed over
            if (isinstance(row, list) and len(row) == 2
                    and (row[0] is None or isinstance(row[0], int))
                    and isinstance(row[1], list) and all(isinstance(k, str) for k in row[1])):
                spots.append(SecretSpot(roots.absolute(key), row[0], tuple(row[1])))
    return spots


def save(index_dir: Path, found: dict[str, list[SecretSpot]], present: set[str]) -> None:
    """Update the stored places: `found` holds every file this sync parsed (by catalog key,
    [] when clean), `present` the keys of every file that exists."""
    from lorestack.memory_layers.fsutil import write_atomic

    path = index_dir / FILE
    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError):
        stored = {}
    if not isinstance(stored, dict):
        stored = {}
    updated = {k: v for k, v in stored.items() if k in present and k not in found}
    for key, spots in found.items():
        if spots:
            updated[key] = [[s.line, list(s.kinds)] for s in spots]
    if updated == stored:
        return
    try:
        if updated:
            write_atomic(path, json.dumps(updated, sort_keys=True).encode(), durable=False)
        else:
            path.unlink(missing_ok=True)
    except OSError:  # a read-only store: the report still carries the warnings
        pass


_GENERATED_ID = GENERATED_ID


def name_kinds(item_id: str, path: str | Path, threshold: float = 4.2) -> set[str]:
    """The secret kinds an item's id or file name holds (typed by hand). Such an item stays
    indexed and shown (its id is how it is linked and opened; redacted it would name nothing,
    and refused the memory would be lost): the sync warns and the session is told to rename it,
    as for a secret in its text. Context shows the id and path redacted."""
    from lorestack.memory_layers.sealed_names import redact_name

    kinds = set(redact_name(Path(path).name, threshold)[1])
    if not _GENERATED_ID.fullmatch(item_id):  # lorestack's own ids hold no secret
        kinds.update(redact_name(item_id, threshold)[1])
    return kinds


def event_id_kinds(event_id: str, threshold: float = 4.2) -> set[str]:
    """The secret kinds a journal event's id holds (typed around a key by hand in the day file):
    the index holds such an id sealed, as every answer shows it (`event_archive.find_event`)."""
    from lorestack.memory_layers.sealed_names import redact_name

    if _GENERATED_ID.fullmatch(event_id):  # lorestack's own ids hold no secret
        return set()
    return set(redact_name(event_id, threshold)[1])


def shown_path(path: str, threshold: float = 4.2) -> str:
    """A path as it may leave the process: each folder and the file name sealed on its own
    (memory_layers/sealed_names.py), so a name holding a key (typed by hand) is hidden while
    the folders stay readable. Redacted whole, `memory/facts/deploy-<key>` read as one long
    random token and the notice asking the user to rename the file named no file."""
    from lorestack.memory_layers.sealed_names import seal_path

    return seal_path(str(path), threshold)


def shown_name(item_id: str, path: str, threshold: float = 4.2) -> tuple[str, str]:
    """(id, path) as they may leave the process: sealed, as the derived files hold them, so
    an id printed by `list` is one `show`, `forget`, `done` and `supersede` find again."""
    from lorestack.memory_layers.sealed_names import seal, seal_path

    if not path and not item_id or not name_kinds(item_id, path, threshold):
        return item_id, path
    return seal(item_id, threshold), seal_path(path, threshold)
