"""Zero what Chroma's HNSW files hold past their live elements.

Chroma's vector segment (its fork of hnswlib, as of chromadb 1.5) creates `data_level0.bin`
and `length.bin` by writing the whole in-memory buffers at their full capacity (100 elements
at first), and those buffers come from `malloc` without being cleared (upstream
chroma-core/chroma#7688). Whatever the process freed before lands in the unused slots: file
text read before it was redacted, a key typed into a file name. A small memory keeps those
files for good, as Chroma fills the slots only once 1,000 vectors wait in its log.

Later writes touch only the live elements (each one cleared before use) and append past the
end, so clearing the slots past the live count once after Chroma wrote is enough; a check of
an already clean segment reads its header and its free tail (at most ~170 kB) and writes
nothing. The file sizes stay as Chroma wrote them (it reads them back at that capacity).

Runs inside the index-sync lock, right after a Chroma write, so no other lorestack process
is adding elements to the same files meanwhile.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

# header.bin: version, offsetLevel0, max_elements, cur_element_count, size_data_per_element,
# label_offset, offsetData, maxlevel, enterpoint_node, maxM, maxM0, M, mult, ef_construction
_HEADER = struct.Struct("<iQQQQQQiIQQQdQ")
_VERSION = 1
_BLOCK = 1 << 16


def _free_from(path: Path, start: int) -> bool:
    """Zero `path` from byte `start` to its end; True when anything was not zero already."""
    size = path.stat().st_size
    if start >= size:
        return False
    dirty = False
    with path.open("r+b") as handle:
        handle.seek(start)
        at = start
        while at < size:
            block = handle.read(min(_BLOCK, size - at))
            if not block:
                break
            if block.count(0) != len(block):
                dirty = True
                handle.seek(at)
                handle.write(bytes(len(block)))
            at += len(block)
        if dirty:
            handle.flush()
            os.fsync(handle.fileno())
    return dirty


def _link_lists_end(path: Path, count: int) -> int | None:
    """Where the `count` live records of link_lists.bin end (a u32 length, then that many
    bytes each); None when the file does not hold them (then it is left alone)."""
    data = path.read_bytes()
    at = 0
    for _ in range(count):
        if at + 4 > len(data):
            return None
        (length,) = struct.unpack_from("<I", data, at)
        at += 4 + length
        if at > len(data):
            return None
    return at


def clear_segment(segment: Path) -> list[str]:
    """Zero the unused capacity of one HNSW segment folder; the names of the files that held
    something there. A folder that is not a segment of the known layout is left alone."""
    try:
        raw = (segment / "header.bin").read_bytes()[:_HEADER.size]
    except OSError:
        return []
    if len(raw) < _HEADER.size:
        return []
    fields = _HEADER.unpack(raw)
    version, max_elements, count, per_element = fields[0], fields[2], fields[3], fields[4]
    if version != _VERSION or per_element == 0 or count > max_elements:
        return []
    cleared = []
    for name, start in (("data_level0.bin", count * per_element), ("length.bin", count * 4)):
        path = segment / name
        if path.is_file() and _free_from(path, start):
            cleared.append(name)
    links = segment / "link_lists.bin"
    if links.is_file():
        end = _link_lists_end(links, count)
        if end is not None and _free_from(links, end):
            cleared.append(links.name)
    return cleared


def clear_unused_capacity(chroma_dir: Path) -> list[str]:
    """Every HNSW segment under a local Chroma folder, as `clear_segment`; never raises (a
    file Chroma holds differently is kept as it is)."""
    cleared: list[str] = []
    try:
        segments = [p for p in chroma_dir.iterdir() if (p / "header.bin").is_file()]
    except OSError:
        return cleared
    for segment in segments:
        try:
            cleared += [f"{segment.name}/{name}" for name in clear_segment(segment)]
        except (OSError, struct.error):
            continue
    return cleared
