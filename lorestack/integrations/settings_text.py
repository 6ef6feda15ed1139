"""Editing a client's JSON settings as text: keep its indentation and the exact text of every
top-level member the installer did not change (a user's file stays theirs, line by line)."""

from __future__ import annotations

import json
from dataclasses import dataclass

# the byte-order marks a Windows editor (or PowerShell's `>`) may start a file with
_BOMS = {"utf-8": b"\xef\xbb\xbf", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}
BOM_NAMES = {"utf-8": "a UTF-8 byte-order mark", "utf-16-le": "a UTF-16 byte-order mark (the "
             "file is saved as UTF-16)", "utf-16-be": "a UTF-16 big-endian byte-order mark"}


@dataclass(frozen=True)
class FileText:
    """A settings file's text, and the byte-order mark it began with (None: plain UTF-8), so
    it is written back as it was saved."""
    text: str
    bom: str | None = None

    @classmethod
    def of(cls, raw: bytes) -> FileText:
        """Raises UnicodeDecodeError when the bytes are not text in that encoding."""
        for name, mark in _BOMS.items():
            if raw.startswith(mark):
                return cls(raw[len(mark):].decode(name), name)
        return cls(raw.decode("utf-8"))

    def encode(self, text: str) -> bytes:
        """`text` in this file's encoding, its byte-order mark first."""
        if self.bom is None:
            return text.encode("utf-8")
        return _BOMS[self.bom] + text.encode(self.bom)


def _indent_of(text: str | None) -> str:
    """The file's indentation unit (two spaces for a new file)."""
    for line in (text or "").splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and line != stripped:
            return line[: len(line) - len(stripped)]
    return "  "


def _members(text: str) -> list[tuple[str, int, int, int]] | None:
    """(key, member start, value start, value end) of each top-level member, or None when the
    text is not one plain JSON object."""
    decoder = json.JSONDecoder()
    ws = " \t\r\n"
    i = len(text) - len(text.lstrip(ws))
    if not text.startswith("{", i):
        return None
    i += 1
    spans: list[tuple[str, int, int, int]] = []
    while True:
        while i < len(text) and text[i] in ws:
            i += 1
        if text.startswith("}", i):
            break
        if spans:
            if not text.startswith(",", i):
                return None
            i += 1
            while i < len(text) and text[i] in ws:
                i += 1
        start = i
        try:
            key, i = decoder.raw_decode(text, i)
            while text[i] in ws:
                i += 1
            if text[i] != ":":
                return None
            i += 1
            while text[i] in ws:
                i += 1
            _, end = decoder.raw_decode(text, i)
        except (ValueError, IndexError):
            return None
        if not isinstance(key, str):
            return None
        spans.append((key, start, i, end))
        i = end
    return spans


def _dump(value, indent: str, ascii_only: bool, level: int = 0) -> str:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    return text.replace("\n", "\n" + indent * level) if level else text


def render_json(original_text: str | None, original: dict, data: dict) -> str:
    """`data` as text, changing only the top-level members that differ from `original` and
    keeping the file's indentation; falls back to a whole re-serialisation (same indentation)
    when the text is not laid out as one plain object."""
    indent = _indent_of(original_text)
    ascii_only = "\\u" in (original_text or "")
    if not original_text or not original_text.strip():
        return _dump(data, indent, ascii_only) + "\n"
    if "\n" not in original_text.strip():  # a one-line file stays on one line
        compact = '": ' not in original_text and '", ' not in original_text
        separators = (",", ":") if compact else (", ", ": ")
        return json.dumps(data, ensure_ascii=ascii_only, separators=separators) + "\n"
    spans = _members(original_text)
    ending = "" if original_text.endswith("\n") else "\n"
    if spans is None or [k for k, *_ in spans] != [k for k in original] or len(set(original)) != len(spans):
        return _dump(data, indent, ascii_only) + "\n"
    text = original_text
    # edit from the end so earlier offsets stay valid
    for key, start, vstart, vend in reversed(spans):
        if key not in data:
            # drop the member with the comma that joins it to its neighbour
            before = text[:start].rstrip()
            if before.endswith(","):
                text = before[:-1] + text[vend:]
            else:
                after = text[vend:]
                stripped = after.lstrip()
                text = text[:start] + (stripped[1:].lstrip() if stripped.startswith(",") else after)
        elif data[key] != original[key]:
            text = text[:vstart] + _dump(data[key], indent, ascii_only, 1) + text[vend:]
    new_keys = [k for k in data if k not in original]
    if new_keys:
        close = text.rstrip().rfind("}")
        body = text[:close].rstrip()
        has_members = not body.endswith("{")
        added = "".join(
            f"{',' if has_members or n else ''}\n{indent}{json.dumps(k, ensure_ascii=ascii_only)}: "
            f"{_dump(data[k], indent, ascii_only, 1)}" for n, k in enumerate(new_keys))
        text = body + added + "\n" + text[close:]
    try:
        if json.loads(text) != data:
            raise ValueError
    except ValueError:
        return _dump(data, indent, ascii_only) + "\n"
    return text + ending if text.strip() != "{}" else "{}\n"
