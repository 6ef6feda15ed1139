"""The reconcile of a sync that found only a few files changed: their docs, not the store's.

`sync.reconcile_docs` merges every file's doc keys and compares them with every doc's state:
at 100k docs that is 1.7 s in a process that has read nothing yet (the cold prompt, the
service opening an index), whatever changed. When the docs table was up to date before this
sync (state clean, or text for a text-only sync), only the ids whose keys came, went or
changed in the changed files can merge differently, so only they are merged again: from
every file that holds such an id (found in sqlite: by its text in the stored keys for one or
two ids, else by reading each stored key's id once; 0.07-0.2 s at 100k docs) and compared with
their own states. The merge's rules are
`documents.merge_docs`' own; where a global item's visibility could turn on the change (a
global file changed, a global doc among the candidates, or a project item's id or title
that some global item shares came or went), the whole reconcile is done instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lorestack.memory_layers.scopes import title_key
from lorestack.retrieval.documents import merge_docs

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.retrieval.index import MemoryIndex
    from lorestack.retrieval.sync import SyncReport

MAX_FILES = 64   # a `git pull` of many files: the whole reconcile reads them in one pass
MAX_IDS = 256    # ids merged again (bound parameters of the files query)
GLOBAL_KIND = "item-global"


def partial_plan(index: MemoryIndex) -> tuple[set[str], dict] | None:
    """(the ids whose merge the changed files can alter, per file the keys of every doc of
    theirs), or None when only the whole reconcile is right: too many, or a global item's
    visibility may turn."""
    changed = index.changed_files
    if changed is None or len(changed) > MAX_FILES:
        return None
    catalog = index.catalog
    ids: set[str] = set()
    shadowing: set[str] = set()  # ids and title keys of project items that came, went, moved
    for key, before in changed.items():
        old = {(n, *row) for n, row in enumerate(before or ())}
        new = {(n, *row) for n, row in enumerate(catalog.key_rows(key) or ())}
        for _at, item_id, item_type, title, rank, *_rest in old ^ new:
            if rank == 0:  # a global item: the project's items decide whether it shows
                return None
            ids.add(item_id)
            if item_type != "event":
                shadowing.update((item_id, title_key(item_type, title)))
    if len(ids) > MAX_IDS:
        return None
    if shadowing:
        for keys in catalog.doc_keys_of([], kind=GLOBAL_KIND).values():
            if any(k.id in shadowing or title_key(k.type, k.title) in shadowing for k in keys):
                return None
    per_file = catalog.doc_keys_of(sorted(ids)) if ids else {}
    if any(k.file_rank == 0 for keys in per_file.values() for k in keys):
        return None  # merged with a global doc: its visibility reads every project item
    return ids, per_file


def reconcile_changed(index: MemoryIndex, report: SyncReport,
                      plan: tuple[set[str], dict] | None) -> None:
    """`sync.reconcile_docs` for the docs of the plan's ids only (`partial_plan`); without
    a plan, `reconcile_docs` itself."""
    from lorestack.retrieval.sync import apply_desired, reconcile_docs

    if plan is None:
        reconcile_docs(index, report)
        return
    catalog = index.catalog
    ids, per_file = plan
    with catalog.transaction():
        desired, problems = merge_docs(per_file)
        report.problems.extend(problems)
        removals = apply_desired(index, report, desired, catalog.doc_states(sorted(ids)))
    index.pending_removals = removals
