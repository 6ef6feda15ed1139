"""`lorestack import`: bulk-load events from JSONL, chat exports and client transcripts."""

from __future__ import annotations

import click

from lorestack.cli.main import caller_for
from lorestack.cli.render import emit_json
from lorestack.core.clients import transcript_clients


@click.command("import")
@click.argument("sources", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option(
    "--format",
    "fmt",
    default="auto",
    show_default=True,
    type=click.Choice(["auto", "jsonl", "locomo", "transcript", *transcript_clients()]),
    help="jsonl = one event object per line (or lorestack-bench/1 lines); locomo = a "
    "chat export with speakers and dated sessions; transcript / claude-code / "
    "codex / gemini = a client session (the user's messages only).",
)
@click.option(
    "--no-index",
    is_flag=True,
    help="Write the files only; index on the next search or `lorestack reindex`.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the import report as JSON.")
@click.pass_context
def import_(ctx, sources, fmt, no_index, as_json):
    """Import many events at once into the journal (and the index).

    Secrets are redacted (and counted), each journal day file gets one locked write and one
    fsync, and everything new is embedded in one batched run. Importing the same file again
    adds nothing: known event ids are skipped.

    \b
    JSONL: one object per line, for example
      {"time": "2024-03-02T09:15:00", "text": "Pinned gin at 1.9.1", "kind": "progress"}
    time   ISO 8601 date-time (required)
    text   what happened or holds (required)
    kind   progress, discussion, rejected, todo, blocker, decision or note (default note)
    type   fact, decision, caveat, preference or criterion makes it an item (default event)
    id, session, speaker, tags (a list), title: optional
    """
    from pathlib import Path

    from lorestack import app
    from lorestack.app.models import ImportRequest
    from lorestack.cli.render import ProgressCallback

    request = ImportRequest(caller=caller_for(ctx), sources=[str(Path(s).resolve()) for s in sources],
                            format=fmt, index=not no_index)
    with ProgressCallback("importing") as bar:  # a terminal only; silent when piped
        result = app.run(request, progress=None if as_json else bar).result
    for warning in result.get("warnings", []):
        click.echo(f"warning: {warning}", err=True)
    if as_json:
        emit_json(result)
        return
    click.echo(
        f"imported {result['events']} events and {result['items']} items into "
        f"{result['files']} journal files ({result['skipped']} already there, "
        f"{result['redacted']} redacted) in {result['write_s'] + result['index_s']:.1f}s "
        f"({result['events_per_s']} events/s, peak memory {result['peak_rss_mb']} MB)"
    )

COMMANDS = [import_]
