"""`lorestack doctor`: compare files with both indexes, report drift and damage, repair.

Read-only unless `repair=True`; a repair is a rebuild when an index is missing, corrupt or
drifted, else an incremental sync.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lorestack.core.errors import InvalidItem
from lorestack.memory_layers.sealed_names import sealed_line, sealed_problem
from lorestack.retrieval.documents import list_sources, merge_docs, parse_source, read_source

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.retrieval.index import MemoryIndex
    from lorestack.retrieval.secret_spots import SecretSpot


@dataclass
class IndexHealth:
    name: str
    # ok | missing | corrupt | drift | unavailable; pending: it differs from the files only
    # by what was written since the last sync, which the next search or hook indexes
    status: str = "ok"
    docs: int = 0
    missing: list[str] = field(default_factory=list)  # doc ids the index lacks
    extra: list[str] = field(default_factory=list)    # doc ids the index has but files don't
    detail: str = ""


@dataclass
class DoctorReport:
    ok: bool
    index_dir: str
    files: int = 0
    documents: int = 0
    changed_files: int = 0              # files edited since the last sync
    pending: list[str] = field(default_factory=list)  # doc ids those files held or hold now
    not_built: bool = False             # no index yet: the first search builds it
    lexical: IndexHealth = field(default_factory=lambda: IndexHealth("lexical"))
    vector: IndexHealth = field(default_factory=lambda: IndexHealth("vector"))
    catalog: str = "ok"                 # ok | missing | pending | stale: … | corrupt: …
    usage: str = "ok"                   # usage stats (usage.sqlite)
    caches: str = "ok"                  # the loader's cache files
    raw_names: list[str] = field(default_factory=list)  # index files holding a key-named id raw
    problems: list[str] = field(default_factory=list)   # files that do not parse (schema)
    secrets: list[str] = field(default_factory=list)    # file and line of a hand-typed secret
    unread: list[str] = field(default_factory=list)     # markdown no scan reads (a note only)
    empty: list[str] = field(default_factory=list)      # item files with nothing in them (a note)
    issues: list[str] = field(default_factory=list)     # what is wrong with the indexes
    repaired: bool = False
    actions: list[str] = field(default_factory=list)


def _expected_docs(index: MemoryIndex, secrets: list[SecretSpot], unread: list[str],
                   empty: list[str]) -> tuple[set[str], int, list[str], dict[str, set[str]]]:
    """Doc ids the files define right now (parses everything: doctor is not a hot path);
    where a file holds a secret goes to `secrets`, markdown no scan reads (a README, a
    sub-folder of notes) to `unread`: named, but no fault of the memory's. Last, the doc ids
    each file path holds."""
    from lorestack.memory_layers.safefiles import never_read

    sources = list_sources(index.mem)
    per_file: dict = {}
    unread.extend(s for s in sources.skipped if never_read(s))
    problems = [f"not read: {s}" for s in sources.skipped if not never_read(s)]
    threshold = index.mem.settings.guard.entropy_threshold
    for src in sources:
        notes: list[str] = []
        try:
            raw = read_source(index.mem, src, notes)
        except InvalidItem as exc:
            problems.append(f"not read: {sealed_problem(exc, threshold)}")
            continue
        except OSError as exc:
            problems.append(sealed_line(f"{src.path}: cannot read ({exc.strerror})", src.path,
                                        threshold))
            continue
        problems.extend(notes)
        if src.kind != "journal" and not raw.strip():  # a save cut short reads as a new item
            empty.append(sealed_line(src.path, src.path, threshold))
        docs, file_problems = parse_source(index.mem, src, raw, spots=secrets)
        per_file[src.path] = docs
        problems.extend(file_problems)
    merged, merge_problems = merge_docs(per_file)
    ids_of = {path: {doc.id for doc in docs} for path, docs in per_file.items()}
    return set(merged), len(sources), problems + merge_problems, ids_of


def _criterion_problems(index: MemoryIndex) -> list[str]:
    """Criteria `check` would skip: a /regex/ that does not compile. Only the criteria folders
    are read, as `check` reads them (not every fact of a large store once more)."""
    out = []
    for loaded in index.mem.load_items(include_archived=False, types=("criterion",)).items:
        spec = loaded.item.criterion if loaded.item.type == "criterion" else None
        if spec is None or loaded.item.status != "active":
            continue
        for problem in spec.regex_problems():
            out.append(f"{loaded.path}: criterion {loaded.item.id}: {problem} "
                       "(`lorestack check` skips this criterion until it is fixed)")
    return out


def _check(health: IndexHealth, expected: set[str], read_ids) -> None:
    try:
        ids = read_ids()
    except FileNotFoundError as exc:
        health.status, health.detail = "missing", str(exc)
        return
    except Exception as exc:  # noqa: BLE001 - a corrupt index raises anything
        from lorestack.retrieval.readonly import is_read_only_error

        status = "read-only" if is_read_only_error(exc) else "corrupt"
        health.status, health.detail = status, f"{type(exc).__name__}: {exc}"
        return
    health.docs = len(ids)
    health.missing = sorted(expected - ids)
    health.extra = sorted(ids - expected)
    if health.missing or health.extra:
        health.status = "drift"


def _check_catalog(index: MemoryIndex, report: DoctorReport, expected: set[str],
                   ids_of: dict[str, set[str]]) -> None:
    """The catalog is what search trusts for "what is indexed": its marks must be complete."""
    from lorestack.retrieval.catalog import Catalog
    from lorestack.retrieval.catalog_paths import StoreRoots

    path = index.dir / "catalog.sqlite"
    if not path.is_file():
        report.catalog = "missing"
        return
    try:
        catalog = Catalog(path, StoreRoots.of(index.mem))
    except Exception as exc:  # noqa: BLE001 - a damaged sqlite raises several types
        from lorestack.retrieval.readonly import is_read_only_error

        report.catalog = f"{'read-only' if is_read_only_error(exc) else 'corrupt'}: {exc}"
        return
    try:
        row = catalog.db.execute("PRAGMA quick_check").fetchone()
        if not row or row[0] != "ok":
            report.catalog = f"corrupt: {row[0] if row else 'quick_check failed'}"
            return
        states = catalog.doc_states()
        known = catalog.file_stats()
        indexed_ids = {key: {k.id for k in keys} for key, keys in catalog.file_doc_keys()[0].items()}
    except Exception as exc:  # noqa: BLE001
        report.catalog = f"corrupt: {type(exc).__name__}: {exc}"
        return
    finally:
        catalog.close()
    # files written since the last sync: what they held and hold now is the next sync's to index
    key_of = StoreRoots.of(index.mem).key
    sources = {key_of(s.path, s.kind, known): s for s in list_sources(index.mem)}
    changed = [k for k, s in sources.items() if known.get(k, (None, None))[:2] != (s.mtime_ns, s.size)]
    changed += [k for k in known if k not in sources]
    report.changed_files = len(changed)
    pending: set[str] = set()
    for key in changed:
        pending |= indexed_ids.get(key, set())
        if key in sources:
            pending |= ids_of.get(sources[key].path, set())
    report.pending = sorted(pending)
    live = {i: s for i, s in states.items() if s.doc_hash != "removed"}
    unlexed = {i for i, s in live.items() if s.lex_hash != s.doc_hash}
    unembedded = {i for i, s in live.items() if s.vec_hash != s.content_hash}
    lacking = expected - set(live)
    if (lacking | unlexed | unembedded) <= pending:
        report.catalog = "pending" if lacking | unlexed | unembedded else "ok"
    elif lacking:
        report.catalog = f"stale: {len(lacking)} item(s) not recorded"
    else:
        report.catalog = (f"stale: {len(unembedded)} item(s) not marked embedded, {len(unlexed)} "
                          "not marked lexically indexed (search would skip or redo them)")


def _check_usage(index: MemoryIndex, report: DoctorReport) -> None:
    import sqlite3

    path = index.dir / "usage.sqlite"
    if not path.is_file():
        return  # created on first use
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            row = db.execute("PRAGMA quick_check").fetchone()
            db.execute("SELECT count(*) FROM usage").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        report.usage = f"corrupt: {type(exc).__name__}: {exc}"
        return
    if not row or row[0] != "ok":
        report.usage = f"corrupt: {row[0] if row else 'quick_check failed'}"


def _check_loader_cache(index: MemoryIndex, report: DoctorReport) -> None:
    import json

    folder = index.dir / "loader"
    if not folder.is_dir():
        return
    for path in sorted(folder.glob("*.json")):
        try:
            json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            report.caches = f"corrupt: {path.name} ({type(exc).__name__})"
            return


def run_doctor(index: MemoryIndex, repair: bool = False) -> DoctorReport:
    from lorestack.retrieval.readonly import read_only_message, read_only_reason

    report = DoctorReport(ok=True, index_dir=str(index.dir))
    if repair:  # before the files are read, so that what it rewrote reads as it now is
        report.actions.extend(_resave_utf16_days(index))
    spots: list[SecretSpot] = []
    expected, report.files, report.problems, ids_of = _expected_docs(index, spots, report.unread,
                                                                      report.empty)
    threshold = index.mem.settings.guard.entropy_threshold
    report.secrets = [spot.describe(threshold=threshold) for spot in spots]
    report.problems.extend(_criterion_problems(index))
    report.documents = len(expected)
    if os.path.lexists(index.dir) and not index.dir.is_dir():
        report.catalog = "missing"
        report.issues.append(f"{index.dir} is not a folder (a file sits where the index belongs)")
        for health in (report.lexical, report.vector):
            health.status, health.detail = "missing", "no index folder"
    elif (why := read_only_reason(index.dir)) is not None:
        # nothing here can be opened for writing: say so once, and never "repair" it
        report.catalog = "read-only"
        for health in (report.lexical, report.vector):
            health.status, health.detail = "read-only", why
        report.issues.append(read_only_message(index.dir, why))
        report.ok = False
        return report
    else:
        _check_catalog(index, report, expected, ids_of)
        _check_usage(index, report)
        _check_loader_cache(index, report)
        if spots:  # a file holding a key: does an index from before sealing still hold it?
            from lorestack.retrieval.name_seals import name_keys, raw_name_files

            keys = name_keys(index.mem, {spot.path for spot in spots})
            report.raw_names = raw_name_files(index.dir, keys, threshold)
        index.lexical.close()
        _check(report.lexical, expected, index.lexical.ids)
        index.vectors.close()
        _check(report.vector, expected, index.vectors.doc_ids)
        index.vectors.close()
    _pending(report, expected)

    for health in (report.lexical, report.vector):
        if health.status == "drift":
            report.issues.append(
                f"{health.name} index: {len(health.missing)} item(s) missing, "
                f"{len(health.extra)} stale")
        elif health.status not in ("ok", "pending") and index.dir.is_dir():
            report.issues.append(f"{health.name} index {health.status}: {health.detail}")
    if report.catalog not in ("ok", "pending") and index.dir.is_dir() and report.documents:
        report.issues.append(f"catalog {report.catalog}")
    if report.usage != "ok":
        report.issues.append(f"usage stats {report.usage}")
    if report.caches != "ok":
        report.issues.append(f"loader cache {report.caches}")
    if report.raw_names:
        report.issues.append(
            f"{len(report.raw_names)} index file(s) still hold an id or file name with a key in "
            f"it, written before names were sealed ({', '.join(report.raw_names[:3])}): run "
            "`lorestack reindex` once")
    report.ok = not report.issues and not report.problems and not report.secrets

    if any("read-only" in i for i in report.issues):
        report.issues.append(read_only_message(index.dir, "a write was refused"))
        repair = False  # a rebuild would delete indexes it cannot write back
    if repair and (report.issues or report.not_built or report.changed_files):
        _repair(index, report)
        report.repaired = True
    if report.problems:
        report.actions.append("fix or remove the files listed under problems (a file that does not parse is "
                              "not indexed)")
    if report.secrets:  # no repair can do this: the file is the user's
        report.actions.append("remove the secrets listed from the files (a secret in a tracked "
                              "memory file reaches git); the index holds them redacted")
    return report


def _resave_utf16_days(index: MemoryIndex) -> list[str]:
    """Journal days an editor saved as UTF-16, rewritten as UTF-8 (with any entries appended
    to them in UTF-8 since): what `doctor` advises for them."""
    from lorestack.core.errors import LorestackError
    from lorestack.memory_layers.safefiles import UnsafeEntry

    journal, done = index.mem.journal, list[str]()
    if journal is None:
        return done
    for day in journal.days():
        path = journal.day_file(day)
        try:
            if journal.resave_utf8(path):
                done.append(f"rewrote {path} (saved as UTF-16) as UTF-8")
        except UnsafeEntry:
            continue  # named among the problems already
        except (OSError, LorestackError) as exc:
            done.append(f"could not rewrite {path} as UTF-8: {getattr(exc, 'strerror', exc)}")
    return done


def _pending(report: DoctorReport, expected: set[str]) -> None:
    """An index that differs from the files only by what was written since the last sync is
    "pending" (the next search, hook or the service indexes it), and one never built is
    "not built" (the first search builds it): neither is a fault to repair (a `remember` and
    then `doctor` said "not ok: run `lorestack doctor --repair` to rebuild the index")."""
    healths = (report.lexical, report.vector)
    if report.catalog == "missing" and all(h.status == "missing" for h in healths):
        report.not_built = bool(expected)
        if report.not_built:
            report.catalog = "pending"
            for health in healths:
                health.status, health.detail = "pending", "not built yet"
        return
    for health in healths:
        if health.status == "drift" and set(health.missing) | set(health.extra) <= set(report.pending):
            health.status = "pending"


def _repair(index: MemoryIndex, report: DoctorReport) -> None:
    import shutil

    index.ensure_dir()
    if report.usage != "ok":
        index.usage  # noqa: B018 - opening a damaged usage store resets it
        if index.usage.check() != "ok":
            index.usage.reset("doctor --repair")
        report.actions.append("started the usage stats over (they only tune ranking)")
    if report.caches != "ok":
        shutil.rmtree(index.dir / "loader", ignore_errors=True)
        report.actions.append("dropped the loader cache (rebuilt on the next context)")
    broken = report.catalog not in ("ok", "missing", "pending") or bool(report.raw_names) or any(
        h.status not in ("ok", "pending") for h in (report.lexical, report.vector))
    if broken or report.catalog == "missing" or report.not_built:
        index.close()
        if report.catalog.startswith("corrupt"):
            for suffix in ("", "-wal", "-shm"):
                (index.dir / f"catalog.sqlite{suffix}").unlink(missing_ok=True)
        index.rebuild()
        report.actions.append("rebuilt the catalog and both indexes from the files")
    elif report.changed_files:
        index.sync()
        report.actions.append("synced changed files")
