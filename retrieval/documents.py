"""What gets indexed: one `IndexDoc` per L1/L2 item and per L3 journal event.

Documents are derived from the memory files. `collect_docs` reads only the files whose
(mtime, size) changed since the last sync, so an unchanged 10k-item store costs one stat per
file, not a parse per file.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import JournalEvent, MemoryItem
    from lorestack.retrieval.secret_spots import SecretSpot


# bump when docs gain fields or their derivation changes: every file is parsed again at the
# next sync (3: speaker, session and resolved dates of events; 4: years, "last year";
# 5: tags redacted like the title and text; 6: an id or file name holding a secret is told;
# 7: such an id and name are kept sealed, so an older catalog is rewritten without them;
# 8: a journal event's id typed around a key too; 9: an event's speaker and session too;
# 10: a secret rule changed (an AWS key id with a name glued after it), so what the index
# holds of an older file is redacted again)
DOCS_VERSION = 10


@dataclass
class IndexDoc:
    """The indexed view of one item or event."""

    id: str
    type: str
    layer: str
    scope: str
    status: str
    title: str
    text: str
    path: str
    time: datetime
    confidence: float = 1.0
    importance: float = 0.5
    tags: list[str] = field(default_factory=list)
    human: bool = False  # human-confirmed: criteria set by a person do not fade
    file_rank: int = 0   # 0 = global store, 1 = project store (project wins on conflicts)
    speaker: str = ""    # events: who said it (chat turns, imports)
    session: str = ""    # events: the conversation or working session it belongs to
    dates: list[str] = field(default_factory=list)  # days/months the text names, resolved

    @property
    def said(self) -> tuple[str, str]:
        """(title, text) without a chat turn's leading "Speaker: " (BM25 matches the name
        through the speaker field). The vector sees the turn as written, name included: most
        questions about a conversation name the person, and on locomo-dev MiniLM finds the
        evidence of those questions far more often when the turn names its speaker."""
        return _unprefixed(self.title, self.speaker), _unprefixed(self.text, self.speaker)
    # conversational turns: the adjacent turns of the same session (retrieval/neighbours.py)
    prev_id: str = ""
    next_id: str = ""
    before: str = ""  # the end of the previous turn's text (indexed, never displayed)
    after: str = ""   # the start of the next turn's text

    @property
    def content_hash(self) -> str:
        """What the embedding depends on: re-embed only when this changes."""
        return hashlib.sha256(f"{self.title}\n\x00{self.text}".encode()).hexdigest()[:32]

    @property
    def doc_hash(self) -> str:
        """Everything the indexes store: re-index (or update metadata) when this changes."""
        data = asdict(self)
        data["time"] = self.time.isoformat()
        raw = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(raw.encode("utf-8")).hexdigest()[:32]

    def to_json(self) -> dict:
        data = asdict(self)
        data["time"] = self.time.isoformat()
        return data

    @classmethod
    def from_json(cls, data: dict) -> IndexDoc:
        data = dict(data)
        data["time"] = datetime.fromisoformat(data["time"])
        return cls(**data)


def _unprefixed(text: str, speaker: str) -> str:
    if speaker and text.startswith(speaker) and text[len(speaker):len(speaker) + 1] == ":":
        return text[len(speaker) + 1:].lstrip() or text
    return text


def item_doc(item: MemoryItem, path: Path, rank: int) -> IndexDoc:
    return IndexDoc(  # the index also knows "superseded" (`current_status`)
        id=item.id, type=item.type, layer=item.layer, scope=item.scope, status=item.current_status,
        title=item.title, text=item.text, path=str(path), time=item.updated,
        confidence=item.confidence, importance=item.importance, tags=list(item.tags),
        human=item.human_confirmed, file_rank=rank,
    )


def event_doc(event: JournalEvent, path: Path) -> IndexDoc:
    from lorestack.retrieval.temporal import date_terms

    text = event.text.strip()
    return IndexDoc(
        id=event.id, type="event", layer="L3", scope="project", status="active",
        title=event.title, text=text, path=str(path), time=event.time,
        confidence=event.confidence, importance=0.5,
        tags=list(event.tags), human=event.source == "user", file_rank=1,
        speaker=" ".join((event.speaker or "").split()),
        session=(event.session or "").strip(),
        # "last Saturday" said on 8 May 2023 is indexed as 2023-05-06 (and 2023-05)
        dates=date_terms(text, event.time),
    )


@dataclass(slots=True)
class SourceFile:
    """One memory file and what kind of parser it needs."""

    path: str  # a str: building Path objects dominated the stat sweep at 10k files
    kind: str  # "item-global" | "item-project" | "journal"
    mtime_ns: int
    size: int
    root: str = ""  # the memory root the file must stay inside


_DAY_FILE = re.compile(r"\d{4}-\d{2}-\d{2}\.md")


class SourceList(list):
    """`list_sources`' files; `skipped` holds the unsafe entries it refused (one line each)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.skipped: list[str] = []


def _scan_store(root: Path, kind: str, out: SourceList, threshold: float) -> None:
    from lorestack.memory_layers.sealed_names import sealed_problem
    from lorestack.memory_layers.store import scan_store

    scan = scan_store(root)
    base = str(root)
    out.extend(SourceFile(e.path, kind, e.mtime_ns, e.size, base) for e in scan.entries)
    # a folder or file named after a key is told sealed (doctor, reindex, search warnings)
    out.skipped.extend(str(sealed_problem(e, threshold)) for e in scan.skipped)


def list_sources(mem: Memory) -> SourceList:
    """Every file that contributes documents, with its stat (one syscall per file).

    Listed through the safe scanner: a symlink out of the memory root, a loop, a FIFO or a
    device is never listed (so never read) and is named in `.skipped`.
    """
    from lorestack.memory_layers.safefiles import FolderScan, real_root, scan_folder
    from lorestack.memory_layers.sealed_names import sealed_problem

    out = SourceList()
    threshold = mem.settings.guard.entropy_threshold
    if mem.home.root.is_dir():
        _scan_store(mem.home.root, "item-global", out, threshold)
    if mem.project is not None:
        _scan_store(mem.project.root, "item-project", out, threshold)
    if mem.journal is not None:
        journal = FolderScan()
        root = mem.journal.paths.root
        scan_folder(mem.journal.paths.journal_dir, real_root(root), journal)
        out.extend(SourceFile(e.path, "journal", e.mtime_ns, e.size, str(root))
                   for e in journal.entries if _DAY_FILE.fullmatch(e.name))
        out.skipped.extend(str(sealed_problem(e, threshold)) for e in journal.skipped)
    return out


def read_source(mem: Memory, source: SourceFile, notes: list[str] | None = None) -> bytes:
    """A source's bytes through the safe reader (size-limited; the note names a cut file).

    Raises UnsafeEntry (an InvalidItem) or OSError.
    """
    from lorestack.memory_layers.journal import JOURNAL_LIMIT_NAME
    from lorestack.memory_layers.safefiles import journal_read_limit, read_memory_file

    limit, what = mem.settings.limits.max_file_bytes, "limits.max_file_bytes"
    if source.kind == "journal":
        limit, what = journal_read_limit(limit), JOURNAL_LIMIT_NAME
    result = read_memory_file(source.path, source.root or _root_of(mem, source), limit)
    if result.truncated and notes is not None:
        notes.append(result.note(source.path, limit, what) + " (indexed truncated)")
    return result.data


def _root_of(mem: Memory, source: SourceFile) -> str:
    if source.kind == "item-global":
        return str(mem.home.root)
    return str(mem.project.root) if mem.project else str(mem.home.root)


def parse_source(mem: Memory, source: SourceFile, raw: bytes, notes: list[str] | None = None,
                 spots: list[SecretSpot] | None = None) -> tuple[list[IndexDoc], list[str]]:
    """Docs and problems of one file, parsed from bytes already read (and hashed).

    `notes` collects warnings about docs that were indexed anyway (redacted secrets); `spots`
    where those secrets are in the file (line and kind, never the text).
    """
    from lorestack.core.errors import InvalidItem
    from lorestack.memory_layers.journal import parse_bytes
    from lorestack.memory_layers.markdown import parse_item
    from lorestack.memory_layers.sealed_names import sealed_line

    path = Path(source.path)
    if source.kind == "journal":
        parsed = parse_bytes(raw, path)  # a stray non-UTF-8 byte does not hide the day
        from lorestack.retrieval.neighbours import link_turns

        docs = _redacted([event_doc(e, path) for e in parsed.events], path, raw, mem, notes, spots)
        link_turns(parsed.events, docs, mem.settings.retrieval.neighbour_chars)
        return docs, [str(p) for p in parsed.problems]
    store = mem.global_store if source.kind == "item-global" else mem.require_project().store
    fixed_id, default_type = store._defaults_for(path)
    try:
        item = parse_item(path, raw, default_type=default_type, default_scope=store.scope)
    except InvalidItem as exc:  # a file named after a key: the problem line names it sealed
        return [], [sealed_line(str(exc), source.path)]
    # same normalisation as MemoryStore.load_file
    if fixed_id:
        item.id = fixed_id if item.id == path.stem else item.id
    if store.paths.archive_dir in path.parents and item.status != "archived":
        item.status = "archived"
    item.scope = store.scope
    docs = _redacted([item_doc(item, path, 1 if source.kind == "item-project" else 0)], path, raw,
                     mem, notes, spots)
    if item.conflict_lines:  # indexed without the markers; doctor names the file
        from lorestack.memory_layers.conflicts import conflict_note

        return docs, [sealed_line(f"{path}: {conflict_note(item)}", source.path)]
    return docs, []


def _redacted(docs: list[IndexDoc], path: Path, raw: bytes, mem: Memory,
              notes: list[str] | None, spots: list[SecretSpot] | None) -> list[IndexDoc]:
    """Secrets written into a file by hand never reach an index: the docs carry them redacted.

    The file itself is left alone (it is the user's); the sync report warns about it, naming
    the file and line (retrieval/secret_spots.py keeps them for the hooks and doctor).
    """
    from lorestack.memory_layers.sealed_names import redact_name, seal
    from lorestack.memory_layers.secret_guard import redact_for_reading
    from lorestack.retrieval.secret_spots import event_id_kinds, name_kinds

    threshold = mem.settings.guard.entropy_threshold
    kinds: set[str] = set()
    for doc in docs:
        doc.title, kinds_title = redact_for_reading(doc.title, threshold)
        doc.text, kinds_text = redact_for_reading(doc.text, threshold)
        for n, tag in enumerate(doc.tags):  # tags are indexed and stored as well
            doc.tags[n], kinds_tag = redact_for_reading(tag, threshold)
            kinds.update(kinds_tag)
        kinds.update(kinds_title, kinds_text)
        # who said it and in which session, typed around a key by hand: sealed, so each stays
        # a name of its own (turns are grouped by session; Chroma's metadata holds both)
        for name in ("speaker", "session"):
            value = getattr(doc, name)
            if value and seal(value, threshold) != value:
                setattr(doc, name, seal(value, threshold))
                kinds.update(redact_name(value, threshold)[1])
        # a hand-named file or id: kept (it is the link), but told; the indexes, usage and
        # caches hold the id sealed (the catalog seals the path). An event's id is typed into
        # its day file, whose name is lorestack's own.
        named = name_kinds(doc.id, path, threshold) if doc.type != "event" else event_id_kinds(
            doc.id, threshold)
        if named:
            doc.id = seal(doc.id, threshold)
        kinds.update(named)
    if kinds and (notes is not None or spots is not None):
        from lorestack.retrieval.secret_spots import locate

        found = locate(str(path), raw, kinds, threshold)
        if notes is not None:
            notes.extend(spot.describe(threshold=threshold) for spot in found)
        if spots is not None:
            spots.extend(found)
    return docs


class _Mergeable(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def file_rank(self) -> int: ...
    @property
    def path(self) -> str: ...
    @property
    def status(self) -> str: ...


D = TypeVar("D", bound=_Mergeable)


def merge_docs(per_file: dict[str, list[D]]) -> tuple[dict[str, D], list[str]]:
    """Apply Memory.load_items' rules: project overrides global; of two files with one id,
    the one `dup_ids.rank` puts first.

    Works on `IndexDoc`s or on the catalog's `DocKey`s (the same fields, without the text)."""
    from lorestack.memory_layers import dup_ids
    from lorestack.memory_layers.scopes import ProjectShadow

    problems: list[str] = []
    by_id: dict[str, D] = {}
    all_docs = [d for docs in per_file.values() for d in docs]
    shadow = ProjectShadow(
        (d.id, d.type, d.title) for d in all_docs if d.file_rank == 1 and d.type != "event")
    for doc in sorted(all_docs, key=lambda d: (d.file_rank, dup_ids.rank(d.path, d.type,
                                                                         d.status))):
        if doc.file_rank == 0 and shadow.hides(doc.id, doc.type, doc.title):
            continue
        other = by_id.get(doc.id)
        if other is not None and other.file_rank == doc.file_rank:
            problems.append(f"{doc.path}: {dup_ids.note(other.path, doc.id)}")
            continue
        by_id[doc.id] = doc
    return by_id, problems


def now_utc() -> datetime:
    return datetime.now(timezone.utc)
