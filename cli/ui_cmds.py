"""`lorestack ui`: the memory viewer in a local browser page."""

from __future__ import annotations

import click

from lorestack.cli.main import open_memory


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
    code as the CLI. The resident service serves it (started if needed) and this command
    returns; with the service turned off it serves in this process until Ctrl-C.
    """
    served = _ask_service(ctx, port)
    if served is not None:  # the resident service serves it; this command is done
        if as_json:
            _json_line(served)
        else:
            click.echo(f"lorestack viewer for {served['root']} (served by `lorestack serve`)")
            click.echo(f"open {served['url']}")
        if not no_open:
            import webbrowser

            try:
                webbrowser.open(served["url"])
            except Exception:  # noqa: BLE001, S110 - no browser: the printed URL is enough
                pass
        return
    from lorestack.integrations.viewer.server import ViewerServer

    mem = open_memory(ctx, require_project=False)
    server = ViewerServer(mem, port=port)
    started = server.started
    if as_json:
        _json_line({"url": started.url, "port": started.port, "root": str(mem.primary.root)})
    else:
        click.echo(f"lorestack viewer for {mem.primary.root}")
        click.echo(f"open {started.url}")
        click.echo("stop with Ctrl-C", err=True)
    import sys

    sys.stdout.flush()
    if not no_open:
        server.open_browser_when_up()
    server.run()


def _json_line(value: dict) -> None:
    """One line, as --json promises: a script reads it while the viewer keeps serving."""
    import json

    click.echo(json.dumps(value, ensure_ascii=False))


def _ask_service(ctx, port: int) -> dict | None:
    """The resident service opens the viewer (starting the service if needed); None when it
    is turned off or cannot, and the viewer then runs in this process."""
    from lorestack.integrations.service import client, protocol

    if not protocol.service_enabled():
        return None
    root = ctx.find_root().obj.get("root") if ctx.find_root().obj else None
    request = {"op": "ui", "port": port, "caller": client.caller(root)}
    for attempt in range(2):
        try:
            reply = client.call(request, 60.0)
            return {k: reply[k] for k in ("url", "port", "root")}
        except client.Unavailable as exc:
            if attempt or exc.reason not in ("absent", "stale", "version"):
                return None
            client.after_failure(exc.reason)
            if not client.wait_until_up(60):
                return None
    return None


COMMANDS = [ui]
