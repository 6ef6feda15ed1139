"""Forgetting and closing journal events, by full or short id.

The journal is append-only for what happened; a person may still take an entry back. `forget`
moves one entry out of its day file into `archive/events/<day>.md` with the reason and the
time (the archive is written first, so a crash between the two steps leaves the entry in both
places, never in neither). `done` closes a todo or blocker with a new `progress` event whose
`closes:<id>` tag the loader reads (a todo is open until a later event names its id; an id
typed around a key by hand is written, and read, sealed: `sealed_names.names`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import timezone
from pathlib import Path

from lorestack.core import legacy
from lorestack.core.errors import ConcurrentEdit, ItemNotFound, LorestackError
from lorestack.memory_layers.fsutil import append_durable, locked, write_atomic
from lorestack.memory_layers.journal import render_event
from lorestack.memory_layers.models import JournalEvent, now_utc, without_tilde
from lorestack.memory_layers.sealed_names import is_sealed, names, seal, seals

ARCHIVE_FOLDER = "events"
CLOSABLE = ("todo", "blocker")


@dataclass
class FoundEvent:
    event: JournalEvent
    path: Path  # its day file


def find_event(mem, event_id: str) -> FoundEvent | None:
    """The journal event with this full id, its sealed form (an id typed around a key by hand,
    as every answer shows it: matched by its hash, whatever threshold sealed it), or whose
    random tail starts with this short id (4+ characters, as the context shows it); None when
    no event matches."""
    journal = mem.journal
    if journal is None:
        return None
    wanted = without_tilde(event_id).strip()
    sealed = is_sealed(wanted)
    matches: dict[str, FoundEvent] = {}
    for day in journal.days():
        path = journal.day_file(day)
        for event in journal.read_file(path).events:
            tail = event.id.partition("-")[2]
            if event.id == wanted or (sealed and seals(event.id, wanted)):
                return FoundEvent(event, path)
            if len(wanted) >= 4 and "-" not in wanted and tail.startswith(wanted):
                matches[event.id] = FoundEvent(event, path)
    if len(matches) > 1:
        named = ", ".join(_shown(mem, i) for i in sorted(matches)[:5])
        raise ItemNotFound(f"short id '{_shown(mem, wanted)}' matches {len(matches)} events "
                           f"({named}); give more of the id")
    return next(iter(matches.values()), None)


def _shown(mem, event_id: str) -> str:
    """An event id as an answer or an error names it: sealed when typed around a key."""
    return seal(event_id, mem.settings.guard.entropy_threshold)


def sealed_event(mem, event: JournalEvent) -> JournalEvent:
    """`event` as an answer shows it: its id, the ids its tags name (`closes:<id>`), its
    session and speaker sealed (each still a name of its own), its text, source and any field
    typed into its metadata redacted, at the guard's threshold."""
    from lorestack.memory_layers.redacted_view import redacted_fields
    from lorestack.memory_layers.secret_guard import redact_for_reading

    threshold = mem.settings.guard.entropy_threshold
    # fields typed by hand into the entry's metadata (`"api_token": …`) are printed too
    extra = redacted_fields(dict(event.model_extra or {}), threshold)[0]
    tags = []
    for tag in event.tags:
        head, colon, rest = tag.partition(":")
        tags.append(f"{head}:{seal(rest, threshold)}" if colon and rest else seal(tag, threshold))
    return event.model_copy(update={
        **extra, "id": seal(event.id, threshold), "tags": tags,
        "text": redact_for_reading(event.text, threshold)[0],
        "source": redact_for_reading(event.source, threshold)[0],
        "session": seal(event.session, threshold) if event.session else event.session,
        "speaker": seal(event.speaker, threshold) if event.speaker else event.speaker})


def _entry_span(lines: list[str], event_id: str) -> tuple[int, int] | None:
    """(first, last+1) line numbers of the entry with this id: its `## … · id` heading (when
    present) through its closing marker and the blank line after it."""
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]  # CRLF-saved days
    if lines:  # a day an editor saved with a BOM: its first entry is found too
        lines[0] = lines[0].removeprefix("\ufeff")
    for i, line in enumerate(lines):
        name = next((n for n in legacy.names() if line.startswith(f"<!-- {n}:event ")), None)
        if name is None:
            continue
        try:
            meta = json.loads(line[len(f"<!-- {name}:event "):-len(" -->")])
        except json.JSONDecodeError:
            continue
        if meta.get("id") != event_id:
            continue
        end_marker = f"<!-- /{name}:event {event_id} -->"
        try:
            end = lines.index(end_marker, i + 1)
        except ValueError:
            return None
        start = i - 1 if i > 0 and lines[i - 1].startswith("## ") and lines[i - 1].endswith(
            f" · {event_id}") else i
        stop = end + 1
        if stop < len(lines) and lines[stop] == "":
            stop += 1
        return start, stop
    return None


def find_archived_event(mem, event_id: str) -> FoundEvent | None:
    """A forgotten event, by its full id (or its sealed form) or the short id a session sees
    (as `find_event` takes it), from archive/events/: `forget` names where it went, so `show`
    must still find it there."""
    from lorestack.memory_layers.journal import parse_journal_text

    project, wanted = mem.project, without_tilde(event_id).strip()
    folder = project.archive_dir / ARCHIVE_FOLDER if project is not None else None
    short = "-" not in wanted and len(wanted) >= 4
    if folder is None or not folder.is_dir() or not ("-" in wanted or short):
        return None
    matches: dict[str, FoundEvent] = {}
    for path in sorted(folder.glob("*.md"), reverse=True):
        try:
            text = path.read_text("utf-8", errors="replace")
        except OSError:
            continue
        if wanted not in text and not is_sealed(wanted):
            continue
        for event in parse_journal_text(text, path).events:
            if event.id == wanted or (is_sealed(wanted) and seals(event.id, wanted)):
                return FoundEvent(event, path)
            if short and event.id.partition("-")[2].startswith(wanted):
                matches.setdefault(event.id, FoundEvent(event, path))
    if len(matches) > 1:
        named = ", ".join(_shown(mem, i) for i in sorted(matches)[:5])
        raise ItemNotFound(f"short id '{_shown(mem, wanted)}' matches {len(matches)} forgotten "
                           f"events ({named}); give more of the id")
    return next(iter(matches.values()), None)


def archived_events(mem):
    """Every forgotten event kept in archive/events/ (a `ParsedJournal`: `files` names each
    event's archive file), read as the journal is; a file that cannot be read or parsed is one
    of its `problems`."""
    from lorestack.memory_layers.journal import ParsedJournal

    out = ParsedJournal()
    project, journal = mem.project, mem.journal
    folder = project.archive_dir / ARCHIVE_FOLDER if project is not None else None
    if folder is None or journal is None or not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.md")):
        parsed = journal.read_file(path)
        out.problems.extend(parsed.problems)
        out.events.extend(parsed.events)
        out.files.update((event.id, path) for event in parsed.events)
    return out


def archive_event(mem, event_id: str, reason: str) -> Path:
    """Move one event out of the journal into archive/events/<day>.md. Returns the archive."""
    if not reason or not reason.strip():
        raise LorestackError("say why: --reason is required so the archive explains itself")
    found = find_event(mem, event_id)
    if found is None:
        raise ItemNotFound(f"no journal event with id '{_shown(mem, event_id)}'")
    journal = mem.require_project().journal
    event = found.event
    reason = mem.guard(reason.strip(), where="reason")
    # the copy lorestack writes names the event, and the ids its tags name, sealed (as every
    # answer does); its words stay as the user typed them, as an archived item's body does
    shown = sealed_event(mem, event)
    archived = JournalEvent.model_validate({
        **event.model_dump(by_alias=True), "id": shown.id, "tags": shown.tags,
        "archived_reason": reason, "archived_at": now_utc().isoformat()})
    target = mem.require_project().paths.archive_dir / ARCHIVE_FOLDER / found.path.name
    try:  # a day an editor saved as UTF-16 is rewritten as UTF-8 first, as `log` does
        if journal.resave_utf8(found.path):  # not for a later `log` of this process to report
            journal.resaved.remove(found.path)
    except LorestackError as exc:
        raise LorestackError(f"{exc}; to forget {_shown(mem, event.id)}, re-save the day as "
                             "UTF-8 (or take the entry out by hand)") from None
    with locked(journal.paths.locks_dir, f"journal-{found.path.name}"):
        # as saved: CRLF endings and any byte that is not UTF-8 stay as they were
        before = found.path.read_bytes()
        raw = before.decode("utf-8", errors="surrogateescape")
        lines = raw.split("\n")
        span = _entry_span(lines, event.id)
        if span is None:
            raise LorestackError(f"{found.path}: the entry {_shown(mem, event.id)} is not whole; fix the file "
                                 "by hand (`lorestack doctor` shows the problem)")
        header = "" if target.exists() else f"# Archived events of {found.path.stem}\n\n"
        with locked(journal.paths.locks_dir, f"archive-{found.path.name}"):
            # a re-run after a refused rewrite (ConcurrentEdit below) finds it archived already
            archived_before = target.exists() and _entry_span(
                target.read_bytes().decode("utf-8", errors="surrogateescape").split("\n"),
                archived.id) is not None
            if not archived_before:
                append_durable(target, (header + render_event(archived)).encode("utf-8"))
        kept = lines[:span[0]] + lines[span[1]:]
        def unchanged() -> None:  # a hand edit saved meanwhile is kept, not overwritten
            if found.path.read_bytes() != before:
                raise ConcurrentEdit(f"{found.path} changed on disk while {_shown(mem, event.id)} was being "
                                     "archived; the day was left as it is (the entry is in the "
                                     f"archive too: {target}), re-run")

        write_atomic(found.path, "\n".join(kept).encode("utf-8", errors="surrogateescape"),
                     before_replace=unchanged)
    return target


def restore_event(mem, event_id: str) -> tuple[JournalEvent, Path] | None:
    """Bring a forgotten event back from archive/events/ to its day in the journal: written
    there first, then taken out of the archive (a crash between leaves it in both places,
    never in neither; `list` shows it once). (the event, its day file); None when no forgotten
    event has this id."""
    found = find_archived_event(mem, event_id)
    if found is None:
        return None
    journal = mem.require_project().journal
    data = {k: v for k, v in found.event.model_dump(by_alias=True).items()
            if k not in ("archived_reason", "archived_at")}
    event = JournalEvent.model_validate(data)
    live = find_event(mem, event.id)  # a restore cut short: it is back already
    day = live.path if live is not None else journal.append(event)
    with locked(journal.paths.locks_dir, f"archive-{found.path.name}"):
        before = found.path.read_bytes()
        lines = before.decode("utf-8", errors="surrogateescape").split("\n")
        span = _entry_span(lines, event.id)
        if span is not None:
            kept = lines[:span[0]] + lines[span[1]:]
            write_atomic(found.path, "\n".join(kept).encode("utf-8", errors="surrogateescape"))
    return event, day


def refuse_archived_event(mem, event_id: str) -> None:
    """An event forgotten already is said so (where it went), not "no such id"."""
    gone = find_archived_event(mem, event_id)
    if gone is not None:
        from lorestack.memory_layers.sealed_names import seal_path

        where = seal_path(str(gone.path), mem.settings.guard.entropy_threshold)
        raise LorestackError(f"'{_shown(mem, gone.event.id)}' is already archived ({where}): "
                             "it was forgotten")


def _refuse_item_as_event(mem, given: str) -> None:
    """`done` given the id of a memory item (a decision, a fact…): say what it is."""
    try:
        item = mem.get(given).item
    except ItemNotFound:
        return
    shown = _shown(mem, item.id)
    raise LorestackError(f"'{shown}' is a {item.type}, not a journal event; `done` closes todos "
                         "and blockers (`lorestack list --type event` shows them), and "
                         f"`lorestack forget {shown} --reason …` archives a {item.type}")


def item_not_event(mem, item_id: str, why: str):
    """The memory item ITEM_ID names, for a command that works on items; an event's id is
    told as one (`why`: what to do instead, `{id}` for its id), not as an id that names nothing."""
    try:
        return mem.get(item_id)
    except ItemNotFound:
        found = find_event(mem, item_id) or find_archived_event(mem, item_id)
        if found is None:
            raise
        shown = _shown(mem, found.event.id)
        raise LorestackError(f"'{shown}' is a journal event ({found.event.kind}), not a memory "
                             f"item; {why.format(id=shown)}") from None


def close_todo(mem, event_id: str, note: str = "") -> JournalEvent:
    """Close a todo or blocker: a `progress` event tagged `closes:<id>` that says what closed."""
    if not event_id.strip():  # an unset shell variable, most often
        raise ItemNotFound("an empty id: give a todo's or blocker's id (`lorestack list --type "
                           "event` shows them)")
    found = find_event(mem, event_id)
    if found is None:
        refuse_archived_event(mem, event_id)
        _refuse_item_as_event(mem, event_id)
        raise ItemNotFound(f"no journal event with id '{_shown(mem, event_id)}'; "
                           "`lorestack list --type event` shows ids")
    todo = found.event
    shown = _shown(mem, todo.id)  # a todo id typed around a key is told, and linked, sealed
    if todo.kind not in CLOSABLE:
        raise LorestackError(f"{shown} is a {todo.kind}, not a todo or blocker; "
                             f"`lorestack forget {shown} --reason …` archives it instead")
    tag = f"closes:{shown}"  # the loader reads a sealed id as naming the todo (`names`)
    later = [e for e in mem.journal.read_all(since=todo.time).events if e.id != todo.id]
    if any(names(" ".join([e.text, *e.tags]), todo.id) for e in later):
        raise LorestackError(f"{shown} is closed already")
    from lorestack.memory_layers.operations import log_event
    from lorestack.memory_layers.secret_guard import redact_for_reading

    # the todo's own words, a key typed into them by hand redacted (the guard would refuse the
    # whole entry, and the todo could never be closed); the note is the user's, guarded as usual
    said = redact_for_reading(todo.title, mem.settings.guard.entropy_threshold)[0]
    note = mem.guard(note.strip(), where="note") if note else ""  # `done` has no --redact
    text = f"Done: {said}" + (f" — {note}" if note else "")
    when = max(now_utc(), todo.time.astimezone(timezone.utc))
    return log_event(mem, text, "progress", tags=[tag], time=when)
