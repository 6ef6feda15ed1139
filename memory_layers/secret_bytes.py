"""The secret guard run over bytes that are not UTF-8 text: a note saved as Latin-1 or UTF-16,
a markdown file holding a stray NUL, an image or any other binary file copied into the memory.

The detector is the guard's own (`secret_guard.redact_all`, the same rules); only the way the
bytes are read as text differs. Each view maps characters back to bytes one to one, so what is
redacted is replaced in place and every other byte is kept:

- one byte per character (Latin-1): a key typed in any ASCII-compatible encoding, or sitting
  as plain ASCII inside a binary file;
- two bytes per character (UTF-16, read at an even and at an odd offset, which covers both byte
  orders): a key in a file an editor saved as UTF-16, with or without its byte-order mark.
  Looked at only when the bytes hold a NUL, as UTF-16 text of ASCII characters always does.
"""

from __future__ import annotations

from lorestack.memory_layers.secret_guard import redact_all


def _utf16_view(raw: bytes, offset: int, threshold: float) -> tuple[bytes, list[str]]:
    """`raw` with what the guard finds when its bytes from `offset` are read as UTF-16-LE
    redacted (the marker written in UTF-16 too); the bytes outside whole code units kept."""
    end = offset + (len(raw) - offset) // 2 * 2
    # surrogatepass: any byte pairs decode, and encode back to the same bytes
    text = raw[offset:end].decode("utf-16-le", "surrogatepass")
    clean, kinds = redact_all(text, threshold)
    if not kinds:
        return raw, []
    return raw[:offset] + clean.encode("utf-16-le", "surrogatepass") + raw[end:], kinds


def redact_bytes(raw: bytes, threshold: float = 4.2) -> tuple[bytes, list[str]]:
    """(`raw` with every secret the guard finds in it replaced by its marker, kinds found)."""
    text = raw.decode("latin-1")  # every byte one character: the offsets are the bytes'
    clean_text, kinds = redact_all(text, threshold)
    clean = clean_text.encode("latin-1") if kinds else raw
    found = set(kinds)
    if b"\x00" in clean:
        for offset in (0, 1):
            clean, more = _utf16_view(clean, offset, threshold)
            found.update(more)
    return clean, sorted(found)


def redact_file(data: bytes, threshold: float = 4.2) -> bytes:
    """A file's content with every secret replaced: as text when it is UTF-8 without a NUL
    (kept byte for byte when it holds none), else as bytes (`redact_bytes`)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        return redact_bytes(data, threshold)[0]
    clean, kinds = redact_all(text, threshold)
    return clean.encode("utf-8") if kinds else data
