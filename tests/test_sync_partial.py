"""A sync that finds a few files changed merges their docs alone, not the store's.

The whole reconcile decodes every file's doc keys and every doc's state: 1.0-1.2 s at 100k
docs in a process that has read nothing yet (the cold prompt, the service opening an index),
for one remembered fact (twentieth session). With the docs table in line before the sync,
only the ids whose keys changed in the changed files are merged again. Asserted: the whole
reconcile is not read, and the docs table is the one a full reconcile of every file gives;
where a global item's visibility could turn, the whole reconcile runs."""

from __future__ import annotations

import shutil

import pytest

from lorestack.memory_layers.operations import log_event, remember
from lorestack.retrieval.catalog import Catalog
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.sync import run_sync

from .retrieval_helpers import build_corpus
from .test_sync_reconcile import _as_full, _item_path


@pytest.fixture
def index(mem):
    build_corpus(mem)
    ix = MemoryIndex(mem, warn=lambda m: None)
    ix.sync()
    yield ix
    ix.close()


@pytest.fixture
def whole_reads(monkeypatch):
    """How many times a sync decoded every file's doc keys (the whole reconcile)."""
    reads: list[int] = [0]
    real = Catalog.file_doc_keys

    def counted(self):
        reads[0] += 1
        return real(self)

    monkeypatch.setattr(Catalog, "file_doc_keys", counted)
    return reads


@pytest.mark.parametrize("text_only", [False, True])  # the service / the cold prompt's sync
def test_a_few_changed_files_are_merged_alone(mem, index, whole_reads, text_only):
    def sync():
        report = run_sync(index, quick=True, text_only=text_only)
        assert not report.deferred and not report.warnings
        _as_full(index)
        return report

    one = remember(mem, "the cache TTL is 300 seconds", "fact").item.id
    assert sync().added == 1
    assert [h.id for h in index.search("cache TTL seconds", k=1, mode="bm25", sync=False)] == [one]

    path = _item_path(mem, one)  # a hand edit
    path.write_text(path.read_text().replace("300 seconds", "300 seconds, 600 at night"))
    assert sync().updated == 1

    log_event(mem, "switched the CI runner to arm64", "progress")  # a day file grows
    assert sync().added == 1

    copy = path.with_name("zz-" + path.name)  # a duplicate id in a later file: the first wins
    shutil.copyfile(path, copy)
    report = sync()
    assert any("duplicate id" in p for p in report.problems)
    path.unlink()  # the copy, unchanged, now wins
    assert sync().updated == 1
    assert index.catalog.get_docs([one])[one].path == str(copy)

    copy.unlink()
    assert sync().removed == 1
    assert all(h.id != one for h in index.search("cache TTL seconds", k=3, mode="bm25", sync=False))

    # a day file of many events gone: every one of its ids merged again (found in one pass)
    day = max(mem.journal.paths.journal_dir.glob("*.md"), key=lambda p: p.read_text().count("<!-- /"))
    events = day.read_text().count("<!-- /")
    assert events >= 3
    day.unlink()
    report = run_sync(index, quick=True, text_only=text_only)
    assert report.removed == events and not report.warnings
    if text_only:  # their vectors stay (rows marked removed) until a full sync deletes them
        index.sync()
    _as_full(index)
    assert whole_reads[0] == 0


def test_a_project_item_that_hides_a_global_one_takes_the_whole_reconcile(
        mem, index, whole_reads):
    hidden = remember(mem, "Prefer squash merges on the main branch", "preference",
                      scope="global").item.id
    index.sync()
    assert hidden in index.catalog.doc_states()
    whole_reads[0] = 0
    remember(mem, "Prefer squash merges on the main branch", "preference", force=True)
    index.sync()
    assert whole_reads[0] == 1  # the global item's visibility turned on a project title
    assert hidden not in index.catalog.doc_states()
    _as_full(index)


def test_the_service_after_a_text_only_sync_embeds_what_it_left(mem, index, whole_reads):
    """A cold prompt's text-only sync, then the service's first sync: the docs table is in
    line (state text), only the vectors lag; nothing is merged again."""
    before = index.vectors.collection().count()
    remember(mem, "the reporting read replica is ORCHID-7 on port 6432", "fact")
    run_sync(index, quick=True, text_only=True)
    assert index.catalog.get_meta("state") == "text"
    report = index.sync()
    assert report.embedded == 1 and index.catalog.get_meta("state") == "clean"
    assert index.vectors.collection().count() == before + 1
    assert whole_reads[0] == 0
    _as_full(index)
