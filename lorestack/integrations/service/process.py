"""What the service asks of its own process and of a peer: resident memory, heap given back
to the system, and the peer's user."""

from __future__ import annotations

import os
import socket
import struct


def _rss_mb() -> float | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return None


def _malloc_trim() -> None:
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except Exception:  # noqa: BLE001 - not glibc (or no ctypes): nothing to hand back this way
        pass


def _fixed_mmap_threshold(size: int = 1 << 20) -> None:
    """glibc serves blocks from `size` up by mmap, handed back at free; by default the
    threshold grows up to 32 MB after such a free, and later big blocks then stay in the
    heaps, which malloc_trim gives back only in part (10k store, 40 long items synced:
    RSS quiet after 585 -> 535 MB, peak 636 -> 563 MB; docs/benchmarks.md, eighth session)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-3, size)  # M_MMAP_THRESHOLD
    except Exception:  # noqa: BLE001 - not glibc: its own policy
        pass


def _same_user(conn: socket.socket) -> bool:
    """The peer's uid (Linux SO_PEERCRED); elsewhere the 0700 folder is the only gate."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    try:
        _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, option, 12))
    except OSError:
        return True
    return uid == os.geteuid()
