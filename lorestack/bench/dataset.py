"""The `lorestack-bench/1` dataset format: reading it and ingesting one line into a fresh store.

Ingestion only ever receives a line's *events*: questions, answers and evidence stay with
the harness (bench_retrieval.py), so the pipeline under test cannot see them while indexing.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from lorestack.consolidation.bulk_import import ImportEvent
from lorestack.core import legacy
from lorestack.core.errors import LorestackError

FORMAT = "lorestack-bench/1"
READABLE_FORMATS = (FORMAT, legacy.legacy_form(FORMAT))  # files written before the rename


class BenchFormatError(LorestackError):
    """A dataset file that is not valid `lorestack-bench/1`."""


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


class BenchEvent(ImportEvent):
    """One event of a bench set: an import line (the same fields and checks as `lorestack
    import`) whose id is required, as questions name their evidence by it."""

    id: str


class BenchQuestion(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    question: str
    answer: Any = None
    evidence: list[str]
    category: str = "uncategorised"
    time: datetime

    @field_validator("time")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        return _utc(value)


class BenchLine(BaseModel):
    model_config = ConfigDict(extra="allow")
    format: str
    name: str
    events: list[BenchEvent]
    questions: list[BenchQuestion]


def parse_line(raw: str, where: str) -> BenchLine:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise BenchFormatError(f"{where}: not JSON ({exc.msg})") from exc
    if not isinstance(data, dict) or data.get("format") not in READABLE_FORMATS:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise BenchFormatError(f"{where}: format is {found!r}, expected {FORMAT!r}")
    try:
        line = BenchLine.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise BenchFormatError(f"{where}: {loc}: {err['msg']} ({FORMAT})") from exc
    ids = [e.id for e in line.events]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise BenchFormatError(f"{where}: event id {dup!r} appears twice")
    known = set(ids)
    for q in line.questions:
        missing = [e for e in q.evidence if e not in known]
        if missing:
            raise BenchFormatError(f"{where}: question {q.id!r} cites unknown event {missing[0]!r}")
    return line


def read_dataset(path: str | Path, limit: int | None = None) -> list[BenchLine]:
    """Every line of a JSONL dataset, validated; errors name the file and line number."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError as exc:
        raise BenchFormatError(f"{path}: no such dataset file") from exc
    except UnicodeDecodeError as exc:
        raise BenchFormatError(f"{path}: not UTF-8 text") from exc
    lines = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        lines.append(parse_line(raw, f"{path}:{number}"))
        if limit is not None and len(lines) >= limit:
            break
    if not lines:
        raise BenchFormatError(f"{path}: no dataset lines")
    return lines


@dataclass
class IngestedStore:
    """One line's fresh memory, plus what the harness needs to judge answers."""

    mem: Any
    index: Any
    workdir: tempfile.TemporaryDirectory
    texts: dict[str, str] = field(default_factory=dict)      # dataset id -> stored text
    store_ids: dict[str, str] = field(default_factory=dict)  # store id -> dataset id
    timeline: list[tuple[datetime, str]] = field(default_factory=list)  # events, oldest first
    redacted: int = 0
    write_s: float = 0.0
    index_s: float = 0.0

    @cached_property
    def when(self) -> dict[str, datetime]:
        """Event id -> its time (journal events only)."""
        return dict((eid, t) for t, eid in self.timeline)

    def close(self) -> None:
        try:
            self.index.close()
        finally:
            self.workdir.cleanup()


def ingest_events(events: list[BenchEvent], *, overrides: dict | None = None) -> IngestedStore:
    """Write `events` into a new temporary project memory and index it.

    Events go to the journal with their ids and times; typed entries become L1/L2 items
    dated at their time. The secret guard runs on everything, in redact mode, so a
    credential-looking string in a foreign dataset is replaced instead of aborting the run
    (the count is reported). Global memory is a fresh empty folder, never the user's.
    """
    from lorestack.consolidation.bulk_import import import_events
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    workdir = tempfile.TemporaryDirectory(prefix="lorestack-bench-")
    base = Path(workdir.name)
    (base / "repo").mkdir()
    Memory.init(base / "repo")
    mem = Memory.open(base / "repo", home=base / "home", **(overrides or {}))
    out = IngestedStore(mem=mem, index=MemoryIndex(mem, warn=lambda _m: None), workdir=workdir)
    # the same bulk path as `lorestack import`: one write + fsync per day file, one sync
    result = import_events(mem, events, redact=True, memory_index=out.index)
    out.texts, out.store_ids, out.timeline = result.texts, result.stored_ids, result.timeline
    out.redacted, out.write_s, out.index_s = result.redacted, result.write_s, result.index_s
    if result.warnings:
        out.close()
        # a bench that silently lost a retriever would report nonsense numbers
        raise LorestackError("indexing the bench store failed: " + "; ".join(result.warnings))
    return out
