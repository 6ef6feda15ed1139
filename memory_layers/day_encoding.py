"""How a journal day file's bytes are read: UTF-8 as lorestack writes it, a stray non-UTF-8
byte as U+FFFD, and a day an editor saved as UTF-16 (Notepad's "Unicode") as UTF-16, along with
any entries appended to it in UTF-8 since."""

from __future__ import annotations

import re

from lorestack.core import legacy

SAVED_AS_UTF16 = ("saved as UTF-16 (its entries are read): `lorestack doctor --repair` rewrites "
                  "it as UTF-8, as lorestack writes days, and so does the next entry logged to it")
UTF16_THEN_UTF8 = ("saved as UTF-16 up to line {}, entries appended in UTF-8 after it; all are read. "
                   "Do not re-save it in an editor (it would read the UTF-8 entries as UTF-16 and "
                   "garble them): `lorestack doctor --repair` rewrites it all as UTF-8")
NOT_UTF8 = ("not valid UTF-8 (byte {}); its entries are read with U+FFFD in place of the bad "
            "bytes — re-save it as UTF-8")


def utf16_day(raw: bytes) -> bool:
    """Whether a day's bytes (its first 64 will do) are saved as UTF-16."""
    from lorestack.memory_layers.markdown import saved_as_utf16

    return b"\x00" in raw[:4096] and saved_as_utf16(raw)


# the heading lorestack writes over each entry ("## 14:03 · decision · ev-…"), in UTF-8
_HEADING = re.compile(rb"## \d\d:\d\d \xc2\xb7 [^\x00\n]*\n\Z")


def _utf8_tail(raw: bytes) -> int:
    """Where a day saved as UTF-16 turns to UTF-8: entries appended after the editor's save
    (by `log` or a hook, as lorestack did before it looked). The tail starts at the heading of
    the first UTF-8 entry (less the newline an append puts after a day not ending in one); a
    day without that heading, after the last NUL byte before the entry's opening comment."""
    found = [raw.find(f"<!-- {name}:event ".encode()) for name in legacy.names()]
    first = min((at for at in found if at >= 0), default=-1)
    if first < 0:
        return len(raw)
    window = raw[max(0, first - 400):first]
    heading = _HEADING.search(window)
    if heading is not None:
        cut = first - len(window) + heading.start()
        if cut % 2 and raw[cut - 1:cut] == b"\n":
            cut -= 1
        if cut % 2 == 0:
            return cut
    cut = raw.rfind(b"\x00", 0, first) + 1
    return cut + cut % 2


def _parts(raw: bytes) -> tuple[bytes, str, bytes]:
    """(UTF-16 head, its codec, UTF-8 tail) of a day saved as UTF-16."""
    cut = _utf8_tail(raw)
    head = raw[:cut]
    codec = ("utf-16" if head.startswith((b"\xff\xfe", b"\xfe\xff"))
             else "utf-16-be" if not any(head[:64:2]) else "utf-16-le")
    return head, codec, raw[cut:]


def exact_utf16_day(raw: bytes) -> str | None:
    """A day saved as UTF-16 as text when every byte of both parts decodes as written (what
    may replace the file); None when any would be read as U+FFFD."""
    head, codec, tail = _parts(raw)
    try:
        return head.decode(codec) + tail.decode("utf-8")
    except UnicodeDecodeError:
        return None


def decode_day(raw: bytes) -> tuple[str, str, int]:
    """A day file's text, what is to be said of its encoding ("" for UTF-8) and its line.

    One stray byte (a Latin-1 character typed in an editor) does not hide the day: the bad
    bytes read as U+FFFD. A day an editor saved as UTF-16 is read as UTF-16, and the entries
    appended to it in UTF-8 since as UTF-8: each part as it was written."""
    if utf16_day(raw):
        head, codec, tail = _parts(raw)
        text = head.decode(codec, errors="replace")
        if not tail:
            return text, SAVED_AS_UTF16, 1
        line = text.count("\n") + 1
        return text + tail.decode("utf-8", errors="replace"), UTF16_THEN_UTF8.format(line), 1
    try:
        return raw.decode("utf-8"), "", 0
    except UnicodeDecodeError as exc:
        return (raw.decode("utf-8", errors="replace"), NOT_UTF8.format(exc.start),
                raw.count(b"\n", 0, exc.start) + 1)
