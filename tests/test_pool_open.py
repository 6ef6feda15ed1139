"""The service's pool opens a project's index (and catches it up) outside its lock.

`IndexPool.get` caught a newly opened index up under the pool-wide lock: at a 100k store that
sync (the model loaded to embed what was written while no service ran) held every other
project's request behind it (twentieth session). Real stores, tantivy, Chroma, the ONNX model;
the opening is held by the pool's own `on_open` hook, so nothing here depends on time."""

from __future__ import annotations

import threading

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import remember
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.pool import IndexPool


def _project(tmp_path, name: str, fact: str) -> Memory:
    root = tmp_path / name
    root.mkdir()
    Memory.init(root)
    mem = Memory.open(root)
    remember(mem, fact, "fact")
    index = MemoryIndex(mem)
    index.sync()
    index.close()
    return Memory.open(root)


def test_another_project_is_served_while_one_index_is_being_opened(tmp_path):
    slow = _project(tmp_path, "big", "The reporting read replica is ORCHID-7 on port 6432")
    other = _project(tmp_path, "small", "Refunds go through the ledger service")
    remember(slow, "The billing export runs nightly at 02:00", "fact")  # no service watched
    held, release = threading.Event(), threading.Event()

    def opening(mem: Memory) -> None:
        if mem.primary.root == slow.primary.root:
            held.set()
            release.wait(60)  # (only a bound on a hang)

    pool = IndexPool(on_open=opening)
    got: dict[str, MemoryIndex] = {}
    first = threading.Thread(target=lambda: got.update(slow=pool.get(slow)))
    first.start()
    try:
        assert held.wait(60)
        served = threading.Thread(target=lambda: got.update(other=pool.get(other)))
        served.start()
        served.join(60)
        assert "other" in got and "slow" not in got  # served while the other opening is held
        hits = got["other"].search("ledger refunds", k=3, mode="bm25", sync=False)
        assert hits and "ledger" in hits[0].doc.text
        same = threading.Thread(target=lambda: got.update(again=pool.get(slow)))
        same.start()  # a second request for the opening index waits for it, not a second open
    finally:
        release.set()
        first.join(60)
    same.join(60)
    assert got["again"] is got["slow"]
    hits = got["slow"].search("billing export nightly", k=3, mode="bm25", sync=False)
    assert hits and "billing export" in hits[0].doc.text  # caught up at open, as before
    pool.close_all()
