"""`lorestack ui`: the memory viewer in a local browser page."""

from __future__ import annotations

import click

from lorestack.cli.main import open_memory
from lorestack.cli.render import emit_json


@click.command()
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=0,
    help="Port on 127.0.0.1 (default: a free one).",
)
@click.option("--no-open", is_flag=True, help="Print the URL; do not open a browser.")
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the URL (with its token) as one JSON line, then serve.",
)
@click.pass_context
def ui(ctx, port, no_open, as_json):
    """Browse memory in a local web page: overview, context, items, journal, search, review.

    Serves on 127.0.0.1 only, with a random token per start in the printed URL (the page
    keeps it in a cookie; every change must carry it). Edits and reviews go through the same
    code as the CLI. Stops with Ctrl-C.
    """
    from lorestack.integrations.viewer.server import ViewerServer

    mem = open_memory(ctx, require_project=False)
    server = ViewerServer(mem, port=port)
    started = server.started
    if as_json:
        emit_json({"url": started.url, "port": started.port, "root": str(mem.primary.root)})
    else:
        click.echo(f"lorestack viewer for {mem.primary.root}")
        click.echo(f"open {started.url}")
        click.echo("stop with Ctrl-C", err=True)
    import sys

    sys.stdout.flush()
    if not no_open:
        server.open_browser_when_up()
    server.run()


COMMANDS = [ui]
