"""L3 journal: append-only, one markdown file per day, each entry self-delimiting with its id.

An entry looks like this (the heading is for people; the two comments delimit it):

    ## 14:03 · decision · ev-7k2m9q4x
    <!-- lorestack:event {"schema": 1, "id": "ev-7k2m9q4x", "time": "...", ...} -->
    We moved the queue to Redis streams.
    <!-- /lorestack:event ev-7k2m9q4x -->

Appends take a lock, then one O_APPEND write and an fsync, so a reader never sees half an
entry: an entry without its closing marker is skipped (and reported), never guessed at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path

from pydantic import ValidationError

from lorestack.core import legacy
from lorestack.core.errors import LorestackError
from lorestack.core.paths import MemoryPaths
from lorestack.memory_layers.day_encoding import decode_day, exact_utf16_day, utf16_day
from lorestack.memory_layers.fsutil import append_durable, locked, write_atomic
from lorestack.memory_layers.models import SCHEMA_VERSION, JournalEvent
from lorestack.memory_layers.safefiles import (
    DEFAULT_MAX_FILE_BYTES,
    JOURNAL_LIMIT_FACTOR,
    FolderScan,
    UnsafeEntry,
    journal_read_limit,
    read_memory_file,
    real_root,
    scan_folder,
)

JOURNAL_LIMIT_NAME = f"the journal's limit ({JOURNAL_LIMIT_FACTOR} x limits.max_file_bytes)"
_BEGIN = "<!-- lorestack:event "
_END = "<!-- /lorestack:event "
# entries written under the tool's former name carry its name in their markers: read both
_NAMES = "(?:" + "|".join(legacy.names()) + ")"
_BEGIN_RE = re.compile(r"^<!-- (" + _NAMES + r"):event (\{.*\}) -->$")
_ESCAPE_RE = re.compile(r"^(\\*)(<!-- /?" + _NAMES + r":event )", re.M)
_UNESCAPE_RE = re.compile(r"^\\(\\*<!-- /?" + _NAMES + r":event )", re.M)


def _escape(text: str) -> str:
    return _ESCAPE_RE.sub(lambda m: "\\" + m.group(1) + m.group(2), text)


def _unescape(text: str) -> str:
    return _UNESCAPE_RE.sub(lambda m: m.group(1), text)


def render_event(event: JournalEvent) -> str:
    meta = event.model_dump(mode="json", by_alias=True, exclude={"text"}, exclude_none=True)
    local = event.time.astimezone(timezone.utc).strftime("%H:%M")
    text = _escape(event.text.replace("\r\n", "\n").strip("\n"))
    return (
        f"## {local} · {event.kind} · {event.id}\n"
        f"{_BEGIN}{json.dumps(meta, ensure_ascii=False)} -->\n"
        f"{text}\n"
        f"{_END}{event.id} -->\n\n"
    )


@dataclass
class JournalProblem:
    path: Path
    line: int
    problem: str
    read: bool = False  # a note on how the day was read (its encoding): its entries were

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.problem}"


@dataclass
class ParsedJournal:
    events: list[JournalEvent] = field(default_factory=list)
    problems: list[JournalProblem] = field(default_factory=list)
    files: dict[str, Path] = field(default_factory=dict)  # event id -> its day file (read_all)


def parse_journal_text(text: str, path: Path) -> ParsedJournal:
    out = ParsedJournal()
    out.events.extend(iter_journal_text(text, path, out.problems))
    return out


def iter_journal_text(text: str, path: Path, problems: list[JournalProblem]) -> Iterator[JournalEvent]:
    """A day file's entries in order, each parsed when it is reached (`problems` grows as they
    are found): a reader that wants one entry stops there."""
    # a day file saved with CRLF endings (git's autocrlf, a Windows editor) reads the same:
    # its markers would otherwise never match and every entry would vanish without a word
    # and so does one an editor saved with a BOM (Notepad): else line 1 never matches
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    markers = _conflict_markers(lines)
    if any(markers.values()):
        lines = _without_base_sections(lines, path, problems)
    i = 0
    stray = -1  # the line a run of text outside any entry started on, -1 when none is open
    while i < len(lines):
        match = _BEGIN_RE.match(lines[i])
        if not match:
            if i in markers:  # a git merge of two appends: both sides' entries are real
                if markers[i]:
                    problems.append(JournalProblem(path, i + 1, markers[i]))
            elif stray < 0 and _stray(lines, i):
                stray = i
                problems.append(JournalProblem(path, i + 1, STRAY_TEXT))
            elif stray >= 0 and not lines[i].strip():
                stray = -1
            i += 1
            continue
        stray = -1
        start = i
        try:
            meta = json.loads(match.group(2))
        except json.JSONDecodeError:
            problems.append(JournalProblem(path, i + 1, "entry header is not valid JSON; skipped"))
            i += 1
            continue
        event_id = str(meta.get("id", ""))
        end_marker = f"<!-- /{match.group(1)}:event {event_id} -->"
        j = i + 1
        while j < len(lines) and lines[j] != end_marker:
            if _BEGIN_RE.match(lines[j]):
                break
            j += 1
        if j >= len(lines) or lines[j] != end_marker:
            problems.append(
                JournalProblem(path, start + 1, f"entry {event_id or '?'} has no closing marker; skipped")
            )
            i = j
            continue
        schema = meta.get("schema", SCHEMA_VERSION)
        if schema != SCHEMA_VERSION:
            problems.append(JournalProblem(
                path, start + 1, f"entry {event_id}: unknown schema version {schema!r}; skipped"))
            i = j + 1
            continue
        meta["text"] = _unescape("\n".join(lines[start + 1:j]))
        if any(start < m < j for m in markers):
            problems.append(JournalProblem(path, start + 1, CONFLICT_INSIDE.format(event_id)))
        try:
            event = JournalEvent.model_validate(meta)
        except ValidationError as exc:
            err = exc.errors()[0]
            loc = ".".join(str(p) for p in err["loc"])
            problems.append(JournalProblem(path, start + 1, f"entry {event_id}: {loc}: {err['msg']}; skipped"))
        else:
            yield event
        i = j + 1


CONFLICT_BETWEEN = ("git conflict markers between entries: both sides' entries are read; "
                    "delete the marker lines")
CONFLICT_BETWEEN_DIFF3 = (
    "git conflict markers (diff3 style) between entries: both sides' entries are read, not the "
    "older copies in the base section (||||||| … =======); delete the marker lines and the base "
    "section")
BASE_ONLY = ("entry {} is only in the base section (||||||| … =======) of a git conflict, the "
             "version before both sides' changes: not read; to keep it, move it out of the base "
             "section before you delete that")
CONFLICT_INSIDE = ("entry {} holds git conflict markers (<<<<<<< … >>>>>>>): keep the text that "
                   "holds and delete the rest; consolidation leaves it until then")


def _conflict_markers(lines: list[str]) -> dict[int, str]:
    """The marker lines of each whole conflict block: its first maps to what is said of the
    block, the others to ""."""
    from lorestack.memory_layers.conflicts import conflict_blocks

    out: dict[int, str] = {}
    if not any(line.startswith("<<<<<<<") for line in lines):
        return out
    for start, base, split, end in conflict_blocks(lines):
        out.update({start: CONFLICT_BETWEEN if base < 0 else CONFLICT_BETWEEN_DIFF3,
                    split: "", end: ""})
        if base >= 0:
            out[base] = ""
    return out


def _without_base_sections(lines: list[str], path: Path, problems: list[JournalProblem]) -> list[str]:
    """`lines` with the base section of each diff3 conflict block (`|||||||` … `=======`, the
    version before both sides changed it) blanked, line numbers kept: its entries are older
    copies of what the sides hold, and read with them every id would be read twice. An entry
    that only the base holds is named, since neither side has it. A base section within one
    entry's text is left as it is (that entry waits for the person anyway)."""
    from lorestack.memory_layers.conflicts import conflict_blocks

    base_lines: set[int] = set()
    for _start, base, split, _end in conflict_blocks(lines):
        if base >= 0 and any(_entry_id(lines[n]) for n in range(base + 1, split)):
            base_lines.update(range(base + 1, split))
    if not base_lines:
        return lines
    outside = {_entry_id(line) for n, line in enumerate(lines) if n not in base_lines}
    for n in sorted(base_lines):
        event_id = _entry_id(lines[n])
        if event_id and event_id not in outside:
            problems.append(JournalProblem(path, n + 1, BASE_ONLY.format(event_id)))
    return [("" if n in base_lines else line) for n, line in enumerate(lines)]


def _entry_id(line: str) -> str:
    """The id an entry's opening comment gives, "" for any other line."""
    match = _BEGIN_RE.match(line)
    if not match:
        return ""
    try:
        return str(json.loads(match.group(2)).get("id", ""))
    except (json.JSONDecodeError, AttributeError):
        return ""


STRAY_TEXT = ("text outside any entry: no search or session reads it; record it with "
              "`lorestack log` (then remove it here)")


def _stray(lines: list[str], i: int) -> bool:
    """Whether line `i`, outside any entry, holds text a person wrote there: not blank, not the
    file's `# Journal …` title, not the `## HH:MM · kind · id` heading of the entry below it."""
    line = lines[i]
    if not line.strip() or line.startswith("# "):
        return False
    if line.startswith("## "):
        following = next((x for x in lines[i + 1:] if x.strip()), "")
        return not _BEGIN_RE.match(following)
    return True


def entries_only_in(local: bytes, incoming: bytes, path: Path) -> bytes:
    """The entries of the day file `local` that `incoming` lacks, as lorestack writes them: what
    a replacement of an append-only day must keep (events logged after an export was taken)."""
    have = {e.id for e in parse_bytes(incoming, path).events}
    mine = parse_bytes(local, path).events
    kept = "".join(render_event(e) for e in mine if e.id not in have)
    if not kept:
        return b""
    return (b"" if incoming.endswith(b"\n") or not incoming else b"\n") + kept.encode("utf-8")


class _SavedAsUtf16(Exception):
    """The day about to be appended to is saved as UTF-16 (raised under its lock)."""


def _refuse_utf16(head: bytes) -> None:
    if utf16_day(head):
        raise _SavedAsUtf16


def parse_bytes(raw: bytes, path: Path) -> ParsedJournal:
    """Entries of a day file, read as `decode_day` reads it; its encoding named if not UTF-8."""
    text, note, line = decode_day(raw)
    parsed = parse_journal_text(text, path)
    if note:
        parsed.problems.insert(0, JournalProblem(path, line, note, read=True))
    return parsed


class Journal:
    """The journal of one memory root."""

    def __init__(self, paths: MemoryPaths, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES):
        self.paths = paths
        self.max_file_bytes = max_file_bytes
        self.read_limit = journal_read_limit(max_file_bytes)  # day files grow past hand-edit size
        self.resaved: list[Path] = []  # days saved as UTF-16 that an append rewrote as UTF-8
        self.kept_utf16: list[tuple[Path, str]] = []  # such days an append left as they were

    def day_file(self, day: date) -> Path:
        return self.paths.journal_dir / f"{day.isoformat()}.md"

    def append(self, event: JournalEvent) -> Path:
        """Atomically and durably append one event to its day's file."""
        path = self.day_file(event.time.astimezone(timezone.utc).date())
        self._append(path, render_event(event))
        return path

    def _append(self, path: Path, entries: str) -> None:
        """Under the day's lock, one write. A day an editor saved as UTF-16 is first rewritten
        as UTF-8 (UTF-8 after UTF-16 is garbled once an editor re-saves the day)."""
        with locked(self.paths.locks_dir, f"journal-{path.name}"):
            header = ""
            if not path.exists() or path.stat().st_size == 0:
                header = f"# Journal {path.stem}\n\n"
            data = (header + entries).encode("utf-8")
            try:
                append_durable(path, data, check=_refuse_utf16)
            except _SavedAsUtf16:
                try:
                    self._resave_utf8(path)
                except LorestackError as exc:  # left as it was: the entry goes after it in
                    self.kept_utf16.append((path, str(exc)))  # UTF-8, read as before
                append_durable(path, data)

    def resave_utf8(self, path: Path) -> bool:
        """Rewrite a day saved as UTF-16 as UTF-8, under its lock (`doctor --repair`); True if
        it was."""
        with locked(self.paths.locks_dir, f"journal-{path.name}"):
            return self._resave_utf8(path)

    def _resave_utf8(self, path: Path) -> bool:
        """Replace the day by its exact UTF-8 text; a day past the read limit, one with a byte
        that would read as U+FFFD, or one saved again meanwhile is left as it was (raised)."""
        result = read_memory_file(path, self.paths.root, self.read_limit)
        if not utf16_day(result.data):
            return False
        text = None if result.truncated else exact_utf16_day(result.data)
        if text is None:
            raise LorestackError(f"{path} is saved as UTF-16 and is past {JOURNAL_LIMIT_NAME} or "
                                 "holds bytes that do not decode: left as it was")

        def unchanged() -> None:
            if path.read_bytes() != result.data:
                raise LorestackError(f"{path} was saved again while it was rewritten as UTF-8: "
                                     "left as it was")

        write_atomic(path, text.encode("utf-8"), before_replace=unchanged)
        self.resaved.append(path)
        return True

    def scan(self) -> FolderScan:
        """Day files through the safe scanner (links out of the root, FIFOs… are skipped)."""
        out = FolderScan()
        if self.paths.journal_dir.is_dir():
            scan_folder(self.paths.journal_dir, real_root(self.paths.root), out, strays=True)
        return out

    def append_many(self, events: list[JournalEvent]) -> dict[Path, int]:
        """Append many events: per day file one lock, one write and one fsync (bulk import).

        A reader still never sees half an entry: each file gets a single O_APPEND write.
        Returns how many events went to each file.
        """
        by_file: dict[Path, list[str]] = {}
        for event in events:
            path = self.day_file(event.time.astimezone(timezone.utc).date())
            by_file.setdefault(path, []).append(render_event(event))
        for path, entries in sorted(by_file.items()):
            self._append(path, "".join(entries))
        return {path: len(entries) for path, entries in by_file.items()}

    def days(self) -> list[date]:
        return sorted(d for d in (self._day_of(e.name) for e in self.scan().entries) if d)

    @staticmethod
    def _day_of(name: str) -> date | None:
        """The day a file name stands for: only `YYYY-MM-DD.md` (what `day_file` reads)."""
        try:
            day = date.fromisoformat(name[:-3])
        except ValueError:
            return None
        return day if name == f"{day.isoformat()}.md" else None

    def read_day(self, day: date) -> ParsedJournal:
        return self.read_file(self.day_file(day))

    def read_file(self, path: Path) -> ParsedJournal:
        from lorestack.memory_layers import parse_cache

        if parse_cache.enabled():
            try:
                return parse_cache.cached(
                    path, "journal", lambda: self._read_file(path),
                    lambda pj: ParsedJournal(list(pj.events), list(pj.problems)))
            except FileNotFoundError:
                return ParsedJournal()
        return self._read_file(path)

    def iter_file(self, path: Path) -> Iterator[JournalEvent]:
        """`read_file(path).events`, parsed only as far as they are taken (a process without
        the parse cache: a hit's day holds ~180 events at 100k, its event is one of them)."""
        from lorestack.memory_layers import parse_cache

        if parse_cache.enabled():
            yield from self.read_file(path).events
            return
        try:
            data = read_memory_file(path, self.paths.root, self.read_limit).data
        except (FileNotFoundError, UnsafeEntry, OSError):
            return
        yield from iter_journal_text(decode_day(data)[0], path, [])

    def _read_file(self, path: Path) -> ParsedJournal:
        try:
            result = read_memory_file(path, self.paths.root, self.read_limit)
        except FileNotFoundError:
            return ParsedJournal()
        except UnsafeEntry as exc:
            return ParsedJournal(problems=[JournalProblem(path, 0, exc.problem)])
        except OSError as exc:
            return ParsedJournal(problems=[JournalProblem(path, 0, f"cannot read ({exc.strerror})")])
        parsed = parse_bytes(result.data, path)
        if result.truncated:
            parsed.problems.append(JournalProblem(  # its entries up to the limit are read
                path, 0, result.note(path, self.read_limit, JOURNAL_LIMIT_NAME).split(": ", 1)[1],
                read=True))
        return parsed

    def read_all(self, since: datetime | None = None) -> ParsedJournal:
        out = ParsedJournal()
        scan = self.scan()
        out.problems.extend(JournalProblem(Path(e.path), 0, e.problem) for e in scan.skipped)
        # a day file named otherwise (notes.md, 2026-12-3.md) is never read: say so
        out.problems.extend(
            JournalProblem(Path(e.path), 0, "not a day file (YYYY-MM-DD.md); its entries are "
                                            "never read — rename it or move its text")
            for e in scan.entries if self._day_of(e.name) is None)
        for day in self.days():
            if since is not None and day < since.date():
                continue
            parsed = self.read_day(day)
            out.problems.extend(parsed.problems)
            kept = [e for e in parsed.events if since is None or e.time >= since]
            out.events.extend(kept)
            out.files.update((e.id, self.day_file(day)) for e in kept)
        out.events.sort(key=lambda e: e.time)
        return out

    def get(self, event_id: str) -> JournalEvent | None:
        for event in self.read_all().events:
            if event.id == event_id:
                return event
        return None
