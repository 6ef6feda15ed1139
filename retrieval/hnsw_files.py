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

Finding where link_lists.bin's live records end walks all of them in Python (~29 ms at 100k
vectors), and every process's first sync checks once. So a segment found clean is noted in
`lorestack-clean.json` beside the segments with each file's inode, size, mtime and ctime and
the header's counts; while all of them are unchanged the segment is not read again. Any write
moves a file's ctime (which nothing can set back), and a note is taken only of files whose
ctime is at least `_SETTLED_NS` old, so a write in the same timestamp tick as the check cannot
hide behind an equal ctime.
"""

from __future__ import annotations

import json
import os
import struct
import time
from pathlib import Path

# header.bin: version, offsetLevel0, max_elements, cur_element_count, size_data_per_element,
# label_offset, offsetData, maxlevel, enterpoint_node, maxM, maxM0, M, mult, ef_construction
_HEADER = struct.Struct("<iQQQQQQiIQQQdQ")
_VERSION = 1
_BLOCK = 1 << 16
_FILES = ("header.bin", "data_level0.bin", "length.bin", "link_lists.bin")
NOTE = "lorestack-clean.json"
_NOTE_VERSION = 1
# a file changed more recently than this is not trusted by its stat (coarse file timestamps)
_SETTLED_NS = 2_000_000_000


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


def _stamp(segment: Path) -> list[int] | None:
    """What identifies the segment's files as they are now: inode, size, mtime and ctime of
    each, and the header's leading bytes (its counts); None when one is missing."""
    stamp: list[int] = []
    try:
        for name in _FILES:
            st = (segment / name).stat()
            stamp += [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]
        with (segment / "header.bin").open("rb") as handle:
            stamp += list(handle.read(_HEADER.size))
    except OSError:
        return None
    return stamp


def _settled(stamp: list[int]) -> bool:
    """Every file's ctime at least `_SETTLED_NS` in the past (ctime is each file's 4th field)."""
    before = time.time_ns() - _SETTLED_NS
    return all(stamp[4 * n + 3] <= before for n in range(len(_FILES)))


def _read_note(chroma_dir: Path) -> dict[str, list[int]]:
    try:
        note = json.loads((chroma_dir / NOTE).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(note, dict) or note.get("version") != _NOTE_VERSION:
        return {}
    segments = note.get("clean")
    return segments if isinstance(segments, dict) else {}


def _write_note(chroma_dir: Path, clean: dict[str, list[int]]) -> None:
    """Atomically (a torn note only costs a walk, but an unreadable one every time)."""
    temp = chroma_dir / f".{NOTE}.{os.getpid()}"
    try:
        temp.write_text(json.dumps({"version": _NOTE_VERSION, "clean": clean}), "utf-8")
        os.replace(temp, chroma_dir / NOTE)
    except OSError:  # a read-only store: checked again next time
        try:
            temp.unlink(missing_ok=True)
        except OSError:
            pass


def clear_unused_capacity(chroma_dir: Path) -> list[str]:
    """Every HNSW segment under a local Chroma folder, as `clear_segment`, skipping those
    noted clean whose files are unchanged since; never raises (a file Chroma holds
    differently is kept as it is)."""
    cleared: list[str] = []
    try:
        segments = [p for p in chroma_dir.iterdir() if (p / "header.bin").is_file()]
    except OSError:
        return cleared
    noted = _read_note(chroma_dir)
    clean: dict[str, list[int]] = {}
    for segment in segments:
        stamp = _stamp(segment)
        if stamp is not None and noted.get(segment.name) == stamp:
            clean[segment.name] = stamp
            continue
        try:
            cleared += [f"{segment.name}/{name}" for name in clear_segment(segment)]
        except (OSError, struct.error):
            continue
        stamp = _stamp(segment)  # after any zeroing, which moved its ctime (noted next time)
        if stamp is not None and _settled(stamp):
            clean[segment.name] = stamp
    if clean != noted:
        _write_note(chroma_dir, clean)
    return cleared


def vector_count(chroma_dir: Path) -> int:
    """How many vectors the local HNSW segments under `chroma_dir` hold, from their headers
    (100 bytes each; what a first dense search loads grows with it); 0 when there is none."""
    total = 0
    try:
        segments = [p / "header.bin" for p in chroma_dir.iterdir()]
    except OSError:
        return 0
    for header in segments:
        try:
            with header.open("rb") as handle:
                total += _HEADER.unpack(handle.read(_HEADER.size))[3]
        except (OSError, struct.error):
            continue
    return total
