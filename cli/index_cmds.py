"""Commands over the L4 index: search, reindex, doctor."""

from __future__ import annotations

import sys
from datetime import datetime

import click

from lorestack.cli.main import open_memory
from lorestack.cli.render import emit_json, humanize_age, paint_type, table, words_argument
from lorestack.memory_layers.models import ITEM_TYPES
from lorestack.retrieval.modes import CHOICES as MODE_CHOICES

TYPES = list(ITEM_TYPES)
LAYERS = ["L1", "L2", "L3"]


def _progress_bar(label: str):
    """A (done, total) callback drawing a bar on stderr — nothing when stderr is not a tty."""
    from lorestack.cli.render import ProgressCallback

    return ProgressCallback(label)


@click.command()
@words_argument("query")
@click.option("-k", "--k", "k", type=click.IntRange(1, 1000), default=None,
              help="How many results (default: retrieval.k, 10).")
@click.option("--type", "types", multiple=True, type=click.Choice(TYPES),
              help="Only this type (repeatable).")
@click.option("--layer", "layers", multiple=True, type=click.Choice(LAYERS),
              help="Only this layer (repeatable).")
@click.option("--mode", type=click.Choice(MODE_CHOICES), default="default", show_default=True,
              help="default (alias: hybrid) = BM25 + dense + date retrievers fused, then the "
                   "configured reranker (decay); rrf = BM25 + dense fused only; bm25 / vector "
                   "= one retriever.")
@click.option("--status", "statuses", multiple=True,
              type=click.Choice(["active", "pending", "archived", "superseded"]),
              help="Statuses to include (default: active only).")
@click.option("--explain", is_flag=True,
              help="Show BM25 rank, vector rank, fused score, decay factor and final score.")
@click.option("--about", metavar="PATH",
              help="Only items anchored to this file (or under this folder); QUERY may be '-' "
              "or omitted to list them all.")
@click.option("--json", "as_json", is_flag=True, help="Print results as JSON.")
@click.pass_context
def search(ctx, query, k, types, layers, mode, statuses, explain, as_json, about=None):
    """Find memory items and journal events for QUERY.

    Identifiers, paths and error codes match whole or by their parts (getUserById finds
    "user by id"); intent queries match by meaning. Superseded and archived items are hidden
    unless --status asks for them. --about PATH keeps the items anchored to that file.
    """
    from lorestack import app
    from lorestack.app.models import SearchRequest
    from lorestack.cli.main import caller_for

    if query is None and not about:  # omitted; an empty QUERY is a query (it finds nothing)
        raise click.UsageError("give a QUERY (or --about PATH to list what is anchored there)")
    found = app.run(SearchRequest(caller=caller_for(ctx), query=query or "", k=k,
                                  types=list(types), layers=list(layers), mode=mode,
                                  statuses=list(statuses), explain=explain, about=about))
    if found.anchored is not None:  # --about without a query: what is anchored there
        _print_anchored(found.anchored, about, as_json)
        return
    hits = found.hits
    for warning in found.warnings:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit_json(hits)
        return
    if not hits:
        click.echo("no matches", err=True)
        return
    for n, h in enumerate(hits, start=1):
        age = humanize_age(datetime.fromisoformat(h["time"]))
        click.echo(f"{n:>2}. [{paint_type(h['type'])}] {h['title']}  ({h['id']}, {age})")
        click.echo(f"    {h['path']}")
        if explain:
            e = h.get("explain") or {}
            # the name-free dense ranking runs only when the query names a known speaker
            plain = (f"  vector (names left out) rank={e.get('vector_plain_rank') or '-'}"
                     if "vector_plain_rank" in e else "")
            bm25 = ("- (sat out: no hit holds enough of the question's rarer words)"
                    if e.get("bm25_abstained") else e.get("bm25_rank") or "-")
            click.echo(f"    bm25 rank={bm25}  vector rank="
                       f"{e.get('vector_rank') or '-'}{plain}  fused={e['fused']:.4f}  "
                       f"decay={e['decay']:.3f}  final={e['final']:.4f}")


def _print_anchored(items: list[dict], about: str, as_json: bool) -> None:
    if as_json:
        emit_json([{k: i[k] for k in ("id", "type", "title", "anchors")} for i in items])
        return
    if not items:
        click.echo(f"nothing is anchored to {about}", err=True)
    for n, i in enumerate(items, start=1):
        click.echo(f"{n:>2}. [{paint_type(i['type'])}] {i['title']}  ({i['id']}, "
                   f"{humanize_age(datetime.fromisoformat(i['updated']))})")
        click.echo(f"    about {', '.join(i['anchors'])}")


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the sync report as JSON.")
@click.pass_context
def reindex(ctx, as_json):
    """Rebuild the search index (.memory/.index/) from the memory files.

    Safe at any time: the files are the truth; usage counts are kept.
    """
    from lorestack.retrieval.index import MemoryIndex

    index = MemoryIndex(open_memory(ctx, require_project=False))
    try:
        with _progress_bar("indexing") as bar:
            report = index.rebuild(progress=bar)
    finally:
        index.close()
    for problem in [*report.skipped, *report.problems]:
        click.echo(f"warning: not indexed: {problem}", err=True)
    for message in report.warnings:
        click.echo(f"warning: {message}", err=True)
    if as_json:
        emit_json(report)
        return
    click.echo(f"indexed {report.total} documents ({report.embedded} embedded) "
               f"in {report.seconds:.1f}s")


@click.command()
@click.option("--repair", is_flag=True, help="Rebuild or sync whatever is wrong.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@click.pass_context
def doctor(ctx, repair, as_json):
    """Check the index against the files (drift, missing or corrupt indexes, bad files, a
    secret typed into a memory file: its file and line; a file whose folder and frontmatter
    disagree: a `type:` not its folder's, `status: archived` in a live folder) and the client hooks (deadline misses and errors in the last 24 h of hooks.log; installed
    hooks a client will not run, e.g. untrusted Codex hooks or a command that moved). Items
    whose anchors are kept in an old form (an absolute path) are named; --repair rewrites them.

    Exits 1 when something is wrong (and was not repaired).
    """
    from lorestack.integrations.hook_health import check as check_hooks
    from lorestack.retrieval.index import MemoryIndex

    mem = open_memory(ctx, require_project=False)
    index = MemoryIndex(mem)
    try:
        report = index.doctor(repair=repair)
    finally:
        index.close()
    hooks = check_hooks(mem.primary.index_dir / "hooks.log",
                        mem.project.repo_dir if mem.project else None)
    from lorestack.memory_layers.anchor_edits import old_form_anchors
    from lorestack.memory_layers.anchors import stale_items, stale_note
    from lorestack.memory_layers.sealed_names import seal, seal_path
    from lorestack.memory_layers.secret_guard import redact_for_reading

    # anchors stored before they were kept as repository paths: named, rewritten by --repair
    old_form = old_form_anchors(mem, rewrite=repair) if mem.project else []
    stale = stale_items(mem) if mem.project else []
    threshold = mem.settings.guard.entropy_threshold  # names sealed as `list` seals them
    from lorestack.core.config_keys import unknown_keys

    # a misspelt setting is ignored by every command: said here, not counted as a fault
    config = unknown_keys(mem.project.root if mem.project else None, mem.home.root)
    from lorestack.memory_layers.hand_edits import disagreements

    # a file whose folder and frontmatter disagree (moved or retyped by hand): named, not a fault
    misfiled = disagreements(mem, threshold)
    if as_json:
        import dataclasses

        emit_json({**dataclasses.asdict(report), "hooks": hooks, "hooks_ok": hooks.ok,
                   "stale": [{"id": seal(item.id, threshold), "anchors": [
                       {**dataclasses.asdict(s), "anchor": seal_path(s.anchor, threshold)}
                       for s in states]}
                             for item, states in stale], "config": config,
                   "misfiled": misfiled,
                   "old_form_anchors": [{"id": seal(one.item_id, threshold), "rewritten":
                                         one.rewritten, "renames": [
                       {"from": seal_path(a, threshold), "to": seal_path(b, threshold)}
                       for a, b in one.renames]} for one in old_form]})
    else:
        rows = [[h.name, h.status, str(h.docs), str(len(h.missing)), str(len(h.extra))]
                for h in (report.lexical, report.vector)]
        click.echo(f"{report.files} files, {report.documents} documents, index {report.index_dir}")
        click.echo(table(rows, ["index", "status", "docs", "missing", "stale"]))
        for issue in report.issues:
            click.echo(f"issue: {issue}")
        if report.not_built:
            click.echo("note: the index is not built yet: the first search builds it "
                       "(`lorestack reindex` builds it now)")
        elif report.changed_files and not report.repaired:
            click.echo(f"note: {report.changed_files} file(s) written since the last sync: the "
                       "next search or hook indexes them (`lorestack doctor --repair` now)")
        for problem in report.problems:
            click.echo(f"problem: {problem}")
        for secret in report.secrets:
            click.echo(f"secret: {secret}")
        for path in report.unread:
            click.echo(f"note: not read: {path}")
        for path in report.empty:
            click.echo(f"note: {path} is empty: read as an item named after the file, with no "
                       "text; if a save cut it short, get it back from git")
        for action in report.actions:
            click.echo(f"action: {action}")
        for problem in hooks.problems:
            click.echo(f"hooks: {problem}")
        for note in hooks.notes:
            click.echo(f"note: hooks: {note}")
        for line in config:
            click.echo(f"config: {line}")
        for line in misfiled:
            click.echo(f"note: {line}")
        for one in old_form:
            said = ", ".join(f"{seal_path(a, threshold)} -> {seal_path(b, threshold)}"
                             for a, b in one.renames)
            click.echo(f"action: rewrote the anchors of {seal(one.item_id, threshold)} as "
                       f"repository paths: {said}" if one.rewritten else
                       f"note: {seal(one.item_id, threshold)} keeps anchors in the old form, "
                       f"read as repository paths ({said}); `lorestack doctor --repair` "
                       "rewrites them")
        for item, states in stale:  # memory to look at, not a fault of the index
            # an id or anchor typed around a key: sealed, as `list` and `anchors` show them
            line = f"{item.title[:60]} — {stale_note(states)}"
            click.echo(f"stale: {seal(item.id, threshold)} {redact_for_reading(line, threshold)[0]}")
        verdict = "ok" if report.ok else ("repaired" if report.repaired else "not ok")
        if report.repaired and report.problems:  # the index is mended; those files are not
            verdict = f"index repaired; not ok: {len(report.problems)} file problem(s) left"
        if (report.issues and not report.repaired and not repair
                and not any("read-only" in issue for issue in report.issues)):
            # every `issue:` is the index's, rebuilt from the files (a bad file is a `problem:`)
            verdict += ": run `lorestack doctor --repair` to rebuild the index from the files"
        if report.secrets:  # not the index's fault, and no repair removes them
            verdict += f"; {len(report.secrets)} secret(s) in memory files"
        click.echo(verdict if hooks.ok else f"{verdict} (index); hooks: not ok")
    # a file that does not parse is the user's to mend: no repair clears it
    if (not report.ok and (not report.repaired or report.problems)) or not hooks.ok \
            or report.secrets:
        sys.exit(1)


COMMANDS = [search, reindex, doctor]
