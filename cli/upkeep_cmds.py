"""Upkeep of one's memory by hand: `edit`, `restore`, `export`, `import-memory`.

`import-memory` restores a whole memory written by `export`; the conversation/event bulk
import is a different command (`lorestack import`).
"""

from __future__ import annotations

import os
import sys

import click

from lorestack.cli.main import caller_for, open_memory
from lorestack.cli.render import emit_json


def _sync_index(mem) -> str | None:
    """Bring the index up to date with the files just written; a warning instead of a failure."""
    try:
        from lorestack.cli.render import ProgressCallback
        from lorestack.retrieval.index import MemoryIndex

        index = MemoryIndex(mem)
        try:
            with ProgressCallback("indexing") as bar:  # a terminal only; silent when piped
                index.sync(progress=bar)
        finally:
            index.close()
    except Exception as exc:  # noqa: BLE001 - the files are written; the index can catch up later
        return f"index not updated ({exc}); run `lorestack reindex`"
    return None


def _on_terminal() -> bool:
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError, OSError):
        return False


@click.command()
@click.argument("item_id")
@click.option("--json", "as_json", is_flag=True, help="Print the saved item as JSON.")
@click.pass_context
def edit(ctx, item_id, as_json):
    """Open an item's file in $VISUAL / $EDITOR; validate it on save, then re-index.

    A file that no longer parses, changes its id, makes a criterion undecidable or holds a
    secret is refused: on a terminal you can edit again, otherwise the file goes back to what
    it was, your edit is kept under .memory/.index/refused-edits/ (one holding a secret is not)
    and the command exits 1.
    """
    from lorestack.core.errors import InvalidItem, LorestackError
    from lorestack.memory_layers.event_archive import item_not_event
    from lorestack.memory_layers.fsutil import write_atomic
    from lorestack.memory_layers.operations import check_edited, keep_refused_edit

    mem = open_memory(ctx)
    before = item_not_event(mem, item_id, "what happened is not rewritten: `lorestack log` the "
                            "correction (`lorestack forget {id} --reason …` archives this one)")
    if not (os.environ.get("VISUAL") or os.environ.get("EDITOR")) and not _on_terminal():
        # the fallback (sensible-editor, vi) needs a terminal: it hung, or wrote its screen
        # codes to stdout and failed
        raise LorestackError(f"no editor: set $VISUAL or $EDITOR, or run `lorestack edit` in a "
                             f"terminal (the file is {before.path})")
    original = before.path.read_bytes()
    while True:
        click.edit(filename=str(before.path))
        try:
            after, changed = check_edited(mem, before)
            break
        except (InvalidItem, LorestackError) as exc:
            click.echo(f"not saved: {exc}", err=True)
            if (
                sys.stdin is not None
                and sys.stdin.isatty()
                and click.confirm("edit again?", default=True, err=True)
            ):
                continue
            kept = keep_refused_edit(mem, before, exc)
            write_atomic(before.path, original)
            raise LorestackError(f"{before.path} is back as it was before the edit"
                                 + (f"; your edit is kept in {kept}" if kept else "")) from exc
    warning = _sync_index(mem) if changed else None
    if warning:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit_json(
            {
                **after.item.frontmatter(),
                "body": after.item.body,
                "path": str(after.path),
                "changed": changed,
            }
        )
        return
    click.echo(
        f"saved {after.item.id} ({after.path}); index updated"
        if changed
        else f"no changes to {after.item.id}"
    )


@click.command()
@click.argument("item_id")
@click.option("--json", "as_json", is_flag=True, help="Print the restored item as JSON.")
@click.pass_context
def restore(ctx, item_id, as_json):
    """Bring an archived (forgotten or superseded) item back to active, links kept."""
    from lorestack import app
    from lorestack.app.models import ChangeRequest

    restored = app.run(ChangeRequest(caller=caller_for(ctx), action="restore", id=item_id))
    warning = _sync_index(open_memory(ctx))
    if warning:
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit_json({"item": restored.item, "path": restored.path,
                   "was_superseded_by": restored.was_superseded_by})
        return
    click.echo(f"restored {restored.id} → {restored.path}")
    if restored.was_superseded_by:
        click.echo(
            f"note: {restored.was_superseded_by} (which had superseded it) is still active; "
            f"forget or supersede one of them if only one should hold",
            err=True,
        )


@click.command()
@click.option(
    "--out",
    "out",
    type=click.Path(dir_okay=False, writable=True),
    help="Write to this file instead of stdout.",
)
@click.option(
    "--scope",
    type=click.Choice(["project", "global"]),
    default="project",
    show_default=True,
    help="Which memory to export.",
)
@click.pass_context
def export(ctx, out, scope):
    """Write the whole memory as JSON lines: every item (archive included), journal day and
    setting, with exact file text and parsed fields. `lorestack import-memory` reads it back.

    A secret typed into a file by hand is redacted in the export (a file or id named after one
    is sealed): said on stderr, and in the header line's "redacted" (files, ids)."""
    import json

    from lorestack import app
    from lorestack.app.models import ExportRequest

    exported = app.run(ExportRequest(caller=caller_for(ctx), scope=scope))
    lines = (json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n" for r in exported.records)
    if exported.redacted:  # a secret typed into a file by hand does not leave in the export
        shown = ", ".join(exported.redacted[:10]) + (", …" if len(exported.redacted) > 10 else "")
        click.echo(f"warning: redacted secrets in {exported.redacted_files} file(s) of the export "
                   f"({shown}); the files themselves still hold them (`lorestack doctor` names "
                   "the lines of items and journal days)", err=True)
    if out:
        count = 0
        try:
            fh = open(out, "w", encoding="utf-8")
        except OSError as exc:  # the path the user named: theirs to fix, not a bug
            raise click.ClickException(f"--out {out}: cannot write it ({exc.strerror}); check "
                                       "the path (its folder must exist)") from None
        with fh:
            for line in lines:
                fh.write(line)
                count += 1
        click.echo(f"exported {count - 1} file(s) from {exported.root} to {out}", err=True)
    else:
        for line in lines:
            click.echo(line, nl=False)


@click.command(name="import-memory")
@click.argument("file", type=click.File("r", encoding="utf-8-sig"))  # a BOM (Notepad) dropped
@click.option(
    "--scope",
    type=click.Choice(["project", "global"]),
    default="project",
    show_default=True,
    help="Which memory to write into.",
)
@click.option(
    "--replace",
    is_flag=True,
    help="Overwrite files that differ (default: report them as conflicts and leave them); a "
         "journal day keeps the events only this memory has.",
)
@click.option("--dry-run", is_flag=True, help="Show what would be written; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def import_memory(ctx, file, scope, replace, dry_run, as_json):
    """Read a `lorestack export` file (or '-' for stdin) back into a memory, file for file.

    Identical files are left alone; differing ones are conflicts unless --replace, and so is
    always an item whose id another file here already holds (renamed in one clone). An export
    with any unreadable line writes nothing. Secrets in items and journal days are redacted
    before writing (and counted), as `import` does. Then the index is brought up to date.
    """
    from lorestack import app
    from lorestack.app.models import ImportMemoryRequest
    from lorestack.core.errors import LorestackError
    from lorestack.memory_layers.portable import read_records

    report = app.run(ImportMemoryRequest(caller=caller_for(ctx), records=list(read_records(file)),
                                         scope=scope, replace=replace, dry_run=dry_run))
    if report.written and not dry_run:
        warning = _sync_index(open_memory(ctx, require_project=scope == "project"))
        if warning:
            click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit_json(
            {
                **{
                    k: getattr(report, k)
                    for k in ("written", "unchanged", "conflicts", "problems", "redacted",
                              "dry_run")
                }
            }
        )
    else:
        verb = "would write" if dry_run else "wrote"
        click.echo(
            f"{verb} {len(report.written)} file(s), {len(report.unchanged)} unchanged, "
            f"{len(report.conflicts)} conflict(s), {report.redacted} redacted"
        )
        for rel in report.conflicts:
            click.echo(f"  conflict (differs, kept yours): {rel}")
    if report.problems:
        for problem in report.problems:
            click.echo(f"problem: {problem}", err=True)
        raise LorestackError(f"{len(report.problems)} unreadable record(s); nothing was written")


COMMANDS = [edit, restore, export, import_memory]
