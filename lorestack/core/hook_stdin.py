"""A hook's payload on stdin, read so that a client which keeps stdin open cannot hold it.

Clients write the hook payload (one JSON object) and close stdin; the hook reads to EOF. A
client that leaves stdin open would otherwise keep the hook waiting until the client's own
timeout kills it (ten seconds a prompt). So: with nothing at all for `IDLE_S`, there is no
payload; once bytes came, a pause of `LULL_S` is a moment to look whether they already form
one whole JSON value — then reading stops, otherwise it goes on (a payload arriving in slow
pieces is never cut short: a part of one is useless) until EOF or `MAX_S`.

Standard library only, and not `json` either: the thin hook path runs without `site`, and
importing `json` (with `re`, `enum`, `functools`) would cost every prompt ~12 ms. A client
that closes stdin is read to EOF and never scanned.
"""

from __future__ import annotations

import os
import select
import time

IDLE_S = 1.0  # nothing on stdin for this long: no payload
LULL_S = 0.05  # bytes came, then a pause this long: look whether they are whole
MAX_S = 10.0  # an unfinished payload still growing this long: stop (the client times out too)
# A hook's payload is at most this many bytes (`read_payload(limit=…)`); a longer one is read
# to its end but not kept, and stands as `oversize(size)`. 1 MiB holds any prompt a model can
# take (~250k tokens) and, re-escaped into a service request (3 bytes a byte at worst), fits
# the service's 4 MiB request cap, so every payload kept is answered by the warm service.
HOOK_PAYLOAD_MAX = 1 << 20
OVERSIZE_FIELD = "lorestack_oversize"
_SPACE = b" \t\r\n"


def oversize(size: int) -> bytes:
    """The payload that stands for one of `size` bytes over the limit (the hook refuses it)."""
    return b'{"%s": %d}' % (OVERSIZE_FIELD.encode(), size)


def read_payload(fd: int, idle_s: float = IDLE_S, max_s: float = MAX_S,
                 limit: int | None = None, prefix: bool = False) -> bytes:
    """The bytes on `fd` up to EOF, or up to a pause after which they form one whole JSON
    value, or nothing if no byte comes within `idle_s`. Past `limit` bytes the rest is read
    (a client writing it is not left blocked) but dropped, and `oversize(size)` returned;
    with `prefix`, the first `limit` bytes are returned instead (cut after a whole UTF-8
    character): the guardrail judges what it can of a tool call too big to read whole."""
    chunks: list[bytes] = []
    size = 0
    started = 0.0

    def over() -> bytes:
        return _whole_chars(b"".join(chunks)) if prefix else oversize(size)

    while True:
        ready, _, _ = select.select([fd], [], [], LULL_S if started else idle_s)
        if not ready:
            if not started:
                break
            if limit is not None and size > limit:
                return over()
            data = b"".join(chunks)
            if whole_json(data) or time.monotonic() - started > max_s:
                return data
            continue
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        if limit is None or size + len(chunk) <= limit:
            chunks.append(chunk)
        elif prefix and size < limit:
            chunks.append(chunk[:limit - size])
        size += len(chunk)
        if not started and chunk.strip(_SPACE):
            started = time.monotonic()
    return over() if limit is not None and size > limit else b"".join(chunks)


def _whole_chars(data: bytes) -> bytes:
    """`data` without a UTF-8 character cut at its end."""
    end = len(data)
    while end > 0 and len(data) - end < 3 and data[end - 1] & 0xC0 == 0x80:
        end -= 1  # continuation bytes
    if end > 0 and data[end - 1] >= 0xC0:  # a lead byte: whole if all its bytes are there
        need = 2 if data[end - 1] < 0xE0 else 3 if data[end - 1] < 0xF0 else 4
        if len(data) - end + 1 < need:
            return data[:end - 1]
    return data


def whole_json(data: bytes) -> bool:
    """Whether `data` is one complete JSON object or array (brackets balanced outside
    strings, nothing after the last one but whitespace). A bare scalar counts as whole only
    at EOF, so it is never taken for whole here."""
    text = data.strip(_SPACE)
    if not text or text[:1] not in (b"{", b"["):
        return False
    depth = 0
    in_string = escaped = False
    for i, byte in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x7B, 0x5B):  # { [
            depth += 1
        elif byte in (0x7D, 0x5D):  # } ]
            depth -= 1
            if depth == 0:
                return i == len(text) - 1
    return False
