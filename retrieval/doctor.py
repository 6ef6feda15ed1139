"""`memstrata doctor`: compare files with both indexes, report drift and damage, repair.

Read-only unless `repair=True`; a repair is a rebuild when an index is missing, corrupt or
drifted, else an incremental sync.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from memstrata.retrieval.documents import list_sources, merge_docs, parse_source, read_source

from memstrata.core.errors import InvalidItem

if TYPE_CHECKING:  # pragma: no cover
    from memstrata.retrieval.index import MemoryIndex


@dataclass
class IndexHealth:
    name: str
    status: str = "ok"  # ok | missing | corrupt | drift | unavailable
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
    lexical: IndexHealth = field(default_factory=lambda: IndexHealth("lexical"))
    vector: IndexHealth = field(default_factory=lambda: IndexHealth("vector"))
    catalog: str = "ok"
    problems: list[str] = field(default_factory=list)   # files that do not parse (schema)
    issues: list[str] = field(default_factory=list)     # what is wrong with the indexes
    repaired: bool = False
    actions: list[str] = field(default_factory=list)


def _expected_docs(index: MemoryIndex) -> tuple[set[str], int, list[str]]:
    """Doc ids the files define right now (parses everything: doctor is not a hot path)."""
    sources = list_sources(index.mem)
    per_file: dict = {}
    problems = [f"not read: {s}" for s in sources.skipped]
    for src in sources:
        notes: list[str] = []
        try:
            raw = read_source(index.mem, src, notes)
        except InvalidItem as exc:
            problems.append(f"not read: {exc}")
            continue
        except OSError as exc:
            problems.append(f"{src.path}: cannot read ({exc.strerror})")
            continue
        problems.extend(notes)
        docs, file_problems = parse_source(index.mem, src, raw)
        per_file[src.path] = docs
        problems.extend(file_problems)
    merged, merge_problems = merge_docs(per_file)
    return set(merged), len(sources), problems + merge_problems


def _check(health: IndexHealth, expected: set[str], read_ids) -> None:
    try:
        ids = read_ids()
    except FileNotFoundError as exc:
        health.status, health.detail = "missing", str(exc)
        return
    except Exception as exc:  # noqa: BLE001 - a corrupt index raises anything
        health.status, health.detail = "corrupt", f"{type(exc).__name__}: {exc}"
        return
    health.docs = len(ids)
    health.missing = sorted(expected - ids)
    health.extra = sorted(ids - expected)
    if health.missing or health.extra:
        health.status = "drift"


def run_doctor(index: MemoryIndex, repair: bool = False) -> DoctorReport:
    report = DoctorReport(ok=True, index_dir=str(index.dir))
    expected, report.files, report.problems = _expected_docs(index)
    report.documents = len(expected)
    try:
        from memstrata.retrieval.catalog import Catalog

        if index._catalog is None:  # open it ourselves: the property would silently rebuild
            Catalog(index.dir / "catalog.sqlite").close()
        known = index.catalog.file_stats()
        stats = {s.path: (s.mtime_ns, s.size) for s in list_sources(index.mem)}
        report.changed_files = sum(1 for p, st in stats.items() if known.get(p, (None, None))[:2] != st)
        report.changed_files += sum(1 for p in known if p not in stats)
    except Exception as exc:  # noqa: BLE001
        report.catalog = f"corrupt: {exc}"

    index.lexical.close()
    _check(report.lexical, expected, index.lexical.ids)
    index.vectors.close()
    _check(report.vector, expected, index.vectors.doc_ids)

    for health in (report.lexical, report.vector):
        if health.status == "drift":
            report.issues.append(
                f"{health.name} index: {len(health.missing)} item(s) missing, "
                f"{len(health.extra)} stale")
        elif health.status != "ok":
            report.issues.append(f"{health.name} index {health.status}: {health.detail}")
    if report.catalog != "ok":
        report.issues.append(f"catalog {report.catalog}")
    if report.changed_files:
        report.issues.append(f"{report.changed_files} file(s) changed since the last sync")
    report.ok = not report.issues and not report.problems

    if repair and report.issues:
        broken = report.catalog != "ok" or any(
            h.status != "ok" for h in (report.lexical, report.vector))
        if broken:
            index.rebuild()
            report.actions.append("rebuilt both indexes from the files")
        else:
            index.sync()
            report.actions.append("synced changed files")
        report.repaired = True
    if report.problems:
        report.actions.append("fix or remove the files listed under problems (they are not indexed)")
    return report
