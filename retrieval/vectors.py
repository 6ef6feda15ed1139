"""Dense retriever storage: Chroma, embedded (PersistentClient) or a server (HttpClient).

We hand Chroma our own vectors (collection created with `embedding_function=None`), so Chroma
never loads or downloads a model. Long items are split into chunks (llama-index
SentenceSplitter); each chunk is a vector `<doc id>::<n>` whose metadata names its doc.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lorestack.retrieval.lexical import Filters

if TYPE_CHECKING:  # pragma: no cover  (numpy only with the dense side: a BM25 answer skips it)
    import numpy as np

    from lorestack.retrieval.documents import IndexDoc

COLLECTION = "lorestack"

# HNSW's search beam. Chroma's default (100) leaves the approximate search missing some of
# the true nearest ~110 vectors we ask for, and *which* it misses changes each time the graph
# is built (Chroma's build is not reproducible): two builds of the same turns ranked 21 of 40
# test queries differently at 600 vectors. With 500 both builds return the exact neighbours
# up to a few thousand vectors and >= 97 % of them at 10k, for ~0.7 ms more per query there.
EF_SEARCH = 500
HNSW_CONFIG: dict[str, Any] = {"hnsw": {"space": "cosine", "ef_search": EF_SEARCH}}

# never swallowed: the user or the interpreter asked us to stop
_STOP = (KeyboardInterrupt, SystemExit, GeneratorExit)


def import_chromadb():
    """chromadb, with its Rust thread pool at one thread unless RAYON_NUM_THREADS says
    otherwise. chromadb 1.5.9 adds a write's vectors to its in-memory index on several threads;
    after a read in the same process some of them were lost from every later query of that
    process (still stored: a new process found them). Write 11, read, write 9, query, in fresh
    folders: 20 runs of 1,000 lost vectors with the default pool on 2 cores, 82 with 8 threads,
    0 with 1 (thirty-seventh session). The resident service writes and reads in one process."""
    one_chroma_thread()
    import chromadb

    return chromadb


def one_chroma_thread() -> None:
    """RAYON_NUM_THREADS=1 unless set (see import_chromadb); on the main thread, before any
    thread that reads the environment starts (setenv beside a reader may crash old glibc)."""
    os.environ.setdefault("RAYON_NUM_THREADS", "1")


one_chroma_thread()  # at import, which is on the main thread in every entry point we have


def _widen_search(collection) -> None:
    """A collection made with a narrower beam gets ours (used from the next process on)."""
    try:
        hnsw = (collection.configuration_json or {}).get("hnsw") or {}
        if int(hnsw.get("ef_search") or EF_SEARCH) < EF_SEARCH:
            collection.modify(configuration={"hnsw": {"ef_search": EF_SEARCH}})
    except Exception:  # noqa: BLE001 - a narrower beam is only less exact, never wrong
        pass


class VectorStoreError(Exception):
    """Chroma failed in a way that is not an ordinary exception (a Rust panic)."""


def _contained(method):
    """Turn a Rust panic surfacing from Chroma (pyo3's PanicException derives from
    BaseException, so `except Exception` misses it) into a VectorStoreError, which every
    caller already treats as "vector index unusable"."""
    import functools

    @functools.wraps(method)
    def wrapper(self, *args, **kwargs):
        try:
            return method(self, *args, **kwargs)
        except Exception:
            raise
        except _STOP:
            raise
        except BaseException as exc:  # noqa: BLE001 - pyo3_runtime.PanicException
            self._client = self._collection = None  # a panicked client is not reused
            first = str(exc).splitlines()[0] if str(exc) else ""
            raise VectorStoreError(f"Chroma's Rust core gave up ({first[:200]}); its "
                                   "database is probably damaged") from None

    return wrapper


def chroma_settings():
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False, allow_reset=True)


def chunk_id(doc_id: str, n: int) -> str:
    return f"{doc_id}::{n}"


def doc_metadata(doc: IndexDoc) -> dict:
    meta = {"doc": doc.id, "type": doc.type, "layer": doc.layer, "scope": doc.scope,
            "status": doc.status}
    # events from conversations: who said it and in which session (Chroma takes no empty or
    # None values worth storing, so an event without them carries neither key)
    for key in ("speaker", "session"):
        value = getattr(doc, key, "")
        if value:
            meta[key] = value
    return meta


def where_clause(filters: Filters | None) -> dict | None:
    pairs = filters.as_pairs() if filters else []
    conditions = [{field: {"$in": values}} for field, values in pairs]
    if not conditions:
        return None
    return conditions[0] if len(conditions) == 1 else {"$and": conditions}


def _heartbeat(host: str, port: int, ssl: bool, headers: dict, seconds: float) -> None:
    import http.client

    conn_cls = http.client.HTTPSConnection if ssl else http.client.HTTPConnection
    conn = conn_cls(host, port, timeout=seconds)
    try:
        conn.request("GET", "/api/v2/heartbeat", headers=headers)
        conn.getresponse().read()
    except OSError as exc:  # refused, unreachable, timed out
        raise VectorStoreError(f"Chroma server {host}:{port} unreachable ({exc})") from exc
    finally:
        conn.close()


def _bound_http_timeout(client, seconds: float) -> None:
    """Give chroma's httpx session (created with timeout=None) a deadline, so a server that
    accepts but never answers degrades search to BM25 instead of hanging it."""
    try:
        import httpx

        session = client._server._session  # chromadb.api.fastapi.FastAPI
        session.timeout = httpx.Timeout(seconds)
    except Exception:  # noqa: BLE001, S110 - chroma internals moved: keep its behaviour
        pass


def forget_cached_system(directory: Path) -> None:
    """Drop chroma's in-process system for `directory` so a new client reopens the files."""
    try:
        from chromadb.api.shared_system_client import SharedSystemClient
    except ImportError:  # pragma: no cover - chroma internals moved
        return
    key = str(directory)
    system = SharedSystemClient._identifier_to_system.pop(key, None)
    SharedSystemClient._identifier_to_refcount.pop(key, None)
    if system is not None:
        try:
            system.stop()
        except Exception:  # noqa: BLE001, S110 - a system over deleted files may not stop cleanly
            pass


class VectorStore:
    """One Chroma collection per memory root (or per project name on a shared server)."""

    def __init__(self, directory: Path, *, url: str = "", collection: str = COLLECTION,
                 token: str = "", timeout_s: float = 10.0, sync_lock=None):
        self.directory = directory
        # the index-sync lock, tried without waiting (raises when another process holds it)
        self._sync_lock = sync_lock
        self.url = url
        self.token = token
        self.timeout_s = timeout_s
        self.collection_name = collection
        self._client: Any = None  # chromadb client, made on first use (heavy import)
        self._collection: Any = None
        self._capacity_checked = False  # HNSW files cleared past their live elements

    @property
    def remote(self) -> bool:
        return bool(self.url)

    def _make_client(self):
        chromadb = import_chromadb()

        if self.url:
            from urllib.parse import urlparse

            parsed = urlparse(self.url if "://" in self.url else f"http://{self.url}")
            host = parsed.hostname or "localhost"
            port = parsed.port or (443 if parsed.scheme == "https" else 8000)
            headers = {"X-Chroma-Token": self.token} if self.token else None
            # chroma's HTTP session has no timeout at all, and its constructor already talks
            # to the server: ask for a heartbeat ourselves first, with a deadline
            _heartbeat(host, port, parsed.scheme == "https", headers or {}, self.timeout_s)
            client = chromadb.HttpClient(host=host, port=port, ssl=parsed.scheme == "https",
                                         headers=headers, settings=chroma_settings())
            _bound_http_timeout(client, self.timeout_s)
            return client
        if not (self.directory / "chroma.sqlite3").is_file():
            forget_cached_system(self.directory)  # deleted under a live client of this process
        self.directory.mkdir(parents=True, exist_ok=True)
        return chromadb.PersistentClient(path=str(self.directory), settings=chroma_settings())

    @_contained
    def collection(self, create: bool = True):
        if self._collection is not None:
            return self._collection
        if not create and not self.remote and not (self.directory / "chroma.sqlite3").is_file():
            raise FileNotFoundError(f"{self.directory} has no Chroma database")
        if self._client is None:
            self._client = self._make_client()
        if not self.remote:
            self._adopt_legacy_collection()
        if create:
            self._collection = self._client.get_or_create_collection(
                self.collection_name, configuration=HNSW_CONFIG, embedding_function=None)
            self._clear_unused_capacity()
        else:
            self._collection = self._client.get_collection(self.collection_name,
                                                           embedding_function=None)
        _widen_search(self._collection)
        return self._collection

    def _adopt_legacy_collection(self) -> None:
        """An index written under the tool's former name keeps its vectors: its collection is
        renamed, not re-embedded."""
        from lorestack.core import legacy

        old = legacy.legacy_form(self.collection_name)
        if old == self.collection_name:
            return
        try:
            names = {getattr(c, "name", c) for c in self._client.list_collections()}
            if old in names and self.collection_name not in names:
                self._client.get_collection(old, embedding_function=None).modify(
                    name=self.collection_name)
        except Exception:  # noqa: BLE001 - at worst the index is rebuilt, as any stale cache
            pass

    def close(self) -> None:
        client, self._client, self._collection = self._client, None, None
        if client is not None and hasattr(client, "close"):
            try:
                client.close()  # chroma shares one system per path, refcounted
            except _STOP:
                raise
            except BaseException:  # noqa: BLE001, S110 - closing a broken client is best effort
                pass

    def destroy(self) -> None:
        """Drop everything (a rebuild or a repair). Local: also the folder and chroma's cache."""
        if self.remote:
            try:
                client = self._client or self._make_client()
                client.delete_collection(self.collection_name)
            except Exception:  # noqa: BLE001, S110 - a missing collection is what we want anyway
                pass
            self.close()
            return
        self.close()
        forget_cached_system(self.directory)
        shutil.rmtree(self.directory, ignore_errors=True)

    @_contained
    def count(self) -> int:
        try:
            return self.collection(create=False).count()
        finally:
            self._clear_after_read()

    @_contained
    def doc_ids(self) -> set[str]:
        """Docs that have at least one vector (for doctor)."""
        col = self.collection(create=False)
        out: set[str] = set()
        total = col.count()
        for offset in range(0, total, 5000):
            got = col.get(include=["metadatas"], limit=5000, offset=offset)
            out.update(m["doc"] for m in got["metadatas"] if m and "doc" in m)
        self._clear_after_read()
        return out

    # ---- writing --------------------------------------------------------------------
    @_contained
    def upsert(self, ids: list[str], vectors: np.ndarray, metadatas: list[dict]) -> None:
        col = self.collection()
        for start in range(0, len(ids), 2000):
            end = start + 2000
            col.upsert(ids=ids[start:end], embeddings=vectors[start:end],
                       metadatas=metadatas[start:end])
        self._clear_unused_capacity()

    @_contained
    def update_metadata(self, ids: list[str], metadatas: list[dict]) -> None:
        col = self.collection()
        for start in range(0, len(ids), 2000):
            col.update(ids=ids[start:start + 2000], metadatas=metadatas[start:start + 2000])
        self._clear_unused_capacity()

    @_contained
    def delete(self, ids: list[str]) -> None:
        if not ids:
            return
        col = self.collection()
        for start in range(0, len(ids), 2000):
            col.delete(ids=ids[start:start + 2000])
        self._clear_unused_capacity()

    def _clear_unused_capacity(self) -> None:
        """Chroma writes a new HNSW segment at full capacity from uncleared memory, which can
        hold freed text of this process (a key read before it was redacted): zero it. Called
        after each write, inside the index-sync lock (retrieval/hnsw_files.py)."""
        if not self.remote:
            from lorestack.retrieval.hnsw_files import clear_unused_capacity

            clear_unused_capacity(self.directory)
        self._capacity_checked = True

    def _clear_after_read(self) -> None:
        """Under 1,000 vectors the HNSW graph is empty, and Chroma writes it again at full
        capacity (from uncleared memory) the first time a process reads the collection: a
        search, doctor, a hook. So a read clears too, when the index-sync lock is free; when
        another process holds it, that process is writing and clears after its writes, and
        the next read or sync clears what is left (the note's stamp shows the change)."""
        if self.remote or self._sync_lock is None:
            return
        try:
            with self._sync_lock():
                self._clear_unused_capacity()
        except Exception:  # noqa: BLE001, S110 - busy or unwritable: never fails a read
            pass

    def clear_unused_capacity_once(self) -> None:
        """The first sync of a process also clears a segment written before lorestack did so
        (an upgrade), though it writes no vector."""
        if not self._capacity_checked:
            self._clear_unused_capacity()

    # ---- reading --------------------------------------------------------------------
    @_contained
    def search(self, vector: np.ndarray, limit: int, filters: Filters | None = None,
               accept=None) -> list[tuple[str, float]]:
        """[(doc id, cosine similarity)] best first, one entry per doc (its best chunk).

        Chroma's metadata `where` pre-filter costs time linear in the collection, so with an
        `accept(doc_ids) -> allowed ids` callback we first ask unfiltered (over-fetching) and
        filter by the catalog; only when too few survive do we ask again with `where`.
        """
        col = self.collection(create=False)
        try:
            if filters is not None and filters.as_pairs() and accept is not None:
                ranked = self._query(col, vector, limit * 2 + 10, None)
                allowed = accept([d for d, _ in ranked])
                kept = [(d, s) for d, s in ranked if d in allowed]
                if len(kept) >= limit or len(ranked) < limit * 2 + 10:
                    return kept[:limit]
            return self._query(col, vector, limit * 2, where_clause(filters))[:limit]
        except Exception:
            self.close()  # the next call reopens instead of reusing a broken handle
            raise
        finally:
            self._clear_after_read()

    @staticmethod
    def _query(col, vector, n: int, where) -> list[tuple[str, float]]:
        result = col.query(query_embeddings=[vector], n_results=max(1, n), where=where,
                           include=["distances"])
        best: dict[str, float] = {}
        for vid, dist in zip(result["ids"][0], result["distances"][0]):
            doc = vid.rsplit("::", 1)[0]
            sim = 1.0 - float(dist)
            if sim > best.get(doc, -2.0):
                best[doc] = sim
        # rounded, ties by id: the order does not hang on float noise or Chroma's return order
        return sorted(best.items(), key=lambda kv: (-round(kv[1], 6), kv[0]))
