"""Chroma's HNSW files never carry freed process memory (a key read before it was redacted).

Chroma (1.5, its hnswlib fork) writes a new segment's data_level0.bin and length.bin at full
capacity from buffers `malloc` did not clear (upstream chroma-core/chroma#7688); a memory under
1,000 vectors keeps those files as first written. The reproduction runs in a fresh process:
threads fill the C heap with blocks holding a key and free them (each thread's arena then goes
back to glibc's free list, where Chroma's worker threads pick it up), then lorestack indexes a
memory through its own sync. Before the fix length.bin held the key in 5 runs of 5 under pytest
(data_level0.bin too in 6 of 6 standalone runs).
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from lorestack.retrieval.hnsw_files import clear_segment

KEY = "ghp_Q7mZ2xK9vL4pR8tW1nB6cY3hJ5fD0sGaEu"

_FREED_THEN_INDEXED = textwrap.dedent('''
    import ctypes, sys, threading
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    KEY = sys.argv[1]
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    pins = []

    def churn():
        libc.free(libc.malloc(8 << 20))  # a freed mmapped block lifts glibc's mmap threshold
        held = []
        for _ in range(300):
            for size in (400, 1000, 3000, 200000):
                block = libc.malloc(size)
                ctypes.memmove(block, ((KEY + " ") * (size // len(KEY) + 1)).encode(), size)
                held.append(block)
                pins.append(libc.malloc(64))  # keeps freed blocks from merging away
        for block in held:
            libc.free(block)

    threads = [threading.Thread(target=churn) for _ in range(24)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seen = []  # the control: a new thread's uncleared block holds the key (glibc's arenas)

    def probe():
        block = libc.malloc(400)
        seen.append(KEY.encode() in ctypes.string_at(block, 400))
    probe_thread = threading.Thread(target=probe)
    probe_thread.start()
    probe_thread.join()
    print("freed memory reused:", seen[0])
    index = MemoryIndex(Memory.open(sys.argv[2]))
    index.sync()
    index.close()
''')


def _holding(folder: Path, key: str) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")
                  if p.is_file() and key.encode() in p.read_bytes())


def _write_deploy_steps(repo: Path) -> None:
    """Five facts, 'Deploy step N runs after the build.'"""
    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    for n in range(5):
        (facts / f"step-{n}.md").write_text(
            f"---\nid: fact-step-{n}\ntype: fact\ntitle: Deploy step {n}\n---\n\n"
            f"Deploy step {n} runs after the build.\n")


def test_hnsw_files_hold_no_freed_process_memory(repo):
    _write_deploy_steps(repo)
    proc = subprocess.run([sys.executable, "-c", _FREED_THEN_INDEXED, KEY, str(repo)],
                          capture_output=True, text=True, cwd=repo, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    if "freed memory reused: True" not in proc.stdout:  # another allocator (macOS, musl)
        pytest.skip("this C library does not hand freed blocks back uncleared here")
    chroma = repo / ".memory" / ".index" / "chroma"
    segments = [p.parent for p in chroma.rglob("header.bin")]
    assert segments, sorted(p.name for p in chroma.rglob("*"))  # the files under test exist
    assert _holding(repo / ".memory" / ".index", KEY) == []
    # the search still finds the facts through the vectors
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    index = MemoryIndex(Memory.open(repo))
    try:
        hits = index.search("when does deploy step 3 run", k=3, mode="vector")
    finally:
        index.close()
    assert hits and hits[0].id == "fact-step-3", [h.id for h in hits]


def _segment(tmp_path: Path, count: int, capacity: int, per: int, links: bytes) -> Path:
    segment = tmp_path / "seg"
    segment.mkdir()
    header = struct.pack("<iQQQQQQiIQQQdQ", 1, 0, capacity, count, per, per - 8, 4, 0, 0,
                         16, 32, 16, 0.36, 100)
    (segment / "header.bin").write_bytes(header)
    live = b"\x07" * (count * per)
    (segment / "data_level0.bin").write_bytes(live + KEY.encode().ljust((capacity - count) * per))
    (segment / "length.bin").write_bytes(b"\x01" * (count * 4) + KEY.encode()[:(capacity - count) * 4])
    (segment / "link_lists.bin").write_bytes(links + KEY.encode())
    return segment


def test_clearing_keeps_live_elements_and_sizes(tmp_path):
    """Only the slots past the live count are zeroed; the sizes stay, live bytes too."""
    links = struct.pack("<I", 0) + struct.pack("<I", 8) + b"\x05" * 8 + struct.pack("<I", 0)
    segment = _segment(tmp_path, count=3, capacity=20, per=60, links=links)
    sizes = {p.name: p.stat().st_size for p in segment.iterdir()}
    assert sorted(clear_segment(segment)) == ["data_level0.bin", "length.bin", "link_lists.bin"]
    assert {p.name: p.stat().st_size for p in segment.iterdir()} == sizes
    data = (segment / "data_level0.bin").read_bytes()
    assert data[:180] == b"\x07" * 180 and data[180:].count(0) == len(data) - 180
    assert (segment / "length.bin").read_bytes()[:12] == b"\x01" * 12
    assert (segment / "link_lists.bin").read_bytes()[:len(links)] == links
    assert _holding(segment, KEY) == []
    assert clear_segment(segment) == []  # clean: nothing written again


def test_a_folder_of_another_layout_is_left_alone(tmp_path):
    segment = _segment(tmp_path, count=3, capacity=20, per=60, links=b"")
    (segment / "header.bin").write_bytes(struct.pack("<i", 2) + bytes(96))  # unknown version
    assert clear_segment(segment) == []
    assert _holding(segment, KEY) != []


def test_a_segment_written_before_is_cleared_by_the_next_sync(repo):
    """A memory indexed before lorestack cleared the files (an upgrade): the first sync of a
    process clears them, though no file changed and no vector is written."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    (facts / "one.md").write_text("---\nid: fact-one\ntype: fact\ntitle: One\n---\n\nOne.\n")
    index = MemoryIndex(Memory.open(repo))
    index.sync()
    index.close()
    length = next((repo / ".memory" / ".index" / "chroma").rglob("length.bin"))
    data = bytearray(length.read_bytes())
    data[-len(KEY):] = KEY.encode()  # as Chroma left it before
    length.write_bytes(bytes(data))
    index = MemoryIndex(Memory.open(repo))
    try:
        assert not index.sync().changed
    finally:
        index.close()
    assert KEY.encode() not in length.read_bytes()


def _indexed_and_noted(repo: Path) -> Path:
    """One fact indexed, then a later sync that finds the segment clean and notes it; the
    segment folder."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.hnsw_files import NOTE
    from lorestack.retrieval.index import MemoryIndex

    facts = repo / ".memory" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    (facts / "one.md").write_text("---\nid: fact-one\ntype: fact\ntitle: One\n---\n\nOne.\n")
    for _ in range(2):
        index = MemoryIndex(Memory.open(repo))
        index.sync()
        index.close()
        time.sleep(2.1)  # files just written are not noted (their ctime tick may repeat)
    chroma = repo / ".memory" / ".index" / "chroma"
    segment = next(chroma.rglob("header.bin")).parent
    assert segment.name in json.loads((chroma / NOTE).read_text())["clean"]
    return segment


def test_a_clean_segment_is_not_walked_again(repo, monkeypatch):
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval import hnsw_files
    from lorestack.retrieval.index import MemoryIndex

    _indexed_and_noted(repo)
    walks = []

    def counted(path, count):
        walks.append(path)
        return _walk(path, count)

    _walk = hnsw_files._link_lists_end
    monkeypatch.setattr(hnsw_files, "_link_lists_end", counted)
    index = MemoryIndex(Memory.open(repo))
    try:
        assert not index.sync().changed
    finally:
        index.close()
    assert walks == []


@pytest.mark.parametrize("name", ["length.bin", "data_level0.bin"])
def test_a_noted_segment_changed_since_is_cleared_again(repo, name):
    """The note never hides a change: a file written after it was taken, with its size and
    mtime put back as they were, is checked and cleared by the next sync."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    path = _indexed_and_noted(repo) / name
    before = path.stat()
    data = bytearray(path.read_bytes())
    data[-len(KEY):] = KEY.encode()  # in the unused capacity, as Chroma left it before
    path.write_bytes(bytes(data))
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    index = MemoryIndex(Memory.open(repo))
    try:
        assert not index.sync().changed
    finally:
        index.close()
    assert KEY.encode() not in path.read_bytes()


def _past_live(segment: Path) -> dict[str, int]:
    """How many bytes are not zero past the live elements, per file."""
    fields = struct.unpack("<iQQQQQQiIQQQdQ", (segment / "header.bin").read_bytes()[:100])
    count, per = fields[3], fields[4]
    return {name: sum(1 for b in (segment / name).read_bytes()[start:] if b)
            for name, start in (("data_level0.bin", count * per), ("length.bin", count * 4))}


@pytest.mark.parametrize("args", [
    ("search", "when does deploy step 3 run", "--mode", "vector"),
    ("doctor",),
    ("hook", "prompt"),
])
def test_a_read_that_rewrites_the_segment_leaves_no_uncleared_memory(repo, args,
                                                                    long_hook_deadlines):
    """Under 1,000 vectors the HNSW graph is empty (count 0) and Chroma writes it again, at
    full capacity, the first time a process reads the collection: a search, doctor, a hook.
    Those processes write no vector, so nothing cleared after them until the next sync of
    another process; a key read by the reader stayed in the files meanwhile (found by CI in
    the thirty-first session). glibc's MALLOC_PERTURB_ makes every uncleared block visible
    (all its bytes 90), so the check does not hang on what the heap happened to hold. The
    hook's deadlines are long: under load its first answer came from BM25 alone, no read."""
    from tests.conftest import run_cli

    _write_deploy_steps(repo)
    assert run_cli("reindex", cwd=repo).returncode == 0
    segment = next((repo / ".memory" / ".index" / "chroma").rglob("header.bin")).parent
    assert _past_live(segment) == {"data_level0.bin": 0, "length.bin": 0}
    before = (segment / "data_level0.bin").stat().st_mtime_ns
    payload = json.dumps({"session_id": "s-read", "cwd": str(repo),
                          "hook_event_name": "UserPromptSubmit",
                          "prompt": "when does deploy step 3 run after the build?"})
    proc = run_cli(*args, cwd=repo, input=payload if args[0] == "hook" else None,
                   env={"MALLOC_PERTURB_": "165", "LORESTACK_SERVICE__ENABLED": "false"})
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    # the read did write the segment again (else this test shows nothing)
    assert (segment / "data_level0.bin").stat().st_mtime_ns != before
    assert _past_live(segment) == {"data_level0.bin": 0, "length.bin": 0}
