"""A sync parses only the files whose bytes changed, its reconcile reads the stored keys (no
doc parsed), and its doc set stays the one a full reconcile (every file's docs parsed and
merged) gives: after adds, edits, deletes, a hand edit that keeps the mtime, and a duplicate
id whose winner goes away."""

from __future__ import annotations

import os
import shutil

import pytest

from lorestack.memory_layers.operations import log_event, remember
from lorestack.retrieval import sync as sync_module
from lorestack.retrieval.documents import IndexDoc, merge_docs
from lorestack.retrieval.index import MemoryIndex

from .retrieval_helpers import build_corpus


@pytest.fixture
def index(mem):
    build_corpus(mem)
    ix = MemoryIndex(mem, warn=lambda m: None)
    ix.sync()
    yield ix
    ix.close()


@pytest.fixture
def parsed_files(index, monkeypatch):
    """How many memory files each sync parsed (the count of the last sync is last)."""
    counts: list[int] = []
    real_parse = sync_module.parse_source

    def parsing(*args, **kwargs):
        counts[-1] += 1
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(sync_module, "parse_source", parsing)
    real_sync = index.sync

    def counted_sync(*args, **kwargs):
        counts.append(0)
        return real_sync(*args, **kwargs)

    monkeypatch.setattr(index, "sync", counted_sync)
    return counts


def _as_full(index) -> None:
    """The docs table equals the merge of every file's docs, parsed whole."""
    catalog = index.catalog
    per_file = {path: docs for path, (docs, _p) in catalog.file_docs().items()}
    desired, _problems = merge_docs(per_file)
    states = catalog.doc_states()
    assert {i: s.doc_hash for i, s in states.items()} == {i: d.doc_hash for i, d in desired.items()}
    stored = catalog.get_docs(list(states))  # paths as keys in the catalog, absolute out of it
    for doc in desired.values():
        doc.path = catalog.roots.absolute(doc.path)
    assert {i: d.to_json() for i, d in stored.items()} == {i: d.to_json() for i, d in desired.items()}
    assert index.lexical.count() == len(desired)


def _item_path(mem, item_id):
    return mem.get(item_id).path


def test_one_changed_file_is_parsed_and_the_docs_stay_those_of_a_full_reconcile(
        mem, index, parsed_files):
    for n in range(6):
        remember(mem, f"filler fact number {n} about module_{n}", "fact")
    index.sync()
    assert parsed_files[-1] == 6  # the new files only
    _as_full(index)

    one = remember(mem, "the cache TTL is 300 seconds", "fact").item.id
    index.sync()
    assert parsed_files[-1] == 1
    _as_full(index)

    # a hand edit
    path = _item_path(mem, one)
    path.write_text(path.read_text() + "\nAlso: the TTL doubles at night.\n")
    report = index.sync()
    assert parsed_files[-1] == 1 and report.updated == 1
    _as_full(index)

    # a hand edit of another size that keeps the mtime
    st = os.stat(path)
    path.write_text(path.read_text().replace("doubles", "triples at most"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == st.st_mtime_ns and os.stat(path).st_size != st.st_size
    report = index.sync()
    assert report.updated == 1 and parsed_files[-1] == 1
    assert "triples" in index.catalog.get_docs([one])[one].text
    _as_full(index)

    # a hand edit of the same size within the same mtime (one timestamp tick): the file was
    # checked too soon after its last change for its stat to be trusted, so it is hashed again
    st = os.stat(path)
    path.write_text(path.read_text().replace("triples", "TRIPLES"))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == st.st_mtime_ns and os.stat(path).st_size == st.st_size
    report = index.sync()
    assert report.updated == 1 and parsed_files[-1] == 1
    assert "TRIPLES" in index.catalog.get_docs([one])[one].text
    _as_full(index)

    # a journal event (its day file holds the others: one file)
    log_event(mem, "switched the CI runner to arm64", "progress")
    report = index.sync()
    assert report.added == 1 and parsed_files[-1] == 1
    _as_full(index)

    # a delete
    path.unlink()
    report = index.sync()
    assert report.removed == 1 and parsed_files[-1] == 0
    assert one not in index.catalog.doc_states()
    _as_full(index)


def test_a_duplicate_id_whose_winner_goes_away_is_taken_from_the_unchanged_copy(
        mem, index, parsed_files):
    item_id = remember(mem, "the staging cluster runs in eu-west-1", "fact").item.id
    index.sync()
    first = _item_path(mem, item_id)
    copy = first.with_name("zz-" + first.name)  # sorts after: the first file stays the winner
    shutil.copyfile(first, copy)
    report = index.sync()
    assert any("duplicate id" in p for p in report.problems)
    _as_full(index)
    assert index.catalog.get_docs([item_id])[item_id].path == str(first)

    first.unlink()  # the copy, parsed one sync ago and unchanged since, now wins
    report = index.sync()
    assert parsed_files[-1] == 0 and report.updated == 1
    assert index.catalog.get_docs([item_id])[item_id].path == str(copy)
    _as_full(index)


def test_another_process_sync_is_seen_and_a_fresh_catalog_reads_the_stored_keys(
        mem, index, monkeypatch):
    remember(mem, "the nightly backup runs at 02:00 UTC", "fact")
    other = MemoryIndex(mem, warn=lambda m: None)  # another process: its own catalog handle
    try:
        other.sync()
        _as_full(other)
    finally:
        other.close()
    index.sync()  # its catalog's files changed under it: read again, same doc set
    _as_full(index)
    before, _problems = index.catalog.file_doc_keys()
    fresh = MemoryIndex(mem, warn=lambda m: None)  # a new process: keys read from the catalog
    try:
        catalog = fresh.catalog
        with monkeypatch.context() as patch:  # no stored doc is parsed to get them
            patch.setattr(IndexDoc, "from_json", classmethod(_never_parsed))
            keys, _problems = catalog.file_doc_keys()
        assert keys and keys == before
    finally:
        fresh.close()


def _never_parsed(cls, data):
    raise AssertionError("a stored doc was parsed")
