"""Incremental sync from memory files to both indexes.

1. stat every source file; only files whose (mtime, size) changed are read and hashed, and
   only files whose sha256 changed are parsed;
2. the merged document set is diffed against the catalog by per-doc hashes;
3. tantivy gets the docs whose `doc_hash` it lacks; Chroma re-embeds only docs whose
   `content_hash` changed and just updates metadata for the rest (an archive move, a status
   change). Index marks are written after each index commits, so a crash redoes, never skips.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from lorestack.core.errors import InvalidItem
from lorestack.retrieval import secret_spots
from lorestack.retrieval.catalog import RACY_NS
from lorestack.retrieval.documents import (
    DOCS_VERSION,
    IndexDoc,
    SourceFile,
    list_sources,
    merge_docs,
    parse_source,
    read_source,
)
from lorestack.retrieval.sync_partial import partial_plan, reconcile_changed
from lorestack.retrieval.vectors import chunk_id, doc_metadata

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.retrieval.index import MemoryIndex
    from lorestack.retrieval.secret_spots import SecretSpot

# (done, total, phase): each phase counts its own work, so a bar's rate (and its ETA) is the
# rate of that work: "reading" files, "writing" the word index, "embedding" (the slow part)
Progress = Callable[[int, int, str], None]
TEXT_ONLY = "text"  # catalog state: the word index is up to date, the vectors may not be


@dataclass
class SyncReport:
    added: int = 0
    updated: int = 0
    removed: int = 0
    embedded: int = 0        # docs whose vectors were (re)computed
    indexed: int = 0         # docs (re)written to the lexical index
    files_read: int = 0      # files whose bytes were read because their stat changed
    files_rechecked: int = 0  # same stat, but checked too soon after their mtime to trust it
    total: int = 0           # docs in the index after the sync
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # unsafe entries never read (symlinks out…)
    seconds: float = 0.0
    phase_seconds: dict[str, float] = field(default_factory=dict)  # reading, writing, embedding
    deferred: bool = False  # a text-only sync found changes too costly to reconcile now

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed or self.embedded or self.indexed)


def embed_text(doc: IndexDoc) -> str:
    """What the vector sees: the item as written (a chat turn with its "Speaker: ")."""
    title, text = doc.title, doc.text
    return text if text.startswith(title) else f"{title}\n\n{text}"


def doc_chunks(doc: IndexDoc, limit: int, encoding: str) -> list[str]:
    """What gets a vector: the doc's chunks."""
    return chunk_texts(embed_text(doc), limit, encoding)


def chunk_texts(text: str, chunk_tokens: int, encoding: str) -> list[str]:
    """Split long text with llama-index's SentenceSplitter; short text stays one chunk."""
    if len(text) <= chunk_tokens * 2:  # cheap pre-check: cannot exceed the limit
        return [text]
    from lorestack.retrieval.tokens import count_tokens, get_encoding

    if count_tokens(text, encoding) <= chunk_tokens:
        return [text]
    from llama_index.core.node_parser import SentenceSplitter

    enc = get_encoding(encoding)
    splitter = SentenceSplitter(
        chunk_size=chunk_tokens, chunk_overlap=min(32, chunk_tokens // 8),
        tokenizer=lambda s: enc.encode(s, disallowed_special=()))
    return [c for c in splitter.split_text(text) if c.strip()] or [text]


def scan_files(index: MemoryIndex, report: SyncReport, force: bool = False,
               progress: Progress | None = None) -> bool:
    """Update the catalog's file table; True when some file's content changed."""
    from lorestack.memory_layers.secret_guard import DETECTOR_VERSION

    mem, catalog = index.mem, index.catalog
    # docs hold redacted text: a new detector re-reads every file, so nothing indexed by an
    # older one (which may have missed a secret) survives the upgrade
    guard_changed = catalog.get_meta("guard") != str(DETECTOR_VERSION)
    docs_changed = catalog.get_meta("docs") != str(DOCS_VERSION)  # docs gained fields
    # names holding a secret are sealed at the guard's threshold: a new one re-reads every file
    names = str(mem.settings.guard.entropy_threshold)
    names_changed = (catalog.get_meta("names") or "4.2") != names  # 4.2 before it was kept
    force = force or guard_changed or docs_changed or names_changed
    neighbours = _neighbour_signature(index)
    neighbours_changed = catalog.get_meta("neighbours") != neighbours
    if neighbours_changed:  # the indexed neighbour text and embeddings follow the settings
        force = True
        if (catalog.get_meta("neighbours") or "0:0").split(":")[-1] != neighbours.split(":")[-1]:
            # re-embed the linked turns (keeping their chunk counts, so unwanted window
            # vectors are deleted); with new neighbour text their content hash changes anyway
            catalog.db.execute(
                "UPDATE docs SET vec_hash=NULL WHERE type='event' AND "
                "json_extract(payload, '$.before') <> ''")
    checked_ns = time.time_ns()  # before the stats: a later edit is after it
    index.fresh_docs = {}
    # per file whose docs may differ now, its doc keys before (None: a new file), for
    # `reconcile_changed`; None when every file is read again anyway
    changed: dict[str, list | None] | None = None if force else {}
    index.changed_files = changed

    def changing(key: str) -> None:
        if changed is not None and key not in changed:
            changed[key] = catalog.key_rows(key)
    sources = list_sources(mem)
    report.skipped = list(sources.skipped)
    key_of = catalog.roots.key
    known = index.file_stats(refresh=False)
    seen = set()
    stale: list[tuple[str, SourceFile]] = []
    racy: set[str] = set()
    for src in sources:
        key = key_of(src.path, src.kind, () if force else known)
        seen.add(key)
        old = known.get(key)
        if force or old is None or old[0] != src.mtime_ns or old[1] != src.size:
            stale.append((key, src))
        elif old[0] >= old[3] - RACY_NS:  # checked too soon after its last change
            stale.append((key, src))
            racy.add(key)
    gone = [p for p in known if p not in seen]
    if (len(stale) > len(racy) or gone) and not force:
        # another process may have synced: compare with the catalog before doing work
        known = index.file_stats(refresh=True)
        stale = [(k, s) for k, s in stale if not _trusted(known.get(k), s)]
        gone = [p for p in known if p not in seen]
    content_changed = bool(gone)
    secrets: dict[str, list[SecretSpot]] = {}  # per file parsed: where it holds a secret
    edits: list[tuple[str, datetime]] = []  # items edited by hand since the last sync
    with catalog.transaction():
        for path in gone:
            changing(path)
            catalog.drop_file(path)
        for n, (key, src) in enumerate(stale):
            if progress:
                progress(n, len(stale), "reading")
            try:
                raw = read_source(mem, src, report.warnings)
            except FileNotFoundError:
                changing(key)
                catalog.drop_file(key)
                content_changed = True
                seen.discard(key)
                continue
            except (InvalidItem, OSError) as exc:  # swapped for a link/FIFO since the scan
                report.skipped.append(str(exc))
                changing(key)
                catalog.drop_file(key)
                content_changed = True
                seen.discard(key)
                continue
            if key in racy:
                report.files_rechecked += 1
            else:
                report.files_read += 1
            sha = hashlib.sha256(raw).hexdigest()
            old = known.get(key)
            if not force and old is not None and old[2] == sha:
                catalog.touch_file(key, src.mtime_ns, src.size, checked_ns)
                known[key] = (src.mtime_ns, src.size, sha, checked_ns)
                continue
            secrets[key] = []
            docs, problems = parse_source(mem, src, raw, report.warnings, secrets[key])
            if old is not None and old[2] != sha and src.kind != "journal":
                edits.extend(hand_edits(catalog.stored_docs(key), docs, src.mtime_ns))
            changing(key)
            index.fresh_docs[key] = catalog.put_file(
                key, src.kind, src.mtime_ns, src.size, sha, docs, problems, checked_ns)
            content_changed = True
        if progress and stale:
            progress(len(stale), len(stale), "reading")
        if content_changed:  # in the files' own commit: a process ended before it merged
            catalog.set_meta("state", "dirty")  # them leaves a state the next sync redoes
    if edits:
        index.usage.mark_edited(edits)
    if content_changed:
        # whichever process synced (the service too): the hooks and doctor tell the user
        secret_spots.save(index.dir, secrets, seen)
        index._file_stats = None  # read again when next wanted
    if guard_changed:
        catalog.set_meta("guard", str(DETECTOR_VERSION))
    if docs_changed:
        catalog.set_meta("docs", str(DOCS_VERSION))
    if names_changed:
        catalog.set_meta("names", names)
    if neighbours_changed:
        catalog.set_meta("neighbours", neighbours)
    return content_changed or neighbours_changed


def hand_edits(before: list[IndexDoc], after: list[IndexDoc],
               mtime_ns: int) -> list[tuple[str, datetime]]:
    """(id, when) of the items a person edited: what is indexed (type, title, text, tags)
    changed while `updated` did not. Every lorestack write moves `updated`; a hand edit does
    not, so without this the item went on fading from its last lorestack write. A checkout of
    an older version brings its older `updated` back: not an edit, it keeps its age."""
    old = {d.id: d for d in before}
    edited = []
    for doc in after:
        was = old.get(doc.id)
        if was is not None and was.time == doc.time and (
                (was.type, was.title, was.text, was.tags) != (doc.type, doc.title, doc.text, doc.tags)):
            edited.append((doc.id, datetime.fromtimestamp(mtime_ns / 1e9, tz=timezone.utc)))
    return edited


def _trusted(old: tuple[int, int, str, int] | None, src: SourceFile) -> bool:
    """The catalog's row still describes the file: same stat, checked well after it."""
    return (old is not None and old[0] == src.mtime_ns and old[1] == src.size
            and old[0] < old[3] - RACY_NS)


def _neighbour_signature(index: MemoryIndex) -> str:
    """The index-time neighbour settings docs were built with (retrieval/neighbours.py)."""
    r = index.settings.retrieval
    return f"{r.neighbour_chars}:0"


def reconcile_docs(index: MemoryIndex, report: SyncReport) -> None:
    """Diff the merged doc set against the catalog's docs table.

    Merging needs only each doc's identity and hash (`DocKey`); the catalog parses and hashes
    again only the files whose stored docs changed since it last read them, and a doc is read
    whole only when it must be written."""
    catalog = index.catalog
    with catalog.transaction():  # no other sync rewrites the files between reading and writing
        per_file, problems = catalog.file_doc_keys()
        report.problems.extend(problems)
        desired, merge_problems = merge_docs(per_file)
        report.problems.extend(merge_problems)
        removals = apply_desired(index, report, desired, catalog.doc_states())
        # removed docs stay in the table (with their index marks) until the indexes drop them
    index.pending_removals = removals


def apply_desired(index: MemoryIndex, report: SyncReport, desired: dict, states: dict) -> list[str]:
    """Write the desired docs whose hash changed; return (and count) the ids no longer desired."""
    catalog, (fresh, index.fresh_docs) = index.catalog, (index.fresh_docs, {})
    for doc_id, key in desired.items():
        state = states.get(doc_id)
        if state is not None and state.doc_hash == key.doc_hash:
            continue
        catalog.put_doc(_stored_doc(catalog, key, fresh))
        if state is None:
            report.added += 1
        else:
            report.updated += 1
    removals = [d for d in states if d not in desired]
    report.removed += len(removals)
    return removals


def _stored_doc(catalog, key, fresh: dict[str, list[IndexDoc]]) -> IndexDoc:
    """The doc a key stands for: from the docs this sync parsed, else read from the catalog
    (each file's docs once)."""
    docs = fresh.get(key.file)
    if docs is None or len(docs) <= key.at or docs[key.at].id != key.id:
        docs = fresh[key.file] = catalog.stored_docs(key.file)
    return docs[key.at]


def apply_indexes(index: MemoryIndex, report: SyncReport, progress: Progress | None,
                  max_embed: int | None = None, vectors: bool = True,
                  only: set[str] | None = None) -> None:
    """Bring tantivy and Chroma (`vectors`: else left untouched, unopened) in line with the
    docs table (its docs of `only`, when the others are known to be in line)."""
    catalog = index.catalog
    # opening first: a missing or corrupt index resets its marks, so everything is redone
    warned = len(report.warnings)
    lexical_ok = index.ensure_lexical(report)
    vectors_ok = vectors and index.ensure_vectors(report)
    pending = getattr(index, "pending_removals", [])
    index.pending_removals = []
    if only is None or len(report.warnings) > warned:  # (an index was recreated: all its docs)
        states = catalog.doc_states_to_apply(vectors_ok)
        states.update(catalog.doc_states([d for d in pending if d not in states]))
    else:
        states = catalog.doc_states(sorted(only | set(pending)))
    removals = [d for d in pending if d in states]
    removals += [d for d, s in states.items() if s.doc_hash == "removed" and d not in pending]
    lex_todo = [i for i, s in states.items() if s.lex_hash != s.doc_hash and i not in removals]
    vec_embed = [i for i, s in states.items() if s.vec_hash != s.content_hash and i not in removals]
    vec_meta = [i for i, s in states.items()
                if s.vec_hash == s.content_hash and s.vec_meta != s.doc_hash and i not in removals]
    began = time.perf_counter()

    # ---- lexical ----
    if lexical_ok and (lex_todo or removals):
        try:
            for start in range(0, max(1, len(lex_todo)), 5000):
                if progress and lex_todo:
                    progress(start, len(lex_todo), "writing")
                batch_ids = lex_todo[start:start + 5000]
                docs = catalog.get_docs(batch_ids)
                deletes = removals if start == 0 else []
                report.indexed += index.lexical.apply(docs.values(), deletes)
                catalog.mark_lexical([(i, states[i].doc_hash) for i in docs])
            if progress and lex_todo:
                progress(len(lex_todo), len(lex_todo), "writing")
        except Exception as exc:  # noqa: BLE001 - lexical failure must not block vectors
            report.warnings.append(f"lexical index update failed ({type(exc).__name__}: {exc})")
            lexical_ok = False

    # ---- vectors ----
    if vectors_ok and max_embed is not None and len(vec_embed) > max_embed:
        report.warnings.append(
            f"{len(vec_embed)} items need embedding; skipped during search "
            "(run `lorestack reindex`); vector results may be incomplete")
        vectors_ok, vec_embed = False, []
    report.phase_seconds["writing"] = round(time.perf_counter() - began, 2)
    began = time.perf_counter()
    if vectors_ok:
        try:
            _apply_vectors(index, report, states, vec_embed, vec_meta, removals, progress)
        except Exception as exc:  # noqa: BLE001
            report.warnings.append(f"vector index update failed ({type(exc).__name__}: {exc})")
            vectors_ok = False
    report.phase_seconds["embedding"] = round(time.perf_counter() - began, 2)

    with catalog.transaction():
        for doc_id in removals:
            state = states[doc_id]
            lex_done = lexical_ok or state.lex_hash is None
            vec_done = vectors_ok or state.vec_hash is None
            if lex_done and vec_done:
                catalog.drop_doc(doc_id)
            else:  # keep the row so the next sync retries the delete
                catalog.db.execute("UPDATE docs SET doc_hash='removed', content_hash='removed' "
                                   "WHERE id=?", (doc_id,))


def _apply_vectors(index, report, states, vec_embed, vec_meta, removals, progress):
    catalog, store = index.catalog, index.vectors
    settings = index.settings
    stale_chunks = []
    for doc_id in removals:
        stale_chunks.extend(chunk_id(doc_id, n) for n in range(states[doc_id].chunks))
    store.delete(stale_chunks)
    if vec_meta:
        docs = catalog.get_docs(vec_meta)
        ids, metas, marks = [], [], []
        for doc_id, doc in docs.items():
            for n in range(states[doc_id].chunks):
                ids.append(chunk_id(doc_id, n))
                metas.append(doc_metadata(doc))
            marks.append((doc_id, states[doc_id].content_hash, states[doc_id].doc_hash,
                          states[doc_id].chunks))
        store.update_metadata(ids, metas)
        catalog.mark_vector(marks)
    if not vec_embed:
        return
    embedder = index.embedder()
    limit = settings.retrieval.chunk_tokens
    limit = min(limit, int(getattr(embedder, "max_tokens", limit) * 0.8)) or limit
    encoding = settings.tokens.encoding
    batch = 256
    for start in range(0, len(vec_embed), batch):
        if progress:
            progress(start, len(vec_embed), "embedding")
        docs = catalog.get_docs(vec_embed[start:start + batch])
        ids, texts, metas, marks = [], [], [], []
        for doc_id, doc in docs.items():
            chunks = doc_chunks(doc, limit, encoding)
            old = states[doc_id].chunks
            if old > len(chunks):
                store.delete([chunk_id(doc_id, n) for n in range(len(chunks), old)])
            for n, text in enumerate(chunks):
                ids.append(chunk_id(doc_id, n))
                texts.append(text)
                metas.append(doc_metadata(doc))
            marks.append((doc_id, states[doc_id].content_hash, states[doc_id].doc_hash, len(chunks)))
        vectors = embedder.embed(texts) if texts else None
        if texts:
            store.upsert(ids, vectors, metas)
        catalog.mark_vector(marks)
        report.embedded += len(marks)
    if progress and vec_embed:
        progress(len(vec_embed), len(vec_embed), "embedding")


def run_sync(index: MemoryIndex, progress: Progress | None = None, *, force: bool = False,
             max_embed: int | None = None, quick: bool = False,
             text_only: bool = False, max_docs: int | None = None) -> SyncReport:
    """`quick` (the search path) skips the counts and problem list nobody reads there.
    `text_only` (a process without the service, before its BM25 answer): the catalog and the
    word index only, Chroma not opened and nothing embedded; the state is then TEXT_ONLY, not
    clean, so the next full sync embeds what this one left. A few changed files are merged
    alone (`sync_partial`); a whole reconcile (~2 s at 100k docs) past `max_docs` docs is not
    done (`report.deferred`), the state left dirty for a full sync."""
    report = SyncReport()
    began = time.perf_counter()
    state = index.catalog.get_meta("state")  # before the scan, which marks a change dirty
    changed = scan_files(index, report, force=force, progress=progress)
    report.phase_seconds["reading"] = round(time.perf_counter() - began, 2)
    # the docs table was in line with the file table before this sync's changes (clean: both
    # indexes too; text: the word index): only the changed files' docs are merged again
    plan = partial_plan(index) if changed and state in ("clean", TEXT_ONLY) else None
    if text_only:  # nothing changed and a dirty state: the next full sync's, not a prompt's
        if not changed:
            pass
        elif plan is None and max_docs is not None and index.catalog.count_docs() > max_docs:
            index.set_clean(False)  # the file table has the change: a full sync reconciles
            report.deferred = True
        else:
            index.set_clean(False)
            reconcile_changed(index, report, plan)
            apply_indexes(index, report, progress, vectors=False,
                          only=None if plan is None else plan[0])
            if not report.warnings:
                index.catalog.set_meta("state", TEXT_ONLY)
        report.seconds = time.perf_counter() - began
        return report
    if changed or force or not index.is_clean():
        index.set_clean(False)
        if changed or force or state != TEXT_ONLY:  # (text: only vectors lag)
            reconcile_changed(index, report, plan)
        apply_indexes(index, report, progress, max_embed=max_embed,
                      only=None if plan is None or state != "clean" else plan[0])
        index.set_clean(not report.warnings)
    elif not quick:
        report.problems = index.catalog.problems()
    index.vectors.clear_unused_capacity_once()  # under the sync lock, as every Chroma write
    if not quick:
        report.total = index.catalog.count_docs()
    report.seconds = time.perf_counter() - began
    return report
