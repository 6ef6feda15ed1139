"""A moved, renamed or copied store is not read again: the catalog names files relative to
their store. An old catalog (version 2, absolute paths) is converted once, not rebuilt.

What the sync does is counted where it happens: the markdown parser, the lexical index's
writes, Chroma's upserts and metadata updates."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import remember
from lorestack.retrieval import sync as sync_module
from lorestack.retrieval.documents import IndexDoc, merge_docs
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.lexical import LexicalIndex
from lorestack.retrieval.vectors import VectorStore

from .retrieval_helpers import build_corpus


@pytest.fixture
def work(monkeypatch):
    """Counts of what syncs did: files parsed, docs written to tantivy, chunks embedded and
    chunks whose Chroma metadata was rewritten."""
    counts = {"parsed": 0, "lexical": 0, "embedded": 0, "metadata": 0}
    parse, apply = sync_module.parse_source, LexicalIndex.apply
    upsert, update = VectorStore.upsert, VectorStore.update_metadata

    def parsing(*args, **kwargs):
        counts["parsed"] += 1
        return parse(*args, **kwargs)

    def applying(self, docs, deletes):
        docs = list(docs)
        counts["lexical"] += len(docs)
        return apply(self, docs, deletes)

    def upserting(self, ids, vectors, metas):
        counts["embedded"] += len(ids)
        return upsert(self, ids, vectors, metas)

    def updating(self, ids, metas):
        counts["metadata"] += len(ids)
        return update(self, ids, metas)

    monkeypatch.setattr(sync_module, "parse_source", parsing)
    monkeypatch.setattr(LexicalIndex, "apply", applying)
    monkeypatch.setattr(VectorStore, "upsert", upserting)
    monkeypatch.setattr(VectorStore, "update_metadata", updating)
    return counts


def _aged(mem) -> None:
    """Every memory file's mtime an hour back: a sync then checks them well after their last
    change, so the next sync trusts their stat (a file checked within `RACY_NS` of its
    mtime is hashed again)."""
    hour_ago = time.time_ns() - 3600 * 10**9
    for src in sync_module.list_sources(mem):
        os.utime(src.path, ns=(hour_ago, hour_ago))


def _indexed(mem) -> dict[str, str]:
    ids = build_corpus(mem)
    _aged(mem)
    index = MemoryIndex(mem, warn=lambda m: None)
    try:
        index.sync()
    finally:
        index.close()
    return ids


def _moved(repo: Path, to: Path, monkeypatch) -> Memory:
    os.rename(repo, to)
    monkeypatch.chdir(to)
    return Memory.open(to)


def _consistent(index) -> None:
    """The docs table is what a full reconcile of the files table gives, with paths of now."""
    catalog = index.catalog
    desired, _problems = merge_docs({p: d for p, (d, _q) in catalog.file_docs().items()})
    states = catalog.doc_states()
    assert {i: s.doc_hash for i, s in states.items()} == {i: d.doc_hash for i, d in desired.items()}
    assert all(s.lex_hash == s.doc_hash and s.vec_meta == s.doc_hash for s in states.values())
    root = str(index.mem.project.root)
    for doc in catalog.get_docs(list(states)).values():
        assert Path(doc.path).is_file() and doc.path.startswith(root + os.sep)


def test_a_moved_store_is_not_parsed_indexed_or_embedded_again(repo, mem, work, monkeypatch):
    broken = mem.project.root / "facts" / "broken.md"
    broken.write_text("---\nid: [unclosed\n---\nno valid frontmatter\n")
    ids = _indexed(mem)
    assert work["parsed"] > 5 and work["embedded"] > 5
    work.update(parsed=0, lexical=0, embedded=0, metadata=0)
    moved = _moved(repo, repo.parent / "renamed", monkeypatch)
    index = MemoryIndex(moved, warn=lambda m: None)
    try:
        report = index.sync()
        assert work == {"parsed": 0, "lexical": 0, "embedded": 0, "metadata": 0}
        assert report.files_read == 0 and not report.changed
        # a file's problem, recorded before the move, names where the file is now
        assert any(str(moved.project.root / "facts" / "broken.md") in p for p in report.problems)
        assert not any(str(repo) + os.sep in p for p in report.problems)
        hits = index.search("Redis streams queue", k=3)
        assert hits and all(h.doc.path.startswith(str(moved.project.root) + os.sep) for h in hits)
        _consistent(index)
        # a hand edit after the move is still found, and only that file is parsed
        path = Path(index.catalog.get_docs([ids["db"]])[ids["db"]].path)
        path.write_text(path.read_text() + "\nThe replica lags by a second at most.\n")
        report = index.sync()
        assert work["parsed"] == 1 and report.updated == 1 and work["embedded"] == 1
        _consistent(index)
    finally:
        index.close()


def test_a_copied_store_keeps_its_own_index(repo, mem, work, monkeypatch):
    _indexed(mem)
    copy = repo.parent / "clone"
    shutil.copytree(repo, copy, symlinks=True)  # the index folder travels with the store
    monkeypatch.chdir(copy)
    cloned = Memory.open(copy)
    added = remember(cloned, "the clone deploys to the blue cluster only", "fact").item.id
    index = MemoryIndex(cloned, warn=lambda m: None)
    try:
        report = index.sync()
        assert report.added == 1 and work["parsed"] > 0
        assert added in index.catalog.doc_states()
    finally:
        index.close()
    monkeypatch.chdir(repo)
    original = MemoryIndex(Memory.open(repo), warn=lambda m: None)
    try:
        original.sync()
        assert added not in original.catalog.doc_states()
        assert all(h.id != added for h in original.search("blue cluster deploys", k=5))
    finally:
        original.close()


def _as_version_2(mem) -> None:
    """Rewrite a catalog as the version before relative keys wrote it: files and doc paths
    absolute (the doc hashes, and the index marks that held them, over those paths), no keys
    or check times."""
    index = MemoryIndex(mem, warn=lambda m: None)
    catalog, roots = index.catalog, index.catalog.roots
    db = catalog.db
    rows = db.execute("SELECT path, kind, mtime_ns, size, sha, docs, problems FROM files").fetchall()
    db.execute("DROP TABLE files")
    db.execute("CREATE TABLE files (path TEXT PRIMARY KEY, kind TEXT, mtime_ns INTEGER, "
               "size INTEGER, sha TEXT, docs TEXT, problems TEXT)")
    for path, kind, mtime_ns, size, sha, docs, problems in rows:
        docs = [dict(d, path=roots.absolute(d["path"])) for d in json.loads(docs)]
        problems = [roots.text_absolute(p) for p in json.loads(problems)]
        db.execute("INSERT INTO files VALUES (?,?,?,?,?,?,?)",
                   (roots.absolute(path), kind, mtime_ns, size, sha, json.dumps(docs),
                    json.dumps(problems)))
    for doc_id, payload, doc_hash, lex_hash, vec_meta in db.execute(
            "SELECT id, payload, doc_hash, lex_hash, vec_meta FROM docs").fetchall():
        doc = IndexDoc.from_json(json.loads(payload))
        doc.path = roots.absolute(doc.path)
        new = doc.doc_hash
        db.execute("UPDATE docs SET payload=?, doc_hash=?, lex_hash=?, vec_meta=? WHERE id=?",
                   (json.dumps(doc.to_json()), new, new if lex_hash == doc_hash else lex_hash,
                    new if vec_meta == doc_hash else vec_meta, doc_id))
    catalog.set_meta("version", "2")
    index.close()


@pytest.mark.parametrize("moved_first", [False, True], ids=["in-place", "moved-before-upgrade"])
def test_an_old_catalog_is_converted_without_reparsing_or_reindexing(
        repo, mem, work, monkeypatch, moved_first):
    _indexed(mem)
    _as_version_2(mem)
    if moved_first:
        mem = _moved(repo, repo.parent / "elsewhere", monkeypatch)
    work.update(parsed=0, lexical=0, embedded=0, metadata=0)
    index = MemoryIndex(mem, warn=lambda m: None)
    try:
        assert index.catalog.get_meta("version") == "3"
        report = index.sync()
        assert work == {"parsed": 0, "lexical": 0, "embedded": 0, "metadata": 0}
        assert report.files_read == 0 and not report.changed
        _consistent(index)
        assert index.search("Redis streams queue", k=3)
    finally:
        index.close()


def test_an_unchanged_file_costs_a_stat_once_its_check_is_old_enough(repo, mem, monkeypatch):
    build_corpus(mem)
    read = []
    real_read = sync_module.read_source
    monkeypatch.setattr(sync_module, "read_source",
                        lambda *a, **k: read.append(a[1].path) or real_read(*a, **k))
    index = MemoryIndex(mem, warn=lambda m: None)
    try:
        # an mtime after the check (a clock ahead, or a change in the same tick as the check):
        # the stat is not trusted, the bytes are hashed again at every sync (nothing parsed)
        ahead = time.time_ns() + 3600 * 10**9
        for src in sync_module.list_sources(mem):
            os.utime(src.path, ns=(ahead, ahead))
        index.sync()
        read.clear()
        report = index.sync()
        assert read and report.files_rechecked == len(read) and report.files_read == 0
        assert not report.changed
        # checked well after their mtime: only stat'ed from then on
        read.clear()
        _aged(mem)
        report = index.sync()
        assert report.files_read == len(read) > 0 and not report.changed
        read.clear()
        report = index.sync()
        assert read == [] and report.files_read == 0 and report.files_rechecked == 0
    finally:
        index.close()


def test_a_fault_while_converting_rebuilds_the_index_instead_of_failing_every_open(
        repo, mem, monkeypatch):
    """Not only SQLite's errors: a stored doc the conversion cannot read (here a row of a
    damaged old catalog) rolls the conversion back and is taken for an unreadable catalog,
    so the index is rebuilt once, instead of every later open failing the same way."""
    _indexed(mem)
    _as_version_2(mem)
    db = sqlite3.connect(str(mem.project.root / ".index" / "catalog.sqlite"))
    db.execute("UPDATE files SET docs=? WHERE rowid=1", (json.dumps([{"x": 1}]),))
    db.commit()
    db.close()
    warned: list[str] = []
    index = MemoryIndex(mem, warn=warned.append)
    try:
        assert index.catalog.get_meta("version") == "3"
        assert any("rebuilding the index" in w for w in warned)
        index.sync()
        _consistent(index)
        assert index.search("Redis streams queue", k=3)
    finally:
        index.close()
