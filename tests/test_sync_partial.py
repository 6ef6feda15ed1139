"""A sync that finds a few files changed merges their docs alone, not the store's.

The whole reconcile decodes every file's doc keys and every doc's state: 1.0-1.2 s at 100k
docs in a process that has read nothing yet (the cold prompt, the service opening an index),
for one remembered fact (twentieth session). With the docs table in line before the sync,
only the ids whose keys changed in the changed files are merged again. Asserted: the whole
reconcile is not read, and the docs table is the one a full reconcile of every file gives;
where a global item's visibility could turn, the whole reconcile runs."""

from __future__ import annotations

import shutil
from datetime import timedelta

import pytest

from lorestack.memory_layers.operations import forget, log_event, remember, restore, supersede
from lorestack.retrieval.catalog import Catalog
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.sync import run_sync

from .retrieval_helpers import NOW, build_corpus
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

    # a day of many events, on one date whatever the hour the test runs (the corpus's events,
    # one to three hours back, fall on two day files between 00:00 and 03:00)
    busy = (NOW - timedelta(days=3)).replace(hour=12, minute=0, second=0)
    for n in range(3):
        log_event(mem, f"deployed build {n} to staging", "progress", time=busy + timedelta(minutes=n))
    assert sync().added == 3

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


def _in_line(index, clean):
    """`_as_full`, and the word index (and, `clean`, the vectors) hold every doc as it is."""
    _as_full(index)
    states = index.catalog.doc_states()
    assert all(s.lex_hash == s.doc_hash for s in states.values())
    if clean:
        assert all(s.vec_hash == s.content_hash and s.vec_meta == s.doc_hash
                   for s in states.values())
        assert index.vectors.collection().count() == sum(s.chunks for s in states.values())


@pytest.mark.parametrize("text_only", [False, True])
def test_renames_archives_pulls_and_hand_edits_leave_the_docs_of_a_full_reindex(mem, index, text_only):
    def sync():
        r = run_sync(index, quick=True, text_only=text_only)
        assert not r.warnings and not r.deferred
        _in_line(index, not text_only)
        return r

    a = remember(mem, "the cache TTL is 300 seconds", "fact").item.id
    b = remember(mem, "the queue is rabbitmq", "fact").item.id
    sync()
    # rename
    p = _item_path(mem, a)
    p.rename(p.with_name("renamed-" + p.name))
    sync()
    # forget -> archive
    forget(mem, b, "wrong")
    sync()
    restore(mem, b)
    sync()
    supersede(mem, a, "the cache TTL is 600 seconds")
    sync()
    # day file: an event inserted before others, and appended
    log_event(mem, "older event about zebra", "note", time=NOW - timedelta(days=3, hours=5))
    log_event(mem, "oldest event about yak", "note", time=NOW - timedelta(days=3, hours=9))
    sync()
    ev = log_event(mem, "an event to forget about walrus", "note")
    sync()
    forget(mem, ev.id, "noise")
    sync()
    # many files at once (a pull)
    ids = [remember(mem, f"bulk fact {n} about module_{n}", "fact").item.id for n in range(70)]
    sync()
    for i in ids[:40]:
        q = _item_path(mem, i)
        q.write_text(q.read_text().replace("bulk fact", "BULK fact"))
    for i in ids[40:]:
        _item_path(mem, i).unlink()
    sync()
    # change of type via hand edit, id kept
    q = _item_path(mem, ids[0])
    q.write_text(q.read_text().replace("type: fact", "type: decision"))
    sync()
    # unreadable (broken frontmatter) file then mended
    txt = q.read_text()
    q.write_text(txt.replace("---\n", "---\ntitle: [oops\n", 1))
    sync()
    q.write_text(txt)
    sync()
    # full check against a reindex
    before = {i: s.doc_hash for i, s in index.catalog.doc_states().items()}
    run_sync(index, force=True)
    _in_line(index, True)
    assert {i: s.doc_hash for i, s in index.catalog.doc_states().items()} == before


@pytest.mark.parametrize("text_only", [False, True])
def test_a_sync_ended_between_reading_and_merging_is_redone(mem, index, monkeypatch, text_only):
    import lorestack.retrieval.sync as sync_mod

    def killed(_index):  # the hook's process ended (its client's timeout) after the file
        raise KeyboardInterrupt  # table's commit, before the docs were merged

    monkeypatch.setattr(sync_mod, "partial_plan", killed)
    a = remember(mem, "the reporting replica is ORCHID-7", "fact").item.id
    with pytest.raises(KeyboardInterrupt):
        run_sync(index, quick=True, text_only=text_only)
    monkeypatch.undo()
    run_sync(index, quick=True)  # found nothing changed on disk: the state says what lags
    assert a in index.catalog.doc_states()
    _in_line(index, True)
