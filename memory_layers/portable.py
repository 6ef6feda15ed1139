"""A whole memory as JSON lines (`lorestack export` / `lorestack import-memory`).

Line 1 is a header naming the format and its version; then one line per file of the memory
folder (items, archive, journal days, project.md, config, .gitignore — everything except the
derived `.index/`). Each line carries the file's exact text (so a round trip is byte for byte),
but for a secret typed into it, redacted (`export_clean`), and, for people and other tools, the
parsed fields: an item's frontmatter and body, a journal
day's events. Importing writes the files back: identical files are left alone, differing ones
are reported as conflicts (or replaced with `replace=True`), and nothing is written outside the
memory folder. A secret in an item or a journal day is redacted before it is written; an item
whose id, file name or link holds one is written sealed (`sealed_names`) under a name without it,
and so is any file in a folder, or under a name, that holds one.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath

from lorestack.core import legacy
from lorestack.core.errors import InvalidItem, LorestackError
from lorestack.core.paths import MemoryPaths
from lorestack.memory_layers.export_clean import ExportedHere, clean_record, safe_problem
from lorestack.memory_layers.fsutil import locked, write_atomic
from lorestack.memory_layers.journal import entries_only_in, parse_journal_text
from lorestack.memory_layers.markdown import parse_item, serialize_item
from lorestack.memory_layers.models import FOLDER_TYPES, MemoryItem
from lorestack.memory_layers.secret_guard import redact_all
from lorestack.memory_layers.store import ARCHIVE_DEPTH, SPECIAL_FILES

EXPORT_FORMAT = "lorestack-export"
EXPORT_VERSION = 1


class ImportFormatError(LorestackError):
    pass


class _IdsHeld:
    """Which file holds each item id in this memory (live and archived), read on first use:
    only an import that adds an item file needs it."""

    def __init__(self, paths: MemoryPaths, scope: str):
        self.paths, self.scope = paths, scope
        self._ids: dict[str, Path] | None = None

    def _load(self) -> dict[str, Path]:
        if self._ids is None:
            from lorestack.memory_layers.store import MemoryStore

            found = MemoryStore(self.paths, self.scope).load_all(include_archived=True)
            self._ids = {li.item.id: li.path for li in found.items}
        return self._ids

    def elsewhere(self, item_id: str, target: Path) -> str | None:
        path = self._load().get(item_id)
        if path is None or path == target:
            return None
        return path.relative_to(self.paths.root).as_posix()

    def add(self, item_id: str, target: Path) -> None:
        self._load()[item_id] = target


def _kind(rel: PurePosixPath) -> str:
    parts = rel.parts
    if len(parts) == 1 and parts[0] in SPECIAL_FILES:
        return "item"
    if parts[0] == "journal" or parts[:2] == ("archive", "journal"):
        return "journal" if rel.suffix == ".md" else "file"
    if rel.suffix != ".md":
        return "file"
    if len(parts) == 2 and parts[0] in FOLDER_TYPES:
        return "item"
    # archive/<type>/x.md, or sorted into folders below it, as the store reads the archive
    if (parts[0] == "archive" and len(parts) >= 3 and parts[1] in FOLDER_TYPES
            and len(parts) - 3 <= ARCHIVE_DEPTH):
        return "item"
    return "file"


def _default_type(rel: PurePosixPath) -> str | None:
    """The type an item file without one in its frontmatter has, as the store reads it: its
    folder's (`facts/x.md` is a fact), or a special file's (`project.md` is a fact)."""
    if len(rel.parts) == 1:
        return SPECIAL_FILES[rel.name][1] if rel.name in SPECIAL_FILES else None
    if rel.parts[0] == "archive" and len(rel.parts) >= 3:
        return FOLDER_TYPES.get(rel.parts[1])
    return FOLDER_TYPES.get(rel.parts[-2])


def memory_files(paths: MemoryPaths) -> list[Path]:
    """Every file of the memory except the derived index and editors' temp files."""
    root = paths.root
    out = []
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] == ".index" or not path.is_file() or path.is_symlink():
            continue
        if path.name.endswith(".tmp") and path.name.startswith("."):
            continue
        out.append(path)
    return out


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def export_records(paths: MemoryPaths, *, scope: str = "project", entropy_threshold: float = 4.2,
                   redacted: dict[str, list[str]] | None = None) -> Iterator[dict]:
    """The header, then one record per file (see the module docstring), each with any secret
    typed into it redacted (`export_clean`); `redacted` gets each such file's names by path."""
    files = memory_files(paths)
    yield {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "scope": scope,
        "exported": datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
        "files": len(files),
    }
    for path in files:
        rel = PurePosixPath(path.relative_to(paths.root).as_posix())
        raw = path.read_bytes()
        record: dict = {"kind": _kind(rel), "path": str(rel), "sha256": _digest(raw)}
        try:
            text = raw.decode("utf-8")
            record["text"] = text
        except UnicodeDecodeError:  # bytes: still redacted, as text in that encoding
            record["base64"] = base64.b64encode(raw).decode("ascii")
            record["kind"] = "file"
        if record["kind"] == "item":
            try:
                item = parse_item(path, raw, default_type=_default_type(rel),
                                  default_scope=scope)
                record["item"] = {**item.frontmatter(), "body": item.body}
            except InvalidItem as exc:
                record["problem"] = str(exc)
        elif record["kind"] == "journal":
            parsed = parse_journal_text(text, path)
            record["events"] = [
                e.model_dump(mode="json", by_alias=True, exclude_none=True) for e in parsed.events
            ]
        record, names = clean_record(record, rel, path, raw, scope, entropy_threshold)
        if names and redacted is not None:
            redacted[record["path"]] = names
        yield safe_problem(record, entropy_threshold)


@dataclass
class ImportReport:
    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    redacted: int = 0  # files written (or, dry run, to be written) with a secret taken out
    dry_run: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.written)


def _safe_rel(value: object) -> PurePosixPath:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("no path")
    rel = PurePosixPath(value)
    if rel.is_absolute() or ".." in rel.parts or "\\" in value or rel.parts[0] == ".index":
        raise ValueError(f"path {value!r} is outside the memory or in its derived .index/")
    return rel


def _room_for(root: Path, target: Path) -> None:
    """An export names files: a folder here where the record's file goes, or a file where its
    path needs a folder, is that line's problem (the export is not written), not an OS error."""
    if target.is_dir():
        raise ValueError("a folder of that name is here; an export line names a file")
    for parent in target.relative_to(root).parents:
        if (root / parent).exists() and not (root / parent).is_dir():
            raise ValueError(f"{parent.as_posix()} is a file here, and the path needs a folder")


def _record_bytes(record: dict, rel: PurePosixPath) -> bytes:
    for key in ("text", "base64"):  # `"text": null` would be written as "None"
        if key in record and not isinstance(record[key], str):
            raise ValueError(f'"{key}" is {json.dumps(record[key])[:40]}, not a string')
    if "text" in record:
        data = record["text"].encode("utf-8")
    elif "base64" in record:
        data = base64.b64decode(record["base64"], validate=True)
    elif isinstance(record.get("item"), dict):
        fields = dict(record["item"])  # a record written by hand: fields only
        body = fields.pop("body", "")
        item = MemoryItem.model_validate(fields)
        item.body = body
        data = serialize_item(item).encode("utf-8")
    else:
        raise ValueError("record has neither text, base64 nor item fields")
    digest = record.get("sha256")
    if digest and ("text" in record or "base64" in record):
        if _digest(data) != digest:
            raise ValueError("sha256 does not match the content (the line was altered)")
    return data


def _redacted(data: bytes, rel: PurePosixPath, target: Path, scope: str,
              threshold: float) -> bytes:
    """The file as it may be written: a secret in an item's fields or a journal's text is
    replaced, as `import` and `remember --redact` do (a file without one is kept byte for
    byte). Any other file (a note, an image) has what the guard finds replaced in place, as
    `export` writes it: such a file from an older export was written key and all."""
    from lorestack.memory_layers.secret_bytes import redact_file
    from lorestack.memory_layers.secret_guard import has_secret, redact_all, redact_tree

    kind = _kind(rel)
    if kind not in ("item", "journal") or b"\x00" in data:
        return redact_file(data, threshold)
    text = data.decode("utf-8")
    if not has_secret(text, threshold):
        return data
    if kind == "journal":  # entries are free text under their marker lines
        return redact_all(_sealed_event_ids(text, target, threshold), threshold)[0].encode("utf-8")
    cleaned_text = redact_all(text, threshold)[0].encode("utf-8")
    try:  # in place, so the rest of the file stays as it was
        parse_item(target, cleaned_text, default_type=_default_type(rel), default_scope=scope)
        return cleaned_text
    except InvalidItem:  # e.g. a whole value replaced: `[REDACTED:…]` reads as a YAML list
        pass
    item = parse_item(target, data, default_type=_default_type(rel), default_scope=scope)

    def clean(value):
        return redact_tree(value, threshold)[0]

    # field by field, so a redacted value stays one YAML value (an id holding a key is sealed
    # already, `_sealed_names`: kept)
    fields = {k: (v if k == "id" else clean(v)) for k, v in item.frontmatter().items()}
    cleaned = MemoryItem.model_validate(fields)
    cleaned.body = clean(item.body)
    return serialize_item(cleaned).encode("utf-8")


def _sealed_event_ids(text: str, target: Path, threshold: float) -> str:
    """A journal day with each event id typed around a key sealed wherever it is written (its
    heading, markers, a later entry's `closes:`), as `show` prints it and finds it; redacted
    with the text, it would be a bare `[REDACTED:…]` naming nothing, the same for two events."""
    from lorestack.memory_layers.sealed_names import seal

    events = parse_journal_text(text, target).events
    ids = {e.id for e in events}
    # a todo closed on a later day is named only by that day's `closes:` tag: sealed the same
    # way, or the import would reopen it (the tag a bare redaction naming nothing)
    ids |= {t[len("closes:"):] for e in events for t in e.tags if t.startswith("closes:")}
    for raw in sorted(ids, key=len, reverse=True):  # a longer id first: one may hold another
        sealed = seal(raw, threshold)
        if sealed != raw:
            text = text.replace(raw, sealed)
    return text


def _sealed_names(rel: PurePosixPath, data: bytes, item: MemoryItem,
                  threshold: float) -> tuple[PurePosixPath, bytes] | None:
    """An item whose file name, id or `supersedes`/`superseded_by` link holds a key, as it may
    be written: the id and links sealed, as every derived file and answer names them (so `show`
    finds it by the seal `list` prints and links still meet), and the file named after its
    redacted name and the raw name's hash. Only those fields change (what the file left out
    stays out), so an import gives the same file every time and a second one finds it there.
    None when no name holds one."""
    import yaml

    from lorestack.memory_layers.markdown import split_frontmatter
    from lorestack.memory_layers.sealed_names import seal

    sealed_rel = sealed_path(rel, threshold)
    sealed_id = seal(item.id, threshold)
    links = [seal(link, threshold) for link in item.supersedes]
    newer = seal(item.superseded_by, threshold) if item.superseded_by else None
    if (sealed_rel, sealed_id, links, newer) == (rel, item.id, item.supersedes,
                                                 item.superseded_by):
        return None
    fields, body = split_frontmatter(data.decode("utf-8"))
    fields = dict(fields or {})
    fields["id"] = sealed_id  # a file without one took its name: it keeps that id, sealed
    if links:
        fields["supersedes"] = links
    if newer:
        fields["superseded_by"] = newer
    head = yaml.safe_dump(fields, sort_keys=False, allow_unicode=True, width=100)
    body = body.strip("\n")
    text = f"---\n{head}---\n\n{body}\n" if body else f"---\n{head}---\n"
    return sealed_rel, text.encode("utf-8")


def sealed_path(rel: PurePosixPath, threshold: float) -> PurePosixPath:
    """`rel` with each folder or file name that holds a key renamed after its redacted name and
    the raw name's hash (`zzz-ghp_….md` -> `zzz-redacted-github-token-<hash>.md`), the same
    every time; other names kept."""
    from lorestack.memory_layers.models import slugify
    from lorestack.memory_layers.sealed_names import name_digest, redact_name

    parts = []
    for n, part in enumerate(rel.parts):
        stem, suffix = (PurePosixPath(part).stem, PurePosixPath(part).suffix) if (
            n == len(rel.parts) - 1) else (part, "")
        clean, kinds = redact_name(stem, threshold)
        parts.append(f"{slugify(clean)}-{name_digest(stem)}{suffix}" if kinds else part)
    return PurePosixPath(*parts)


def _decoded(lines: Iterable[str]) -> Iterator[str]:
    """The lines of a text stream; bytes that are not UTF-8 (a binary file named by mistake)
    are one clear refusal, not a decoder's exception."""
    try:
        yield from lines
    except UnicodeDecodeError as exc:
        raise ImportFormatError(
            f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); an export from "
            "`lorestack export` is UTF-8 JSON lines") from exc


def read_records(lines: Iterable[str]) -> Iterator[dict]:
    """Parse JSONL, checking the header's format and version first."""
    header_seen = False
    for number, line in enumerate(_decoded(lines), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError as exc:
            raise ImportFormatError(f"line {number} is not JSON ({exc})") from exc
        if not header_seen:
            if not isinstance(record, dict) or record.get("format") not in (
                    EXPORT_FORMAT, legacy.legacy_form(EXPORT_FORMAT)):  # exports before the rename
                raise ImportFormatError(
                    "not a lorestack export (line 1 must be the "
                    f'{{"format": "{EXPORT_FORMAT}", "version": …}} header from `lorestack export`)'
                )
            version = record.get("version")
            if not isinstance(version, int) or version > EXPORT_VERSION:
                raise ImportFormatError(
                    f"export format version {version!r} is newer than this lorestack reads "
                    f"(version {EXPORT_VERSION}); upgrade lorestack"
                )
            header_seen = True
            continue
        if not isinstance(record, dict):
            raise ImportFormatError(f"line {number} is not a JSON object")
        record["_line"] = number
        yield record
    if not header_seen:
        raise ImportFormatError("the export is empty (no header line)")


def import_records(
    paths: MemoryPaths,
    records: Iterable[dict],
    *,
    scope: str = "project",
    replace: bool = False,
    dry_run: bool = False,
    entropy_threshold: float = 4.2,
) -> ImportReport:
    """Write exported files into the memory at `paths` (see the module docstring); secrets in
    items and journals are redacted first and counted."""
    from lorestack.memory_layers.sealed_names import seal_path

    report = ImportReport(dry_run=dry_run)
    planned: list[tuple[Path, bytes, bytes, str, Path | None, str | None]] = []
    for record in records:
        where = f"line {record.get('_line', '?')}"
        try:
            rel = _safe_rel(record.get("path"))
            data = _record_bytes(record, rel)
            target = paths.root.joinpath(*rel.parts)
            exported, named_raw, item_id = data, None, None
            if _kind(rel) == "item":
                item = parse_item(target, data, default_type=_default_type(rel),
                                  default_scope=scope)
                sealed = _sealed_names(rel, data, item, entropy_threshold)
                if sealed is not None:
                    named_raw = target if sealed[0] != rel else None
                    rel, data = sealed
                    target = paths.root.joinpath(*rel.parts)
                    item = parse_item(target, data, default_type=_default_type(rel),
                                      default_scope=scope)
                item_id = item.id  # as written (an id holding a key is written sealed)
            else:  # a folder or file named after a key: written under a name without it
                if _kind(rel) == "journal":
                    parse_journal_text(data.decode("utf-8"), target)
                if sealed_path(rel, entropy_threshold) != rel:
                    named_raw, rel = target, sealed_path(rel, entropy_threshold)
                    target = paths.root.joinpath(*rel.parts)
            clean = _redacted(data, rel, target, scope, entropy_threshold)
            _room_for(paths.root, target)
        except (ValueError, InvalidItem, UnicodeDecodeError) as exc:
            shown = redact_all(repr(record.get("path")), entropy_threshold)[0]
            report.problems.append(f"{where} ({shown}): {exc}")
            continue
        planned.append((target, exported, clean, str(rel), named_raw, item_id))
    if report.problems:
        return report  # nothing is written from an export that does not read cleanly
    held, here = _IdsHeld(paths, scope), ExportedHere(paths, scope, entropy_threshold)
    for target, data, clean, name, named_raw, item_id in planned:
        named_raw = named_raw or here.raw_twin(PurePosixPath(name))  # an export names it sealed
        if named_raw is not None and named_raw.exists():
            # the user's own file, named after a key, is here: the item is, and stays theirs
            # (its name, told sealed as `list` shows it); --replace gives it the export's
            # content as an import writes it
            name = seal_path(named_raw.relative_to(paths.root).as_posix(), entropy_threshold)
            if here.same(named_raw, data, clean):
                report.unchanged.append(name)
                continue
            if not replace:
                report.conflicts.append(name)
                continue
            target = named_raw
        elif target.exists():
            # the file as exported is already here (a secret typed into it stays the user's)
            if here.same(target, data, clean):
                report.unchanged.append(name)
                continue
            if not replace:
                report.conflicts.append(name)
                continue
        if item_id is not None and (other := held.elsewhere(item_id, target)) is not None:
            # a second file with an id already here would hide one of them from every read
            # (a duplicate id); renamed in the other clone, it is the user's to reconcile
            report.conflicts.append(f"{name} (its id '{item_id}' is already {other})")
            continue
        report.redacted += clean != data
        day = _kind(PurePosixPath(name)) == "journal"
        # under the day's lock, as `log` and the hooks append: an event logged while the day
        # is imported is in the day read here, or appended after it is written, never lost
        lock = day and not dry_run  # a dry run writes nothing: it waits for no one
        with locked(paths.locks_dir, f"journal-{target.name}") if lock else nullcontext():
            if day and target.exists():
                # a day is append-only: events logged here after the export was taken stay (a
                # day that appeared since the plan, from a `log` meanwhile, is merged too)
                clean += entries_only_in(target.read_bytes(), clean, target)
            if not dry_run:
                write_atomic(target, clean)
        if item_id is not None:
            held.add(item_id, target)
        report.written.append(name)
    return report
