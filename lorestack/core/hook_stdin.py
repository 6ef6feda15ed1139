"""A hook's payload on stdin, read so that a client which keeps stdin open cannot hold it.

Clients write the hook payload (one JSON object) and close stdin; the hook reads to EOF. A
client that leaves stdin open would otherwise keep the hook waiting until the client's own
timeout kills it (ten seconds a prompt). Standard library only: the thin hook path uses it.
"""

from __future__ import annotations

import json
import os
import select

IDLE_S = 1.0  # stdin left open: stop reading after this long without a byte


def read_payload(fd: int, idle_s: float = IDLE_S) -> bytes:
    """The bytes on `fd` up to EOF, or up to the moment they form one whole JSON document, or
    until `idle_s` passes without a byte."""
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([fd], [], [], idle_s)
        if not ready:
            break
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        if chunk.rstrip().endswith(b"}"):
            try:
                json.loads(b"".join(chunks))
            except ValueError:
                continue
            break
    return b"".join(chunks)
