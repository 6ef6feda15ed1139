"""The sync manifest: which files were seen (stat + hash) and what each index holds.

A small sqlite file under `.memory/.index/`. It is a cache like the indexes: deleting it
only costs a rebuild. `files` remembers (mtime_ns, size, sha256) and the parsed docs of each
source file; `docs` is the merged document set plus, per doc, the hash each index holds.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

from lorestack.retrieval.documents import IndexDoc

CATALOG_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, kind TEXT, mtime_ns INTEGER, size INTEGER, sha TEXT,
    docs TEXT, problems TEXT);
CREATE TABLE IF NOT EXISTS docs (
    id TEXT PRIMARY KEY, payload TEXT, doc_hash TEXT, content_hash TEXT,
    lex_hash TEXT, vec_hash TEXT, vec_meta TEXT, chunks INTEGER DEFAULT 0,
    type TEXT, layer TEXT, scope TEXT, status TEXT);
"""


@dataclass
class DocState:
    """What the indexes hold for one doc."""

    doc_hash: str
    content_hash: str
    lex_hash: str | None
    vec_hash: str | None
    vec_meta: str | None
    chunks: int


@dataclass(frozen=True, slots=True)
class DocKey:
    """What merging the files' docs needs of one parsed doc, and its hash; the doc itself is
    read again (`Catalog.file_doc`) only when it must be written to the docs table."""

    id: str
    type: str
    title: str
    file_rank: int
    path: str
    status: str
    doc_hash: str
    file: str  # the files table's key
    at: int    # its place in that file's docs


class CatalogError(Exception):
    pass


class Catalog:
    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(path), timeout=10, isolation_level=None,
                                      check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            version = self.get_meta("version")
        except sqlite3.DatabaseError as exc:
            raise CatalogError(f"{path}: {exc}") from exc
        if version is None:
            self.set_meta("version", str(CATALOG_VERSION))
        elif version != str(CATALOG_VERSION):
            raise CatalogError(f"{path}: catalog version {version}, expected {CATALOG_VERSION}")
        # per file: (digest of its stored docs and problems, their keys, problems), so a sync
        # parses and hashes only the files whose stored docs changed since it last read them
        self._keys: dict[str, tuple[bytes, list[DocKey], list[str]]] = {}

    def close(self) -> None:
        self.db.close()

    # ---- meta -----------------------------------------------------------------------
    def get_meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    # ---- files ----------------------------------------------------------------------
    def file_stats(self) -> dict[str, tuple[int, int, str]]:
        return {p: (m, s, h) for p, m, s, h in
                self.db.execute("SELECT path, mtime_ns, size, sha FROM files")}

    def file_docs(self) -> dict[str, tuple[list[IndexDoc], list[str]]]:
        out = {}
        for path, docs, problems in self.db.execute("SELECT path, docs, problems FROM files"):
            out[path] = ([IndexDoc.from_json(d) for d in json.loads(docs)], json.loads(problems))
        return out

    def file_doc_keys(self) -> tuple[dict[str, list[DocKey]], list[str],
                                     dict[str, list[IndexDoc]]]:
        """(per file the keys of its docs, every file's problems, the docs parsed now).

        A file's stored docs are parsed and hashed again only when their text differs from
        what this catalog last read (another process's sync included); the others' keys are
        kept from then. Same result as parsing `file_docs()` whole."""
        keys: dict[str, list[DocKey]] = {}
        problems: list[str] = []
        parsed: dict[str, list[IndexDoc]] = {}
        kept: dict[str, tuple[bytes, list[DocKey], list[str]]] = {}
        for path, docs_text, problems_text in self.db.execute(
                "SELECT path, docs, problems FROM files"):
            digest = hashlib.blake2b(f"{docs_text}\0{problems_text}".encode(),
                                     digest_size=16).digest()
            entry = self._keys.get(path)
            if entry is None or entry[0] != digest:
                docs = [IndexDoc.from_json(d) for d in json.loads(docs_text)]
                parsed[path] = docs
                entry = (digest, [DocKey(d.id, sys.intern(d.type), d.title, d.file_rank,
                                         path if d.path == path else d.path,
                                         sys.intern(d.status), d.doc_hash, path, n)
                                  for n, d in enumerate(docs)],
                         json.loads(problems_text))
            kept[path] = entry
            keys[path] = entry[1]
            problems.extend(entry[2])
        self._keys = kept
        return keys, problems, parsed

    def file_doc(self, key: DocKey) -> IndexDoc:
        """The parsed doc a key stands for."""
        row = self.db.execute("SELECT docs FROM files WHERE path=?", (key.file,)).fetchone()
        return IndexDoc.from_json(json.loads(row[0])[key.at])

    def put_file(self, path: str, kind: str, mtime_ns: int, size: int, sha: str,
                 docs: list[IndexDoc], problems: list[str]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?)",
            (path, kind, mtime_ns, size, sha, json.dumps([d.to_json() for d in docs]),
             json.dumps(problems)))

    def touch_file(self, path: str, mtime_ns: int, size: int) -> None:
        self.db.execute("UPDATE files SET mtime_ns=?, size=? WHERE path=?", (mtime_ns, size, path))

    def drop_file(self, path: str) -> None:
        self.db.execute("DELETE FROM files WHERE path=?", (path,))

    def problems(self) -> list[str]:
        out: list[str] = []
        for (problems,) in self.db.execute("SELECT problems FROM files WHERE problems != '[]'"):
            out.extend(json.loads(problems))
        return out

    # ---- docs -----------------------------------------------------------------------
    def doc_states(self) -> dict[str, DocState]:
        return {row[0]: DocState(*row[1:]) for row in self.db.execute(
            "SELECT id, doc_hash, content_hash, lex_hash, vec_hash, vec_meta, chunks FROM docs")}

    def put_doc(self, doc: IndexDoc) -> None:
        """Record the desired doc; index columns are kept until the indexes confirm."""
        self.db.execute(
            "INSERT INTO docs (id, payload, doc_hash, content_hash, type, layer, scope, status) "
            "VALUES (?,?,?,?,?,?,?,?) "
            "ON CONFLICT(id) DO UPDATE SET payload=excluded.payload, doc_hash=excluded.doc_hash, "
            "content_hash=excluded.content_hash, type=excluded.type, layer=excluded.layer, "
            "scope=excluded.scope, status=excluded.status",
            (doc.id, json.dumps(doc.to_json(), ensure_ascii=False), doc.doc_hash, doc.content_hash,
             doc.type, doc.layer, doc.scope, doc.status))

    def drop_doc(self, doc_id: str) -> None:
        self.db.execute("DELETE FROM docs WHERE id=?", (doc_id,))

    def mark_lexical(self, ids_hashes: list[tuple[str, str | None]]) -> None:
        self.db.executemany("UPDATE docs SET lex_hash=? WHERE id=?", [(h, i) for i, h in ids_hashes])

    def mark_vector(self, rows: list[tuple[str, str | None, str | None, int]]) -> None:
        self.db.executemany("UPDATE docs SET vec_hash=?, vec_meta=?, chunks=? WHERE id=?",
                            [(c, m, n, i) for i, c, m, n in rows])

    def reset_index_marks(self, lexical: bool = False, vector: bool = False) -> None:
        if lexical:
            self.db.execute("UPDATE docs SET lex_hash=NULL")
        if vector:
            self.db.execute("UPDATE docs SET vec_hash=NULL, vec_meta=NULL, chunks=0")

    def get_docs(self, ids: list[str]) -> dict[str, IndexDoc]:
        out: dict[str, IndexDoc] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for doc_id, payload in self.db.execute(
                    f"SELECT id, payload FROM docs WHERE id IN ({marks})", chunk):
                out[doc_id] = IndexDoc.from_json(json.loads(payload))
        return out

    def matching(self, ids: list[str], pairs: list[tuple[str, list[str]]]) -> set[str]:
        """The subset of `ids` whose filter columns match (type/layer/scope/status)."""
        out: set[str] = set()
        where = "".join(f" AND {col} IN ({','.join('?' * len(vals))})" for col, vals in pairs)
        params_tail = [v for _, vals in pairs for v in vals]
        for start in range(0, len(ids), 400):
            chunk = ids[start:start + 400]
            sql = f"SELECT id FROM docs WHERE id IN ({','.join('?' * len(chunk))}){where}"
            out.update(r[0] for r in self.db.execute(sql, [*chunk, *params_tail]))
        return out

    def speakers(self) -> set[str]:
        """Every speaker named by an indexed event (one indexed scan of the docs table)."""
        rows = self.db.execute(
            "SELECT DISTINCT json_extract(payload, '$.speaker') FROM docs WHERE type='event'")
        return {r[0] for r in rows if r[0]}

    def data_version(self) -> int:
        """Changes whenever another connection (another process's sync) commits."""
        return self.db.execute("PRAGMA data_version").fetchone()[0]

    def count_docs(self) -> int:
        return self.db.execute("SELECT count(*) FROM docs").fetchone()[0]

    def clear(self) -> None:
        self.db.execute("DELETE FROM files")
        self.db.execute("DELETE FROM docs")

    def transaction(self):
        return _Tx(self.db)


class _Tx:
    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, exc_type, exc, tb):
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        return False
