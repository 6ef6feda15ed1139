"""`lorestack anchors`: which code each memory item is about, and whether it changed since."""

from __future__ import annotations

import click

from lorestack.cli.main import open_memory
from lorestack.cli.render import emit_json, table


@click.group(invoke_without_command=True)
@click.option("--stale", is_flag=True, help="Only items whose anchored code changed.")
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@click.pass_context
def anchors(ctx, stale, as_json):
    """Items anchored to files, globs or symbols, and whether that code changed since.

    An item is anchored when you give `remember … --about PATH[:SYMBOL]`, or when its text
    names paths or symbols that exist in the repository. When the anchored code changes, the
    item is marked "may be stale" in the context, `doctor` and `review`; `lorestack anchors
    accept ID` says it still holds and pins it to the code as it is now.
    """
    if ctx.invoked_subcommand is not None:
        return
    from lorestack.memory_layers.anchors import index_for, item_states

    mem = open_memory(ctx)
    index = index_for(mem, look_again=True)
    rows, out = [], []
    for loaded in mem.require_project().store.load_all(include_archived=False).items:
        item = loaded.item
        if not item.anchors or index is None:
            continue
        states = item_states(index, item)
        if stale and all(s.state in ("ok", "unpinned") for s in states):
            continue
        out.append({"id": item.id, "title": item.title,
                    "anchors": [{"anchor": s.anchor, "state": s.state, "detail": s.detail}
                                for s in states]})
        for s in states:
            rows.append([item.id, s.anchor, s.state, s.detail, item.title[:50]])
    if index is not None:
        index.save()
    if as_json:
        emit_json(out)
    elif rows:
        click.echo(table(rows, ["id", "anchor", "state", "detail", "title"]))
    else:
        click.echo("no stale anchors" if stale else "no anchored items")


@anchors.command("accept")
@click.argument("item_ids", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print each item's new anchors as JSON.")
@click.pass_context
def accept(ctx, item_ids, as_json):
    """The item still holds after the change: pin it to the code as it is now."""
    from lorestack.memory_layers.anchor_edits import reanchor

    mem = open_memory(ctx)
    done = [reanchor(mem, item_id) for item_id in item_ids]
    if as_json:
        emit_json([{"id": item.id, "anchors": list(item.anchors)} for item in done])
        return
    for item in done:
        click.echo(f"re-anchored {item.id} to {', '.join(item.anchors)}")


@anchors.command("set")
@click.argument("item_id")
@click.option("--about", multiple=True, metavar="PATH[:SYMBOL]",
              help="A file, glob or file:symbol the item is about (repeatable).")
@click.option("--clear", is_flag=True, help="Remove every anchor of the item.")
@click.option("--json", "as_json", is_flag=True, help="Print the item's anchors as JSON.")
@click.pass_context
def set_(ctx, item_id, about, clear, as_json):
    """Say which code an item is about (replacing its anchors), or --clear them all."""
    from lorestack.memory_layers.anchor_edits import reanchor

    # without --about this once removed every anchor: a forgotten option lost them silently
    if not about and not clear:
        raise click.UsageError("give --about PATH[:SYMBOL] (or --clear to remove every anchor)")
    if about and clear:
        raise click.UsageError("give --about or --clear, not both")
    item = reanchor(open_memory(ctx), item_id, list(about))
    if as_json:
        emit_json({"id": item.id, "anchors": list(item.anchors)})
        return
    click.echo(f"{item.id} is about {', '.join(item.anchors) or 'no code'}")


COMMANDS = [anchors]
