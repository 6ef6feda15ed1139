"""L4: the hybrid index over every memory item and journal event.

`MemoryIndex(mem).search(query)` syncs from the files (cheaply: a stat per file), runs BM25
(tantivy) and dense (Chroma) retrieval, fuses them with weighted RRF and reranks with decay
(or the configured reranker). Everything under `.memory/.index/` is a cache: a missing or
corrupt part is rebuilt or skipped with a warning on stderr, never a failed search.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from lorestack.core.errors import LorestackError
from lorestack.core.logs import get_logger
from lorestack.retrieval.catalog import Catalog, CatalogError
from lorestack.retrieval.catalog_paths import StoreRoots
from lorestack.retrieval.fusion import FusionRetriever, LexicalRetriever, Retriever, VectorRetriever
from lorestack.retrieval.hits import ScoredDoc, SearchHit
from lorestack.retrieval.lexical import Filters, LexicalIndex
from lorestack.retrieval.modes import SEARCH_MODES, RecallMode, parse_mode
from lorestack.retrieval.name_seals import seal_after_rebuild
from lorestack.retrieval.readonly import refuse_if_read_only
from lorestack.retrieval.rerank import Candidate, NoReranker, annotate, get_reranker, scored_hit
from lorestack.retrieval.sync import Progress, SyncReport, run_sync
from lorestack.retrieval.usage import UsageStore
from lorestack.retrieval.vectors import VectorStore

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.doctor import DoctorReport

MODES = SEARCH_MODES  # see retrieval/modes.py; "hybrid" is an alias of "default"
__all__ = ["MODES", "MemoryIndex", "ScoredDoc", "SearchHit", "search"]
MAX_QUERY_CHARS = 20_000
# a search-triggered sync embeds at most this many items; more is a job for `reindex`
SEARCH_EMBED_LIMIT = 500


def _log_warning(message: str) -> None:
    get_logger("index").warning(message)


class MemoryIndex:
    """The derived index of one memory (project + global items, project journal)."""

    def __init__(self, mem: Memory, *, warn: Callable[[str], None] | None = None,
                 sync_interval: float = 0.0):
        """`sync_interval` (seconds): a long-lived process (MCP server) may skip the per-search
        stat sweep when the last one is that recent; 0 sweeps before every search."""
        self.mem = mem
        self.sync_interval = sync_interval
        self._last_sweep = 0.0
        self.settings = mem.settings
        self.dir = mem.primary.index_dir
        self.warn = warn or _log_warning
        self.lexical = LexicalIndex(self.dir / "tantivy")
        self.vectors = VectorStore(self.dir / "chroma", url=self.settings.retrieval.chroma_url,
                                   collection=self._collection_name(), token=self._chroma_token(),
                                   timeout_s=self.settings.retrieval.chroma_timeout_s,
                                   sync_lock=self._sync_lock_now)
        self._catalog: Catalog | None = None
        self._usage: UsageStore | None = None
        self._embedder = None
        self._file_stats: tuple[int, dict[str, tuple[int, int, str, int]]] | None = None
        self.fresh_docs: dict[str, list] = {}  # docs a sync's scan parsed, for its reconcile
        self._query_vectors: OrderedDict[str, object] = OrderedDict()
        # speakers and the catalog's data_version at reading (another process's sync moves it)
        self._speakers: tuple[int, set[str]] | None = None
        self.query_cache_size = 64
        self.pending_removals: list[str] = []
        self.changed_files: dict[str, list | None] | None = None  # a sync's, before its change
        self.last_warnings: list[str] = []

    def _collection_name(self) -> str:
        if not self.settings.retrieval.chroma_url:
            return "lorestack"
        # A shared server holds many memories: one namespace per project, one collection per
        # clone in it. Clones sit at different commits, so each keeps its own vectors (a
        # shared collection would let one teammate's delete remove another's live item).
        # The host name is in the digest: two laptops may check out to the same path.
        import socket

        r = self.settings.retrieval
        clone = f"{socket.gethostname()}:{self.mem.primary.root.resolve()}"
        digest = hashlib.sha256(clone.encode()).hexdigest()[:10]
        name = r.chroma_namespace or self.mem.project_name
        slug = re.sub(r"[^a-zA-Z0-9_-]+", "-", name).strip("-_")[:40] or "memory"
        return f"lorestack-{slug}-{digest}"

    def _chroma_token(self) -> str:
        import os

        env = self.settings.retrieval.chroma_token_env
        if not env:
            return ""
        token = os.environ.get(env, "")
        if not token:
            self.warn(f"retrieval.chroma_token_env names {env}, which is not set; "
                      "connecting to the Chroma server without a token")
        return token

    # ---- parts ----------------------------------------------------------------------
    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self.ensure_dir()
            path = self.dir / "catalog.sqlite"
            try:
                self._catalog = Catalog(path, StoreRoots.of(self.mem))
            except CatalogError as exc:
                refuse_if_read_only(self.dir, exc)  # never rebuild what we cannot write
                # the manifest is a cache too: start over, and drop indexes it described
                self.warn(f"index catalog unreadable ({exc}); rebuilding the index")
                for suffix in ("", "-wal", "-shm"):
                    part = path.with_name(path.name + suffix)
                    if part.is_dir() and not part.is_symlink():
                        import shutil

                        shutil.rmtree(part, ignore_errors=True)
                    else:
                        part.unlink(missing_ok=True)
                self.lexical.destroy()
                self.vectors.destroy()
                self._catalog = Catalog(path, StoreRoots.of(self.mem))
        return self._catalog

    @property
    def usage(self) -> UsageStore:
        if self._usage is None:
            self.ensure_dir()
            self._usage = UsageStore(self.dir / "usage.sqlite")
            if self._usage.reset_reason:
                self._warn(f"usage stats were unreadable ({self._usage.reset_reason}); "
                           "started them over")
        return self._usage

    def ensure_dir(self) -> None:
        """`.index` must be a folder; anything else under that name is moved aside (said)."""
        from lorestack.memory_layers.fsutil import ensure_cache_dir

        if self.dir.is_dir():
            return
        moved = ensure_cache_dir(self.dir)
        if moved is not None:
            self._warn(f"{self.dir} was not a folder; moved it to {moved.name} and rebuilt the "
                       "index there (delete that file once you have looked at it)")

    def embedder(self):
        if self._embedder is None:
            from lorestack.retrieval.embedding import get_embedder

            self._embedder = get_embedder(self.settings)
        return self._embedder

    def file_stats(self, refresh: bool = False) -> dict[str, tuple[int, int, str, int]]:
        """The catalog's file table, kept; `refresh`: read again if another process has
        committed to it since (a read: 16 ms at 100k docs)."""
        if self._file_stats is None or refresh and self.catalog.data_version() != self._file_stats[0]:
            self._file_stats = (self.catalog.data_version(), self.catalog.file_stats())
        return self._file_stats[1]

    def close(self) -> None:
        for part in (self._catalog, self._usage):
            if part is not None:
                part.close()
        self._catalog = self._usage = None
        self.lexical.close()
        self.vectors.close()

    # ---- health used by sync ----------------------------------------------------------
    def is_clean(self) -> bool:
        """Catalog says every index is up to date and both index folders are still there."""
        if self.catalog.get_meta("state") != "clean":
            return False
        if not (self.lexical.directory / "meta.json").is_file():
            return False
        if not self.lexical.schema_current():
            return False  # built by another version: the next sync rebuilds it
        return self.vectors.remote or (self.vectors.directory / "chroma.sqlite3").is_file()

    def set_clean(self, clean: bool) -> None:
        self.catalog.set_meta("state", "clean" if clean else "dirty")

    def ensure_lexical(self, report: SyncReport) -> bool:
        """Open the lexical index; recreate it (and re-mark its docs) if missing or corrupt."""
        existed = (self.lexical.directory / "meta.json").is_file()
        try:
            self.lexical.open(create=True)
            if not existed:
                if any(s.lex_hash for s in self.catalog.doc_states().values()):
                    report.warnings.append("lexical index was missing; rebuilt it from the files")
                self.catalog.reset_index_marks(lexical=True)
            return True
        except Exception as exc:  # noqa: BLE001 - corrupt files raise many types
            from lorestack.retrieval.lexical import SchemaChanged

            what = "from another version" if isinstance(exc, SchemaChanged) else "corrupt"
            report.warnings.append(f"lexical index was {what} ({exc}); rebuilt it")
            self.lexical.destroy()
            try:
                self.lexical.open(create=True)
            except Exception as exc2:  # noqa: BLE001
                report.warnings.append(f"lexical index cannot be created: {exc2}")
                return False
            self.catalog.reset_index_marks(lexical=True)
            return True

    def ensure_vectors(self, report: SyncReport) -> bool:
        local_db = self.vectors.directory / "chroma.sqlite3"
        existed = self.vectors.remote or local_db.is_file()
        try:
            col = self.vectors.collection(create=True)
            if not existed or col.count() == 0:
                if any(s.vec_hash for s in self.catalog.doc_states().values()):
                    report.warnings.append("vector index was missing or empty; re-embedding")
                self.catalog.reset_index_marks(vector=True)
            return True
        except Exception as exc:  # noqa: BLE001
            report.warnings.append(f"vector index unusable ({type(exc).__name__}: {exc}); recreated it")
            if self.vectors.remote:
                return False
            self.vectors.destroy()
            try:
                self.vectors.collection(create=True)
            except Exception as exc2:  # noqa: BLE001
                report.warnings.append(f"vector index cannot be created: {exc2}")
                return False
            self.catalog.reset_index_marks(vector=True)
            return True

    # ---- public API -----------------------------------------------------------------
    def sync(self, progress: Progress | None = None) -> SyncReport:
        """Bring both indexes up to date with the files (only what changed)."""
        return self._locked_sync(progress)

    def rebuild(self, progress: Progress | None = None) -> SyncReport:
        """Drop both indexes and the manifest, then index every file (usage state is kept)."""
        from lorestack.memory_layers.fsutil import locked

        self.ensure_dir()
        with locked(self.mem.primary.locks_dir, "index-sync", timeout=60):
            self._speakers = None
            self.lexical.destroy()
            self.vectors.destroy()
            self.catalog.clear()
            self.catalog.set_meta("state", "dirty")
            self._file_stats = None
            report = run_sync(self, progress, force=True)
            seal_after_rebuild(self)  # nothing kept from before holds a key-named id raw
            return report

    def _sync_lock_now(self):
        """The index-sync lock without waiting (LorestackError when it is held)."""
        from lorestack.memory_layers.fsutil import locked

        return locked(self.mem.primary.locks_dir, "index-sync", timeout=0)

    def _locked_sync(self, progress=None, *, quick: bool = False, timeout: float = 60,
                     max_embed: int | None = None) -> SyncReport:
        from lorestack.memory_layers.fsutil import locked

        self.ensure_dir()
        with locked(self.mem.primary.locks_dir, "index-sync", timeout=timeout):
            report = run_sync(self, progress, quick=quick, max_embed=max_embed)
        if report.changed:
            self.docs_changed()
        return report

    def docs_changed(self) -> None:
        """A sync changed the docs (one outside `sync()` too): the speakers are read again."""
        self._speakers = None

    def speakers(self) -> set[str]:
        """The speakers of the indexed events (cached until a sync changes the docs)."""
        version = self.catalog.data_version()
        if self._speakers is None or self._speakers[0] != version:
            self._speakers = (version, self.catalog.speakers())
        return self._speakers[1]

    def doctor(self, repair: bool = False) -> DoctorReport:
        from lorestack.retrieval.doctor import run_doctor

        return run_doctor(self, repair=repair)

    def _embed_query(self, query: str):
        vec = self._query_vectors.get(query)
        if vec is None:
            embedder = self.embedder()
            one = getattr(embedder, "embed_one", None)  # kept per process, shared by indexes
            vec = one(query) if one is not None else embedder.embed([query])[0]
            self._query_vectors[query] = vec
            if len(self._query_vectors) > self.query_cache_size:
                self._query_vectors.popitem(last=False)
        return vec

    def prime_queries(self, queries: list[str]) -> None:
        """Embed many queries in one batched run (a bench asks them all anyway)."""
        todo = list(dict.fromkeys(q[:MAX_QUERY_CHARS] for q in queries
                                  if q.strip() and q[:MAX_QUERY_CHARS] not in self._query_vectors))
        if not todo:
            return
        self.query_cache_size = max(self.query_cache_size, len(self._query_vectors) + len(todo))
        for query, vec in zip(todo, self.embedder().embed(todo)):
            self._query_vectors[query] = vec

    def ranking_depth(self, k: int) -> int:
        """How many candidates a search for `k` ranks (`search` keeps the best k of them)."""
        return max(k, self.settings.retrieval.candidates)

    def search(self, query: str, *, k: int = 10, types: list[str] | None = None,
               layers: list[str] | None = None, mode: str | RecallMode = "default",
               include_status=("active",), now: datetime | None = None, explain: bool = False,
               sync: bool = True, record_access: bool = True,
               scopes: list[str] | None = None) -> list[ScoredDoc]:
        """Best `k` items/events for `query`. Never raises because of the query text.

        `mode` (retrieval/modes.py): default = every retriever + rerank; rrf = BM25 + dense
        fused, no rerank; bm25 / vector = one retriever."""
        mode = parse_mode(mode).value
        now = now or datetime.now(timezone.utc)
        query = (query or "")[:MAX_QUERY_CHARS]
        self.last_warnings = []
        refuse_if_read_only(self.dir)  # every part below must write: say why, not "corrupt"
        if sync:
            self._search_sync()
        if not query.strip() or k <= 0:
            return []
        r = self.settings.retrieval
        n = self.ranking_depth(k)
        filters = Filters(types=list(types) if types else None,
                          layers=list(layers) if layers else None,
                          scopes=list(scopes) if scopes else None,
                          statuses=list(include_status) if include_status else None)
        parts: list[tuple[Retriever, float]] = []
        said: frozenset[str] = frozenset()  # known speakers' name words the query says
        if mode == "default" and (not r.name_only_hits or r.dense_names != "keep"):
            from lorestack.retrieval.speakers import name_words

            said = name_words(query, self.speakers())
        if mode in ("bm25", "rrf", "default"):
            weight = 1.0 if mode == "bm25" else r.bm25_weight
            near = r.neighbour_weight if mode == "default" and r.neighbour_chars > 0 else 0.0
            names = frozenset() if r.name_only_hits else said  # retrieval.name_only_hits
            parts.append((LexicalRetriever(self.lexical, now, near_weight=near, names=names,
                                           abstain=mode == "default"), weight))
        if mode in ("vector", "rrf", "default"):
            def accept(ids, f):
                return self.catalog.matching(ids, f.as_pairs())

            embed: Callable[[str], Any] = self._embed_query
            plain = query
            if mode == "default" and r.dense_names != "keep":
                from lorestack.retrieval.speakers import without_names

                plain = without_names(query, said)
            if plain != query and r.dense_names == "drop":
                embed = lambda _q: self._embed_query(plain)  # noqa: E731
            parts.append((VectorRetriever(self.vectors, embed, accept),
                          r.vector_weight if mode != "vector" else 1.0))
            if plain != query and r.dense_names == "both":  # a second dense ranking, fused
                parts.append((VectorRetriever(self.vectors, lambda _q: self._embed_query(plain),
                                              accept, name="vector-plain"), r.vector_weight))
        if mode == "default" and r.date_weight > 0 and self.mem.journal is not None:
            from lorestack.retrieval.temporal import DateRetriever

            parts.append((DateRetriever(self.mem.journal, self.lexical, now, self.catalog.get_docs),
                          r.date_weight))
        fused = FusionRetriever(parts, rrf_k=r.rrf_k).fuse(query, n, filters, per_retriever=n)
        # --explain: say when BM25 sat out (lexical.ABSTAIN_COVERAGE), not only "rank -"
        abstained = explain and any(getattr(p, "abstained", False) for p, _w in parts)
        for message in fused.warnings:
            self._warn(message + "; results from the remaining retrievers only")
        docs = self.catalog.get_docs([f.id for f in fused.hits])
        usage = self.usage.get(list(docs)) if docs else {}
        named: set[str] = set()
        if mode == "default" and r.speaker_weight > 0:
            from lorestack.retrieval.speakers import named_speakers

            named = named_speakers(query, self.speakers())
        candidates = []
        for f in fused.hits:
            doc = docs.get(f.id)
            if doc is None or not filters.admits(doc):
                continue  # stale index entry: the catalog (from the files) has the last word
            count, last = usage.get(f.id, (0, None))
            score = f.score
            if named and doc.speaker.lower() in named:
                score *= 1.0 + r.speaker_weight  # said by the person the query is about
            candidates.append(Candidate(doc, score, f.ranks, count, last))
        annotate(candidates, now, self.settings)
        reranker = get_reranker(self.settings) if mode == "default" else NoReranker()
        try:
            ranked = reranker.rerank(query, candidates, now)
        except LorestackError as exc:
            self._warn(f"{reranker.name} reranker failed ({exc}); using fused order")
            ranked = NoReranker().rerank(query, candidates, now)
        top = ranked[:k]
        if record_access and top:
            self.usage.record([c.doc.id for c in top], now)
        ran_plain = any(part.name == "vector-plain" for part, _w in parts)
        return [scored_hit(c, explain, ran_plain, abstained) for c in top]

    def _search_sync(self) -> None:
        if self.sync_interval and time.monotonic() - self._last_sweep < self.sync_interval:
            return
        try:
            report = self._locked_sync(quick=True, timeout=2, max_embed=SEARCH_EMBED_LIMIT)
        except LorestackError as exc:
            self._warn(f"index not synced ({exc}); results may be stale")
            return
        except Exception as exc:  # noqa: BLE001 - a cache problem must not fail a search
            refuse_if_read_only(self.dir, exc)
            self._warn(f"index sync failed ({type(exc).__name__}: {exc}); results may be stale")
            return
        self._last_sweep = time.monotonic()
        for message in report.warnings:
            self._warn(message)
        for message in report.skipped:
            self._warn(f"not read: {message}")

    def _warn(self, message: str) -> None:
        self.last_warnings.append(message)
        self.warn(message)


def search(mem: Memory, query: str, **kw) -> list[ScoredDoc]:
    """One-shot search (opens the index, searches, closes; the service's warm one if pooled)."""
    from lorestack.retrieval.pool import borrow_index

    with borrow_index(mem, warn=_log_warning) as index:
        return index.search(query, **kw)
