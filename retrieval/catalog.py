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
import time
from dataclasses import dataclass, replace
from pathlib import Path

from lorestack.retrieval.catalog_paths import StoreRoots, former_roots
from lorestack.retrieval.documents import IndexDoc

# the doc_hash of a row whose doc is gone from the files, kept until the indexes drop it
REMOVED = "removed"

# 3: files keyed relative to their store (`catalog_paths`), doc paths stored the same way,
#    each file's doc keys stored (`keys`) and when its stat was last checked (`checked_ns`)
CATALOG_VERSION = 3
# a file whose mtime is this close to when it was last checked may have been edited again
# within the same timestamp tick (keeping its size): its stat is not trusted, its bytes are
# hashed again at the next sync (git's "racy" entries). 2 s covers the coarsest common
# filesystem granularity (FAT); ext4/APFS/NTFS tick far finer.
RACY_NS = 2_000_000_000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, kind TEXT, mtime_ns INTEGER, size INTEGER, sha TEXT,
    docs TEXT, problems TEXT, keys TEXT, checked_ns INTEGER DEFAULT 0);
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
    read again (`Catalog.stored_docs`) only when it must be written to the docs table."""

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
    def __init__(self, path: Path, roots: StoreRoots | None = None):
        """`roots`: where the store's files are now (keys are relative to them); without it
        keys and doc paths are returned as stored, and an older catalog cannot be read."""
        self.path = path
        self.roots = roots or StoreRoots({})
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(path), timeout=10, isolation_level=None,
                                      check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            version = self.get_meta("version")
            if version == "2" and roots is not None:
                # another process converting it holds the write lock for seconds (a minute at
                # 100k items): wait for it rather than take "locked" for a corrupt catalog
                self.db.execute("PRAGMA busy_timeout=600000")
                with self.transaction():
                    if self.get_meta("version") == "2":  # another process may have done it
                        _migrate_v2(self)
                self.db.execute("PRAGMA busy_timeout=10000")
                version = self.get_meta("version")
        except Exception as exc:  # noqa: BLE001 - any fault in the conversion too: the
            # transaction rolled back, and an index rebuilt beats search down for good
            db = getattr(self, "db", None)
            if db is not None:
                db.close()
            raise CatalogError(f"{path}: {exc}") from exc
        if version is None:
            self.set_meta("version", str(CATALOG_VERSION))
        elif version != str(CATALOG_VERSION):
            raise CatalogError(f"{path}: catalog version {version}, expected {CATALOG_VERSION}")
        # per file: (digest of its stored keys and problems, the keys, problems), so a sync
        # decodes only the files whose stored keys changed since it last read them
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
    def file_stats(self) -> dict[str, tuple[int, int, str, int]]:
        """Per file key: (mtime_ns, size, sha256, when its stat was last checked)."""
        return {p: (m, s, h, c or 0) for p, m, s, h, c in
                self.db.execute("SELECT path, mtime_ns, size, sha, checked_ns FROM files")}

    def file_docs(self) -> dict[str, tuple[list[IndexDoc], list[str]]]:
        """Every file's parsed docs (doc paths as stored) and problems, by key."""
        out = {}
        for path, docs, problems in self.db.execute("SELECT path, docs, problems FROM files"):
            out[path] = ([IndexDoc.from_json(d) for d in json.loads(docs)],
                         [self.roots.text_absolute(p) for p in json.loads(problems)])
        return out

    def file_doc_keys(self) -> tuple[dict[str, list[DocKey]], list[str]]:
        """(per file key the keys of its docs, every file's problems).

        Read from the stored keys (no doc is parsed or hashed here); a file's keys are decoded
        again only when their text differs from what this catalog last read (another
        process's sync included). Same result as keying `file_docs()` whole."""
        keys: dict[str, list[DocKey]] = {}
        problems: list[str] = []
        kept: dict[str, tuple[bytes, list[DocKey], list[str]]] = {}
        for path, keys_text, problems_text in self.db.execute(
                "SELECT path, keys, problems FROM files"):
            digest = hashlib.blake2b(f"{keys_text}\0{problems_text}".encode(),
                                     digest_size=16).digest()
            entry = self._keys.get(path)
            if entry is None or entry[0] != digest:
                entry = (digest, self._doc_keys(path, json.loads(keys_text)),
                         [self.roots.text_absolute(p) for p in json.loads(problems_text)])
            kept[path] = entry
            keys[path] = entry[1]
            problems.extend(entry[2])
        self._keys = kept
        return keys, problems

    def _doc_keys(self, path: str, rows: list) -> list[DocKey]:
        absolute = self.roots.absolute
        where = absolute(path)
        return [DocKey(i, sys.intern(t), title, rank, absolute(at) if at else where,
                       sys.intern(status), doc_hash, path, n)
                for n, (i, t, title, rank, status, doc_hash, at) in enumerate(rows)]

    def key_rows(self, key: str) -> list[list] | None:
        """One file's stored doc keys as written (id, type, title, rank, status, doc_hash,
        path), or None when the catalog has no such file."""
        row = self.db.execute("SELECT keys FROM files WHERE path=?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def doc_keys_of(self, ids: list[str], kind: str | None = None) -> dict[str, list[DocKey]]:
        """Per file key, the keys of its docs whose id is in `ids` (the files are found in
        sqlite, in one pass over the table; nothing decoded here but the files that hold one);
        with `kind`, every doc of the files of that kind instead."""
        if kind is not None:
            rows = self.db.execute("SELECT path, keys FROM files WHERE kind=?", (kind,))
        elif len(ids) <= 2:  # a text search per id: ~40 ms each at 100k docs, idle
            needles = [json.dumps(i) for i in ids]
            where = " OR ".join("instr(keys, ?) > 0" for _ in needles)
            rows = self.db.execute(f"SELECT path, keys FROM files WHERE {where}", needles)
        else:  # every stored key's id read once (~0.2 s at 100k docs, whatever their number)
            marks = ",".join("?" * len(ids))
            rows = self.db.execute(
                "SELECT path, keys FROM files WHERE path IN (SELECT f.path FROM files f, "
                f"json_each(f.keys) j WHERE json_extract(j.value, '$[0]') IN ({marks}))", ids)
        wanted = set(ids)
        out = {}
        for path, keys_text in rows:
            keys = self._doc_keys(path, json.loads(keys_text))
            out[path] = keys if kind is not None else [k for k in keys if k.id in wanted]
        return out

    def stored_docs(self, key: str) -> list[IndexDoc]:
        """One file's docs as stored (paths as keys), by the file's key."""
        row = self.db.execute("SELECT docs FROM files WHERE path=?", (key,)).fetchone()
        if row is None:  # dropped meanwhile by another process: nothing to compare with
            return []
        return [IndexDoc.from_json(d) for d in json.loads(row[0])]

    def put_file(self, path: str, kind: str, mtime_ns: int, size: int, sha: str,
                 docs: list[IndexDoc], problems: list[str], checked_ns: int = 0) -> list[IndexDoc]:
        """Record a file (by key) and its docs; returns the docs as stored (paths as keys)."""
        key_of = self.roots.key
        stored = [replace(d, path=key_of(d.path, kind)) for d in docs]
        keys = [[d.id, d.type, d.title, d.file_rank, d.status, d.doc_hash,
                 "" if d.path == path else d.path] for d in stored]
        self.db.execute(
            "INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?,?)",
            (path, kind, mtime_ns, size, sha, json.dumps([d.to_json() for d in stored]),
             json.dumps([self.roots.text_key(p) for p in problems]), json.dumps(keys),
             checked_ns))
        return stored

    def touch_file(self, path: str, mtime_ns: int, size: int, checked_ns: int = 0) -> None:
        self.db.execute("UPDATE files SET mtime_ns=?, size=?, checked_ns=? WHERE path=?",
                        (mtime_ns, size, checked_ns, path))

    def drop_file(self, path: str) -> None:
        self.db.execute("DELETE FROM files WHERE path=?", (path,))

    def problems(self) -> list[str]:
        out: list[str] = []
        for (problems,) in self.db.execute("SELECT problems FROM files WHERE problems != '[]'"):
            out.extend(self.roots.text_absolute(p) for p in json.loads(problems))
        return out

    # ---- docs -----------------------------------------------------------------------
    def doc_states(self, ids: list[str] | None = None) -> dict[str, DocState]:
        """What the indexes hold, per doc (of `ids` only, when given)."""
        sql = "SELECT id, doc_hash, content_hash, lex_hash, vec_hash, vec_meta, chunks FROM docs"
        if ids is None:
            return {row[0]: DocState(*row[1:]) for row in self.db.execute(sql)}
        out: dict[str, DocState] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            out.update((row[0], DocState(*row[1:])) for row in self.db.execute(
                f"{sql} WHERE id IN ({','.join('?' * len(chunk))})", chunk))
        return out

    def doc_states_to_apply(self, vectors: bool) -> dict[str, DocState]:
        """The docs an index does not hold as the docs table has them (the word index only,
        without `vectors`), and those left to remove: one pass in sqlite, not every state
        built here (100k docs)."""
        cond = "lex_hash IS NOT doc_hash OR doc_hash = 'removed'"
        if vectors:
            cond += " OR vec_hash IS NOT content_hash OR vec_meta IS NOT doc_hash"
        return {row[0]: DocState(*row[1:]) for row in self.db.execute(
            "SELECT id, doc_hash, content_hash, lex_hash, vec_hash, vec_meta, chunks FROM docs "
            f"WHERE {cond}")}

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
        """The live docs of `ids`. A row marked removed (its file went; kept until a full sync
        deletes its vectors) is not one: the dense ranking still finds its vectors."""
        out: dict[str, IndexDoc] = {}
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for doc_id, payload in self.db.execute(
                    f"SELECT id, payload FROM docs WHERE id IN ({marks}) "
                    f"AND doc_hash != '{REMOVED}'", chunk):
                doc = IndexDoc.from_json(json.loads(payload))
                doc.path = self.roots.absolute(doc.path)
                out[doc_id] = doc
        return out

    def matching(self, ids: list[str], pairs: list[tuple[str, list[str]]]) -> set[str]:
        """The subset of `ids` whose filter columns match (type/layer/scope/status)."""
        out: set[str] = set()
        where = "".join(f" AND {col} IN ({','.join('?' * len(vals))})" for col, vals in pairs)
        params_tail = [v for _, vals in pairs for v in vals]
        for start in range(0, len(ids), 400):
            chunk = ids[start:start + 400]
            sql = (f"SELECT id FROM docs WHERE id IN ({','.join('?' * len(chunk))}) "
                   f"AND doc_hash != '{REMOVED}'{where}")
            out.update(r[0] for r in self.db.execute(sql, [*chunk, *params_tail]))
        return out

    def speakers(self) -> set[str]:
        """Every speaker named by an indexed event (one indexed scan of the docs table)."""
        rows = self.db.execute(
            "SELECT DISTINCT json_extract(payload, '$.speaker') FROM docs WHERE type='event' "
            f"AND doc_hash != '{REMOVED}'")
        return {r[0] for r in rows if r[0]}

    def data_version(self) -> int:
        """Changes whenever another connection (another process's sync) commits."""
        return self.db.execute("PRAGMA data_version").fetchone()[0]

    def count_docs(self) -> int:
        """The live docs (not the rows kept, marked removed, for a full sync to delete)."""
        return self.db.execute(
            f"SELECT count(*) FROM docs WHERE doc_hash != '{REMOVED}'").fetchone()[0]

    def sealed_files(self) -> set[str]:
        """The files (absolute) whose name or an id in them is kept sealed (holds a key)."""
        rows = self.db.execute("SELECT path FROM files WHERE path LIKE '%[REDACTED:%' "
                               "OR keys LIKE '%[REDACTED:%'")
        return {self.roots.absolute(path) for (path,) in rows}

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


def _migrate_v2(catalog: Catalog) -> None:
    """Version 2 (absolute paths, no stored keys) → 3, in place, inside the caller's
    transaction: nothing is parsed from the files, re-indexed or re-embedded.

    Each file row is renamed to its key (under the roots its paths were written with: the
    current ones, or those a store moved before the upgrade was at, see `former_roots`), its
    docs' paths rewritten and its keys stored. Each doc's hash changes with its path, so the
    index marks that held the old hash take the new one (no index stores the path). A row
    under no root found is dropped: that file is read and parsed again as new."""
    db, roots = catalog.db, catalog.roots
    db.execute("ALTER TABLE files ADD COLUMN keys TEXT")
    db.execute("ALTER TABLE files ADD COLUMN checked_ns INTEGER DEFAULT 0")
    rows = db.execute("SELECT path, kind, mtime_ns, size, sha, docs, problems FROM files").fetchall()
    old = former_roots([(r[0], r[1]) for r in rows], roots)
    # the stats were recorded by version 2, which trusted them: so does this one from now on
    checked_ns = time.time_ns()
    db.execute("DELETE FROM files")
    for path, kind, mtime_ns, size, sha, docs_text, problems_text in rows:
        key = old.key(path, kind)
        if key == path:
            continue
        docs = [IndexDoc.from_json(d) for d in json.loads(docs_text)]
        for doc in docs:  # put_file keys them against the current roots
            doc.path = roots.absolute(old.key(doc.path, kind))
        problems = [old.text_key(p) for p in json.loads(problems_text)]  # stored as markers
        catalog.put_file(key, kind, mtime_ns, size, sha, docs, problems, checked_ns)
    marks = []
    for doc_id, payload, doc_hash, lex_hash, vec_meta in db.execute(
            "SELECT id, payload, doc_hash, lex_hash, vec_meta FROM docs").fetchall():
        if doc_hash == "removed":
            continue
        doc = IndexDoc.from_json(json.loads(payload))
        stored = old.key(doc.path)
        if stored == doc.path:
            continue  # left to the next sync's reconcile (a changed hash: it is rewritten)
        doc.path = stored
        new_hash = doc.doc_hash
        marks.append((json.dumps(doc.to_json(), ensure_ascii=False), new_hash,
                      new_hash if lex_hash == doc_hash else lex_hash,
                      new_hash if vec_meta == doc_hash else vec_meta, doc_id))
    db.executemany("UPDATE docs SET payload=?, doc_hash=?, lex_hash=?, vec_meta=? WHERE id=?",
                   marks)
    catalog.set_meta("version", str(CATALOG_VERSION))
