"""`lorestack import`: many events at once, into the journal and the index.

Sources (read in import_sources.py): JSONL events, LoCoMo-shaped chat exports and Claude
Code / Codex / Gemini transcripts (the user's messages only).

The write path is built for volume: the secret guard runs once per text (redacting, with a
count), events are grouped per journal day and each day file gets one lock, one write and
one fsync (`Journal.append_many`), typed entries (fact, decision, …) become L1/L2 items, and
the index is synced once at the end, so the embedder sees every new text in one batched run.
Re-importing is harmless: an event whose id the journal already holds is skipped, and events
without an id get one derived from their time, session and text.
"""

from __future__ import annotations

import resource
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import cast

from lorestack.consolidation.import_sources import (  # noqa: F401 - the import API's names
    FORMATS,
    ImportError_,
    ImportEvent,
    broken_json_line,
    read_source,
    stable_item_id,
)
from lorestack.core.errors import LorestackError
from lorestack.memory_layers.input_check import check_input_text


@dataclass
class ImportResult:
    source: str = ""
    events: int = 0
    items: int = 0
    skipped: int = 0
    redacted: int = 0
    files: int = 0
    write_s: float = 0.0
    index_s: float = 0.0
    peak_rss_mb: float = 0.0
    warnings: list[str] = field(default_factory=list)
    stored_ids: dict[str, str] = field(default_factory=dict)  # stored id -> source id
    texts: dict[str, str] = field(default_factory=dict)  # source id -> stored text
    timeline: list[tuple[datetime, str]] = field(default_factory=list)

    @property
    def events_per_s(self) -> float:
        spent = self.write_s + self.index_s
        return round((self.events + self.items) / spent, 1) if spent else 0.0


def _event_id(event: ImportEvent) -> str:
    if event.id:
        return event.id
    key = f"{event.time.isoformat()}\x1f{event.session or ''}\x1f{event.text}"
    return stable_item_id("event", key)


def peak_rss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(rss / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


# ---- writing --------------------------------------------------------------------------------
def write_events(mem, events: list, *, redact: bool = True, progress=None) -> ImportResult:
    """Write events (anything with ImportEvent's attributes) to the journal and item files.
    `progress(done, total, "writing")` is told every 100 events (the secret guard's work)."""
    from lorestack.memory_layers.models import EVENT_KINDS, EventKind, JournalEvent

    project = mem.require_project()
    store, journal_ = project.store, project.journal
    out = ImportResult()
    started = time.perf_counter()
    known = {e.id for e in journal_.read_all().events}
    known_items = (
        {li.item.id for li in mem.load_items(include_archived=True).items}
        if any(e.type != "event" for e in events)
        else set()
    )
    journal: list[JournalEvent] = []
    for number, event in enumerate(events):
        if progress is not None and number % 100 == 0:
            progress(number, len(events), "writing")
        source_id = _event_id(event)
        if mem.guard(source_id, redact=True, where="id") != source_id:
            source_id = stable_item_id("event", source_id)  # an id holding a key: its hash
        text = mem.guard(event.text, redact=redact, where=f"event {source_id}")
        tags = [mem.guard(t, redact=redact, where="tags") for t in event.tags]
        # every field that is written is guarded, not only the text: the session and speaker
        # land in the journal entry's header and the vector index's metadata
        session = mem.guard(event.session, redact=redact, where="session") if event.session \
            else event.session
        speaker = mem.guard(event.speaker, redact=redact, where="speaker") if event.speaker \
            else event.speaker
        if event.type == "event":
            if source_id in known:
                out.skipped += 1
                continue
            known.add(source_id)
            kind = cast(EventKind, event.kind if event.kind in EVENT_KINDS else "note")
            journal.append(
                JournalEvent(
                    id=source_id,
                    time=event.time,
                    kind=kind,
                    text=text,
                    session=session,
                    speaker=speaker,
                    source="import",
                    tags=tags,
                )
            )
            stored = source_id
            out.timeline.append((event.time, source_id))
        else:
            item_id = _write_item(mem, store, event, text, tags, source_id, redact, known_items,
                                  session)
            if item_id is None:
                out.skipped += 1
                continue
            stored = item_id
            out.items += 1
        # counted once written: a skipped one is not
        out.redacted += (text, tags, session, speaker) != (event.text, list(event.tags),
                                                           event.session, event.speaker)
        out.texts[source_id] = text
        out.stored_ids[stored] = source_id
    out.files = len(journal_.append_many(journal)) if journal else 0
    if progress is not None:
        progress(len(events), len(events), "writing")
    out.events = len(journal)
    out.timeline.sort()
    out.write_s = time.perf_counter() - started
    return out


def _write_item(
    mem,
    store,
    event,
    text: str,
    tags: list[str],
    source_id: str,
    redact: bool,
    known_items: set[str],
    session: str | None = None,
) -> str | None:
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec, Source
    from lorestack.memory_layers.operations import build_item

    item_id = stable_item_id(event.type, source_id)
    criterion = None
    if event.type == "criterion":
        applies = AppliesTo(keywords=list(tags)) if tags else AppliesTo(topics=["general"])
        criterion = CriterionSpec(applies_to=applies, condition=text)
    item = build_item(
        text,
        event.type,
        title=event.title,
        tags=tags,
        source=Source(kind="import", session=session),
        criterion=criterion,
    )
    item.title = mem.guard(item.title, redact=redact, where="title")
    if item_id in known_items:
        return None  # imported before
    known_items.add(item_id)
    item.id = item_id
    item.created = item.updated = event.time
    try:
        store.create(item)
    except LorestackError:
        return None  # already imported (same id) or refused by the store
    return item.id


def import_events(
    mem, events: list, *, index: bool = True, redact: bool = True, memory_index=None,
    progress=None,
) -> ImportResult:
    """Write the events, then sync the index once (one batched embedding run). `progress`
    takes (done, total, phase): writing, then the index's phases as "index <phase>"."""
    out = write_events(mem, events, redact=redact, progress=progress)
    if index:
        from lorestack.retrieval.index import MemoryIndex

        idx = memory_index or MemoryIndex(mem, warn=out.warnings.append)
        started = time.perf_counter()
        try:
            report = idx.sync(None if progress is None else
                              lambda done, total, phase: progress(done, total, f"index {phase}"))
            out.warnings.extend(report.warnings)
        finally:
            if memory_index is None:
                idx.close()
        out.index_s = time.perf_counter() - started
    out.peak_rss_mb = peak_rss_mb()
    return out


def import_files(
    mem, paths: list[str | Path], fmt: str = "auto", *, index: bool = True, redact: bool = True,
    progress=None,
) -> ImportResult:
    """Read every source (each once), then write and index them in one pass. `progress` takes
    (done, total, phase): "reading" in bytes of the sources, then as `import_events` says."""
    events: list[ImportEvent] = []
    sizes = [_size(p) for p in paths]
    for number, path in enumerate(paths):
        events.extend(read_source(path, fmt))
        if progress is not None:
            progress(sum(sizes[:number + 1]), sum(sizes), "reading")
    for e in events:  # as `log` refuses them, before anything is written (NUL: a binary file)
        check_input_text(e.text, where=f"the text of {e.id or e.time.isoformat()}")
    if not events:
        broken = next(filter(None, (broken_json_line(Path(p)) for p in paths)), None)
        item = next((p for p in paths if _is_item_file(Path(p))), None)
        export = next((p for p in paths if _is_export_file(Path(p))), None)
        if export is not None:
            raise ImportError_(f"nothing to import: {export} is a `lorestack export` file (a "
                               "whole memory, not events): read it back with "
                               f"`lorestack import-memory {export}`")
        if item is not None and not broken:
            raise ImportError_(f"nothing to import: {item} is a lorestack memory file, not "
                               "events: copy it into .memory/ (its type's folder), or "
                               "`lorestack import-memory` an export")
        raise ImportError_(f"nothing to import: {broken}" if broken
                           else "nothing to import: the sources hold no events")
    result = import_events(mem, events, index=index, redact=redact, progress=progress)
    result.source = ", ".join(str(p) for p in paths)
    return result


def _size(path: str | Path) -> int:
    try:
        return Path(path).expanduser().stat().st_size
    except OSError:
        return 0  # read_source names what is wrong with it


def _is_export_file(path: Path) -> bool:
    """What `lorestack export` writes: a first line naming its format."""
    import json

    from lorestack.core import legacy
    from lorestack.memory_layers.portable import EXPORT_FORMAT

    try:
        with open(path.expanduser(), "rb") as fh:
            first = json.loads(fh.readline(65536).decode("utf-8-sig"))
    except (OSError, ValueError):
        return False
    return isinstance(first, dict) and first.get("format") in (
        EXPORT_FORMAT, legacy.legacy_form(EXPORT_FORMAT))


def _is_item_file(path: Path) -> bool:
    """A memory item file (frontmatter with `schema:` and `id:`), as `remember` writes one."""
    try:
        with open(path.expanduser(), "rb") as fh:
            head = fh.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    head = head.removeprefix("\ufeff")  # a BOM, as an editor may save it (the item reads so)
    front = head.split("\n---", 1)[0] if head.startswith("---") else ""
    return "\nschema:" in front and "\nid:" in front
