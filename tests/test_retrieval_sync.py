"""Incremental sync, hand edits, deleted and corrupted indexes, doctor."""

from __future__ import annotations

import os
import shutil

import pytest

from lorestack.memory_layers.operations import forget, log_event, remember
from lorestack.retrieval.index import MemoryIndex

from .retrieval_helpers import build_corpus


@pytest.fixture
def index(mem):
    build_corpus(mem)
    ix = MemoryIndex(mem, warn=lambda m: None)
    ix.sync()
    yield ix
    ix.close()


def test_first_sync_indexes_items_and_events(mem, index):
    report = index.sync()
    assert (report.added, report.embedded, report.indexed, report.files_read) == (0, 0, 0, 0)
    assert report.total == 7 + 3 + 1  # items + events + project.md
    assert index.lexical.count() == report.total
    assert index.vectors.count() == report.total


def test_adding_one_item_embeds_one_item(mem, index):
    for n in range(20):
        remember(mem, f"filler fact number {n} about module_{n}", "fact")
    first = index.sync()
    assert first.added == 20 and first.embedded == 20
    remember(mem, "the cache TTL is 300 seconds", "fact")
    report = index.sync()
    assert (report.added, report.updated, report.removed) == (1, 0, 0)
    assert report.embedded == 1 and report.indexed == 1 and report.files_read == 1
    log_event(mem, "switched the CI runner to arm64", "progress")
    report = index.sync()
    # the day file holds other events too: only the new one is new, nothing is re-embedded
    assert report.added == 1 and report.embedded == 1


def test_hand_edited_file_is_picked_up_by_the_next_search(mem, index):
    ids = {h.id for h in index.search("zanzibar", k=5, mode="bm25")}
    assert not ids
    item = mem.get(next(i.item.id for i in mem.load_items().items if i.item.type == "preference"))
    item.path.write_text(item.path.read_text() + "\nAlso: meetings only on zanzibar time.\n")
    hits = index.search("zanzibar", k=5)
    assert [h.id for h in hits][:1] == [item.item.id]
    assert "zanzibar" in hits[0].text


def test_touch_without_change_rereads_but_does_not_reindex(mem, index):
    path = mem.get(mem.load_items().items[1].item.id).path
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    report = index.sync()
    assert report.files_read == 1 and report.embedded == 0 and report.indexed == 0


def test_archive_move_updates_metadata_without_reembedding(mem, index):
    target = next(i.item for i in mem.load_items().items if i.item.type == "fact"
                  and i.item.id != "project")
    forget(mem, target.id, reason="obsolete")
    report = index.sync()
    assert report.updated == 1 and report.embedded == 0 and report.indexed == 1
    assert target.id not in [h.id for h in index.search(target.title, k=10)]


def test_deleted_file_is_removed_from_both_indexes(mem, index):
    loaded = mem.get(mem.load_items().items[2].item.id)
    before = index.vectors.count()
    loaded.path.unlink()
    report = index.sync()
    assert report.removed == 1
    assert index.vectors.count() == before - 1
    assert loaded.item.id not in index.lexical.ids()


def test_deleted_index_is_rebuilt_and_search_still_answers(mem, index):
    index.close()
    shutil.rmtree(mem.primary.index_dir)
    fresh = MemoryIndex(mem, warn=lambda m: None)
    hits = fresh.search("getUserById", k=1)
    assert hits and hits[0].title.startswith("getUserById")
    assert fresh.lexical.count() == 11 and fresh.vectors.count() == 11
    fresh.close()


def test_deleted_tantivy_folder_is_rebuilt_with_a_warning(mem, index):
    warnings = []
    index.warn = warnings.append
    index.lexical.close()
    shutil.rmtree(index.lexical.directory)
    hits = index.search("RS256", k=1, mode="bm25")
    assert hits and "RS256" in hits[0].text
    assert any("lexical index was missing" in w for w in warnings)


def test_corrupt_lexical_index_is_detected_and_repaired(mem, index):
    index.lexical.close()
    (index.lexical.directory / "meta.json").write_text("{ not json")
    fresh = MemoryIndex(mem, warn=lambda m: None)
    report = fresh.doctor()
    assert not report.ok and report.lexical.status == "corrupt"
    assert report.vector.status == "ok"
    repaired = fresh.doctor(repair=True)
    assert repaired.repaired and "rebuilt" in repaired.actions[0]
    assert fresh.doctor().ok
    fresh.close()


def test_corrupt_lexical_index_never_fails_a_search(mem, index):
    index.lexical.close()
    (index.lexical.directory / "meta.json").write_text("garbage")
    warnings = []
    fresh = MemoryIndex(mem, warn=warnings.append)
    hits = fresh.search("ERR_CONN_RESET", k=3, sync=False)
    assert hits and hits[0].title.startswith("Retries on ERR_CONN_RESET")  # vectors answered
    assert any("bm25" in w for w in warnings)
    fresh.close()


def test_corrupt_vector_index_is_detected_and_search_degrades(mem, index):
    index.close()
    db = mem.primary.index_dir / "chroma" / "chroma.sqlite3"
    db.write_bytes(b"this is not a sqlite database" * 100)
    fresh = MemoryIndex(mem, warn=lambda m: None)
    report = fresh.doctor()
    assert not report.ok and report.vector.status in ("corrupt", "missing")
    assert report.lexical.status == "ok"
    warnings = []
    other = MemoryIndex(mem, warn=warnings.append)
    hits = other.search("RS256", k=3, sync=False)
    assert hits and "RS256" in hits[0].text  # BM25 still answers
    assert any("vector" in w for w in warnings)
    assert other.doctor(repair=True).repaired
    assert other.doctor().ok
    fresh.close()
    other.close()


def test_doctor_reports_drift_and_schema_problems(mem, index):
    (mem.project.root / "facts" / "broken.md").write_text("---\nschema: 99\nid: x\n---\nbody\n")
    remember(mem, "a new fact the index has not seen", "fact")
    report = index.doctor()
    assert not report.ok
    assert report.changed_files == 2
    assert report.lexical.status == "pending" and len(report.lexical.missing) == 1
    assert any("schema" in p for p in report.problems)
    index.doctor(repair=True)
    after = index.doctor()
    assert after.lexical.status == "ok" and after.vector.status == "ok"
    assert not after.issues and after.problems  # the bad file is still reported, never indexed


def test_rebuild_keeps_usage_state(mem, index):
    hit = index.search("RS256", k=1)[0]
    report = index.rebuild()
    assert report.embedded == report.total == 11
    assert index.usage.get([hit.id])[hit.id][0] == 1


def test_long_items_are_chunked_and_found_by_their_tail(mem, index):
    """The model reads 256 tokens: a long item gets one vector per chunk, and a question about
    its last paragraph finds it by that chunk. The tail is a paragraph of its own (a single
    sentence after filler left its chunk at cosine .09 against unrelated items' .07-.10, and
    CI's run once ranked it fourth), and every chunk must be in the vector store."""
    filler = " ".join(f"Paragraph {n} talks about ordinary configuration details." for n in range(150))
    tail = ("Disaster recovery: every quarter we restore the vault from the offsite tape "
            "backups. The restore from tape takes four hours. The last disaster recovery "
            "drill restored every tape without errors.")
    item = remember(mem, "Operations handbook\n\n" + filler + "\n\n" + tail, "fact").item
    index.sync()
    states = index.catalog.doc_states()
    assert states[item.id].chunks > 1
    assert index.vectors.count() == sum(s.chunks for s in states.values())
    hits = index.search("restoring from tape after a disaster", k=3, mode="vector")
    assert [h.id for h in hits][:1] == [item.id]


def test_sync_interval_lets_a_long_lived_process_skip_sweeps(mem, index):
    throttled = MemoryIndex(mem, warn=lambda m: None, sync_interval=3600)
    throttled.search("anything", k=1)  # first search sweeps
    item = mem.get(next(i.item.id for i in mem.load_items().items if i.item.type == "decision"))
    item.path.write_text(item.path.read_text() + "\nkilimanjaro\n")
    assert throttled.search("kilimanjaro", k=3, mode="bm25") == []  # within the interval
    throttled.sync()
    assert throttled.search("kilimanjaro", k=3, mode="bm25")[0].id == item.item.id
    throttled.close()


def test_progress_counts_each_phase_on_its_own(mem):
    """One bar for files, word-index docs and embeddings together gave the embedding phase the
    rate of the fast phases before it, so its ETA was far too short. Each phase now reports
    its own work, in order, from 0 to its own total."""
    for n in range(300):
        remember(mem, f"filler fact number {n} about module_{n}", "fact")
    log_event(mem, "moved the queue to redis streams", "progress")
    calls: list[tuple[int, int, str]] = []
    index = MemoryIndex(mem, warn=lambda m: None)
    try:
        report = index.rebuild(progress=lambda done, total, phase: calls.append(
            (done, total, phase)))
    finally:
        index.close()
    phases = [phase for _d, _t, phase in calls]
    assert sorted(set(phases), key=phases.index) == ["reading", "writing", "embedding"]
    assert phases == sorted(phases, key=["reading", "writing", "embedding"].index)  # in turn
    for phase, work in (("reading", report.files_read), ("writing", report.indexed),
                        ("embedding", report.embedded)):
        seen = [(done, total) for done, total, p in calls if p == phase]
        assert {total for _d, total in seen} == {work} and work > 300
        dones = [done for done, _t in seen]
        assert dones[0] == 0 and dones[-1] == work and dones == sorted(dones)
    assert len([p for p in phases if p == "embedding"]) > 2  # batches, not one jump at the end
    assert set(report.phase_seconds) == {"reading", "writing", "embedding"}


def test_reindex_on_a_terminal_draws_a_bar_per_phase(repo):
    from tests.conftest import run_cli
    from tests.test_everyday_cli import _on_a_terminal

    for n in range(3):
        assert run_cli("remember", f"fact number {n} about module_{n}", cwd=repo).returncode == 0
    shown = _on_a_terminal(["reindex"])
    assert all(f"indexing ({phase})" in shown for phase in ("reading", "writing", "embedding"))
    assert "indexed" in shown
