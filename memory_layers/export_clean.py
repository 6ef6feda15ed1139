"""An export record as it may leave the process: a secret typed into a memory file by hand is
redacted, as `import-memory` would redact it on the way in (`portable._redacted`), and a file
name or id holding one is sealed (`portable._sealed_names`). The line's `sha256` is the hash of
what is written, so `import-memory` reads the redacted export back as it is.

`clean_record` returns the record and the names (sealed ids, or the file's sealed path when
it names no item) whose text was redacted, for the export to say how many and which.
"""

from __future__ import annotations

import hashlib
from pathlib import Path, PurePosixPath

from lorestack.memory_layers.secret_guard import has_secret, redact_all


def clean_record(record: dict, rel: PurePosixPath, path: Path, raw: bytes, scope: str,
                 threshold: float) -> tuple[dict, list[str]]:
    """`record` (from `portable.export_records`, with its `text`) without a secret in its
    text, path or parsed fields; the names redacted (empty when nothing was)."""
    from lorestack.memory_layers import portable
    from lorestack.memory_layers.markdown import parse_item
    from lorestack.memory_layers.sealed_names import seal

    if "base64" in record or "\x00" in record["text"]:
        return clean_bytes(record, rel, path, raw, threshold)
    text = record["text"]
    new_rel, data = portable.sealed_path(rel, threshold), raw
    item = None
    if record["kind"] == "item" and "item" in record:
        item = parse_item(path, raw, default_type=portable._default_type(rel), default_scope=scope)
        sealed = portable._sealed_names(rel, raw, item, threshold)
        if sealed is not None:
            new_rel, data = sealed
    if new_rel == rel and not has_secret(text, threshold):
        return record, []
    names: list[str] = []
    if record["kind"] in ("item", "journal") and "problem" not in record:
        clean = portable._redacted(data, new_rel, path, scope, threshold)
    else:  # settings, notes, or an item that does not parse: its text as a whole
        clean = redact_all(data.decode("utf-8"), threshold)[0].encode("utf-8")
    out = {**record, "path": str(new_rel), "sha256": hashlib.sha256(clean).hexdigest(),
           "text": clean.decode("utf-8")}
    if item is not None:
        cleaned = parse_item(path, clean, default_type=portable._default_type(new_rel),
                             default_scope=scope)
        out["item"] = {**cleaned.frontmatter(), "body": cleaned.body}
        names.append(cleaned.id)
    elif record["kind"] == "journal":
        from lorestack.memory_layers.journal import parse_journal_text

        events = parse_journal_text(clean.decode("utf-8"), path).events
        out["events"] = [e.model_dump(mode="json", by_alias=True, exclude_none=True)
                         for e in events]
        raw_events = parse_journal_text(text, path).events
        names.extend(seal(e.id, threshold) for e in raw_events
                     if has_secret(e.text, threshold) or has_secret(e.id, threshold))
    if not names:
        names.append(str(new_rel))
    return out, names


def clean_bytes(record: dict, rel: PurePosixPath, path: Path, raw: bytes,
                threshold: float) -> tuple[dict, list[str]]:
    """A file that is not plain UTF-8 text holding a secret: a note saved as Latin-1 or UTF-16
    (the latter, for ASCII characters, is UTF-8 with NUL bytes, where the guard reads no key),
    or a binary file (an image, a .md holding NUL bytes) with a key inside. What the guard finds
    in its bytes is replaced by the marker, in place (`secret_bytes`); its other bytes are kept.
    A binary file was once exported as it was, key and all."""
    import base64

    from lorestack.memory_layers import portable
    from lorestack.memory_layers.secret_bytes import redact_bytes

    new_rel = portable.sealed_path(rel, threshold)
    clean, kinds = redact_bytes(raw, threshold)
    if not kinds and new_rel == rel:
        return record, []
    out = {**record, "path": str(new_rel), "sha256": hashlib.sha256(clean).hexdigest()}
    try:
        text = clean.decode("utf-8") if "text" in record else None
    except UnicodeDecodeError:  # a marker may split what read as UTF-8: bytes then
        text = None
    if text is None:
        out.pop("text", None)
        out.pop("events", None)
        out.update(kind="file", base64=base64.b64encode(clean).decode("ascii"))
    else:
        out["text"] = text
    if "events" in out and text is not None:
        from lorestack.memory_layers.journal import parse_journal_text

        out["events"] = [e.model_dump(mode="json", by_alias=True, exclude_none=True)
                         for e in parse_journal_text(text, path).events]
    return out, [str(new_rel)]


def safe_problem(record: dict, threshold: float) -> dict:
    """A record's `problem` (a parse error can quote the file's text) redacted."""
    if "problem" in record and has_secret(record["problem"], threshold):
        record = {**record, "problem": redact_all(record["problem"], threshold)[0]}
    return record


class ExportedHere:
    """The files of the memory an export is read into, as an export would hold them: a line
    redacted (or named sealed) from a file here is that file, not a change or a new file.
    Without it, an export read back into its own memory reported each file holding a secret as
    a conflict, and wrote a sealed twin beside each file named after a key."""

    def __init__(self, paths, scope: str, threshold: float):
        self.paths, self.scope, self.threshold = paths, scope, threshold
        self._twins: dict[PurePosixPath, Path] | None = None

    def same(self, path: Path, data: bytes, clean: bytes) -> bool:
        """Whether the file at `path` is the line's content (`data` as exported, `clean` as
        it would be written), once redacted as `export` redacts it."""
        from lorestack.memory_layers import portable
        from lorestack.memory_layers.markdown import parse_item

        current = path.read_bytes()
        if current in (data, clean):
            return True
        rel = PurePosixPath(path.relative_to(self.paths.root).as_posix())
        try:
            text = current.decode("utf-8")
        except UnicodeDecodeError:
            text = "\x00"
        if "\x00" in text:  # bytes, exported as `clean_bytes` redacts them
            from lorestack.memory_layers.secret_bytes import redact_bytes

            return redact_bytes(current, self.threshold)[0] in (data, clean)
        record: dict = {"kind": portable._kind(rel), "path": str(rel), "text": text}
        if record["kind"] == "item":
            try:
                parse_item(path, current, default_type=portable._default_type(rel),
                           default_scope=self.scope)
                record["item"] = {}
            except Exception:  # noqa: BLE001 - a file that does not parse: its text as a whole
                record["problem"] = "unreadable"
        try:
            out = clean_record(record, rel, path, current, self.scope, self.threshold)[0]
        except Exception:  # noqa: BLE001 - not comparable: a conflict, which keeps the file
            return False
        return out["text"].encode("utf-8") in (data, clean)

    def raw_twin(self, rel: PurePosixPath) -> Path | None:
        """The file here whose name, sealed, is `rel` (an export names a file named after a
        key sealed)."""
        from lorestack.memory_layers import portable

        if not any("redacted-" in part for part in rel.parts):
            return None
        if self._twins is None:
            self._twins = {}
            for path in portable.memory_files(self.paths):
                raw = PurePosixPath(path.relative_to(self.paths.root).as_posix())
                sealed = portable.sealed_path(raw, self.threshold)
                if sealed != raw:
                    self._twins[sealed] = path
        return self._twins.get(rel)
