"""Opening the lexical index leaves its schema stamp alone. Every open rewrote
`tantivy/lorestack-schema` in place (truncate, then write), so a hook opening the index at the
same moment read it empty: "built with schema '', this version writes 4" — its recall degraded
to catalog titles, and a sync seeing it would drop and rebuild the whole lexical index. Six
parallel prompt hooks of one project, run six times, left at least 12 such lines in hooks.log
before; eighteen after left none."""

from __future__ import annotations

from lorestack.memory_layers.operations import remember
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.lexical import SCHEMA_VERSION, LexicalIndex


def test_opening_the_index_does_not_rewrite_its_schema_stamp(mem):
    remember(mem, "Refunds go through the ledger service", "decision")
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
    finally:
        index.close()
    folder = mem.primary.index_dir / "tantivy"
    stamp = folder / "lorestack-schema"
    before = stamp.stat()
    for create in (False, True):  # a reader's open, a writer's open
        LexicalIndex(folder).open(create=create)
    after = stamp.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert stamp.read_text() == str(SCHEMA_VERSION)


def test_a_new_index_gets_its_stamp(tmp_path):
    folder = tmp_path / "tantivy"
    LexicalIndex(folder).open(create=True)
    assert (folder / "lorestack-schema").read_text() == str(SCHEMA_VERSION)
