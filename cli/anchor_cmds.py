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
        # a key typed by hand into the title, an anchor or the id is printed redacted (sealed)
        item_id, title = _id(mem, item.id), _shown(mem, item.title)
        out.append({"id": item_id, "title": title,
                    "anchors": [{"anchor": _shown(mem, s.anchor), "state": s.state,
                                 "detail": _shown(mem, s.detail)} for s in states]})
        for s in states:
            rows.append([item_id, _shown(mem, s.anchor), s.state, _shown(mem, s.detail),
                         title[:50]])
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
    shown = [(_id(mem, item.id), [_shown(mem, a) for a in item.anchors]) for item in done]
    if as_json:
        emit_json([{"id": item_id, "anchors": anchors} for item_id, anchors in shown])
        return
    for item_id, anchors in shown:
        click.echo(f"re-anchored {item_id} to {', '.join(anchors)}")


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
    mem = open_memory(ctx)
    item = reanchor(mem, item_id, list(about))
    shown_id, anchors = _id(mem, item.id), [_shown(mem, a) for a in item.anchors]
    if as_json:
        emit_json({"id": shown_id, "anchors": anchors})
        return
    click.echo(f"{shown_id} is about {', '.join(anchors) or 'no code'}")


def _shown(mem, text: str) -> str:
    """`text` (a title, an anchor, a state's detail) as it may be printed: a key typed into it
    by hand redacted, as `show` prints it."""
    from lorestack.memory_layers.secret_guard import redact_for_reading

    return redact_for_reading(text, mem.settings.guard.entropy_threshold)[0] if text else text


def _id(mem, item_id: str) -> str:
    """An item id as every command prints it: sealed when a key was typed into it."""
    from lorestack.memory_layers.sealed_names import seal

    return seal(item_id, mem.settings.guard.entropy_threshold)


COMMANDS = [anchors]
