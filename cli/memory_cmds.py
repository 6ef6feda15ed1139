"""Commands that write and read memory files: init, remember, log, list, show, forget, supersede."""

from __future__ import annotations

from pathlib import Path

import click

from lorestack.cli.main import caller_for
from lorestack.cli.render import emit_json, humanize_age, read_stdin_input, table, words_argument
from lorestack.memory_layers.models import FILE_ITEM_TYPES

ITEM_TYPES = list(FILE_ITEM_TYPES)
KINDS = ["progress", "discussion", "rejected", "todo", "blocker", "decision", "note"]


def _tags(value: str | None) -> list[str]:
    return [t.strip() for t in (value or "").split(",") if t.strip()]


def _read_text(text: str | None) -> str:
    if text == "-" or text is None:
        return read_stdin_input()
    return text


@click.command()
@click.option("--global", "global_", is_flag=True, help="Initialise the global memory (~/.lorestack).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def init(ctx, global_: bool, as_json: bool):
    """Create .memory/ here and draft project.md from the repository.

    Safe to run again: it never overwrites files you edited.
    """
    from lorestack.memory_layers.memory import Memory

    root = ctx.find_root().obj.get("root")
    result = Memory.init(Path(root) if root else Path.cwd(), global_=global_)
    if as_json:
        emit_json(result)
        return
    click.echo(f"memory at {result.root}")
    if result.above is not None:
        click.echo(f"note: {result.above} is the memory of the folders above; commands run in "
                   f"{result.root.parent} and below now use this one instead", err=True)
    card = "profile.md" if global_ else "project.md"
    if result.card_written:
        click.echo(f"drafted {card}: review and edit it")
    elif result.card_kept:
        click.echo(f"kept your existing {card}")


@click.command()
@words_argument("text")
@click.option("--type", "item_type", type=click.Choice(ITEM_TYPES), default="fact", show_default=True,
              help="What kind of memory this is.")
@click.option("--title", help="Short title (default: first line of TEXT).")
@click.option("--tags", help="Comma-separated tags.")
@click.option("--scope", type=click.Choice(["project", "global"]), default="project", show_default=True,
              help="global items apply to every project.")
@click.option("--supersedes", metavar="ID", help="Archive this item and link it to the new one.")
@click.option("--confidence", type=click.FloatRange(0, 1), default=1.0, show_default=True,
              help="How sure you are (1.0 = stated by you; machine claims are lower).")
@click.option("--importance", type=click.FloatRange(0, 1), default=0.5, show_default=True,
              help="How much it matters; slows its decay in recall.")
@click.option("--applies-path", multiple=True, help="criterion: path glob it applies to (repeatable).")
@click.option("--keyword", multiple=True, help="criterion: keyword it applies to (repeatable).")
@click.option("--topic", multiple=True, help="criterion: topic it applies to (repeatable).")
@click.option("--condition", help="criterion: the condition, in words (default: TEXT).")
@click.option("--forbid", multiple=True, help="criterion: term or /regex/ that violates it (repeatable).")
@click.option("--require", multiple=True, help="criterion: term or /regex/ that must be present (repeatable).")
@click.option("--unless", multiple=True, help="criterion: term or /regex/ that exempts a proposal (repeatable).")
@click.option("--verdict", type=click.Choice(["warn", "block"]), default="warn", show_default=True,
              help="criterion: what a violation means.")
@click.option("--rationale", help="criterion: why the rule exists.")
@click.option("--review-when", help="criterion: what would make it worth revisiting.")
@click.option("--draft/--no-draft", "draft", default=None,
              help="criterion: draft applies-to/forbid/require/unless terms from TEXT "
                   "(default: [guardrail] draft; the LLM drafts when one is configured).")
@click.option("--redact", is_flag=True, default=None, help="Store with secrets replaced instead of refusing.")
@click.option("--force", is_flag=True,
              help="Store a new item even when the same one (same type and scope) exists; "
              "by default a duplicate reinforces the existing item.")
@click.option("--about", multiple=True, metavar="PATH[:SYMBOL]",
              help="A file, glob or file:symbol the item is about (repeatable); without it, "
              "paths and symbols the text names that exist in the repository are used.")
@click.option("--json", "as_json", is_flag=True, help="Print the new item as JSON.")
@click.pass_context
def remember(ctx, text, item_type, title, tags, scope, supersedes, confidence, importance,
             applies_path, keyword, topic, condition, forbid, require, verdict, rationale,
             review_when, redact, force, as_json, unless=(), draft=None, about=()):
    """Store a fact, decision, caveat, preference or criterion (TEXT, or '-' for stdin)."""
    from lorestack import app
    from lorestack.app.models import CriterionFields, RememberRequest
    from lorestack.cli.stdio import quiet_stdout

    request = RememberRequest(
        caller=caller_for(ctx), text=_read_text(text), type=item_type, title=title,
        tags=_tags(tags), scope=scope, supersedes=supersedes, confidence=confidence,
        importance=importance, redact=redact, force=force,
        about=list(about) if about else None,
        criterion=CriterionFields(
            paths=list(applies_path), keywords=list(keyword), topics=list(topic),
            condition=condition or "", forbid=list(forbid), require=list(require),
            unless=list(unless), verdict=verdict, rationale=rationale or "",
            review_when=review_when or "", draft=draft),
    )
    with quiet_stdout():
        written = app.run(request)
    _render_remembered(written, supersedes, as_json, bool(about), condition or request.text)


def _render_remembered(written, supersedes, as_json: bool, given_about: bool = False,
                       sentence: str = "") -> None:
    item = written.item
    drafted = written.draft
    if as_json:
        extra = {"draft": {"drafted_by": drafted.drafted_by, "notes": drafted.notes}} if drafted else {}
        emit_json({"item": item, "path": written.path, "archived": written.archived,
                   "duplicate_of": written.duplicate_of, **extra})
        return
    if written.duplicate_of:
        click.echo(f"already remembered as {item['id']} ({written.path}); reinforced it "
                   f"(importance {item['importance']:g}). Use --force to store a second one.")
        return
    click.echo(f"remembered {item['type']} {item['id']} → {written.path}")
    if item.get("anchors"):
        how = "as you said" if given_about else "named in the text; change with `lorestack anchors set`"
        click.echo(f"about: {', '.join(item['anchors'])} ({how})")
    if item.get("criterion") is not None:
        from lorestack.cli.criteria_cmds import describe_draft
        from lorestack.memory_layers.models import CriterionSpec

        spec = CriterionSpec.model_validate(item["criterion"])
        for line in describe_draft(spec, item_id=item["id"], sentence=sentence):
            click.echo(line)
        for note in drafted.notes if drafted else []:
            click.echo(f"note: {note}", err=True)
    if written.archived:
        replaced = (item.get("supersedes") or [supersedes])[0]  # sealed when it holds a key
        click.echo(f"archived {replaced} → {written.archived}")


@click.command(name="log")
@words_argument("text")
@click.option("--kind", type=click.Choice(KINDS), default="note", show_default=True,
              help="What sort of event this is.")
@click.option("--tags", help="Comma-separated tags.")
@click.option("--redact", is_flag=True, default=None, help="Store with secrets replaced instead of refusing.")
@click.option("--json", "as_json", is_flag=True, help="Print the event as JSON.")
@click.pass_context
def log_cmd(ctx, text, kind, tags, redact, as_json):
    """Append an event to today's journal (TEXT, or '-' for stdin)."""
    from lorestack import app
    from lorestack.app.models import LogRequest

    done = app.run(LogRequest(caller=caller_for(ctx), text=_read_text(text), kind=kind,
                              tags=_tags(tags), redact=redact))
    for note in done.notes:
        click.echo(f"note: {note}", err=True)
    if as_json:
        emit_json(done.event)
        return
    click.echo(f"logged {done.event['kind']} {done.event['id']}")


@click.command(name="list")
@click.option("--type", "item_type", type=click.Choice(ITEM_TYPES + ["event"]), help="Only this type.")
@click.option("--layer", type=click.Choice(["L1", "L2", "L3"]), help="Only this layer.")
@click.option("--status", type=click.Choice(["active", "pending", "archived", "superseded", "all"]),
              default="active", show_default=True,
              help="Only items with this status (superseded: archived items something replaced).")
@click.option("--limit", "-n", type=click.IntRange(min=0), help="Show at most this many.")
@click.option("--offset", type=int, default=0,
              help="Skip this many first (negative: show the last ones).")
@click.option("--json", "as_json", is_flag=True, help="Print the items as JSON.")
@click.pass_context
def list_cmd(ctx, item_type, layer, status, limit, offset, as_json):
    """List memory items (events too with --type event or --layer L3), oldest first within
    each type; how many there are goes to stderr (--limit/--offset page them)."""
    from types import SimpleNamespace

    from lorestack import app
    from lorestack.app.models import ListRequest

    listing = app.run(ListRequest(caller=caller_for(ctx), type=item_type, layer=layer,
                                  status=status, offset=offset, limit=limit))
    for problem in listing.problems:
        click.echo(f"warning: skipped {problem}", err=True)
    for note in listing.notes:  # read and listed: not "skipped"
        click.echo(f"warning: {note}", err=True)
    if as_json:
        emit_json([{k: v for k, v in it.items() if k != "shown_status"}
                   for it in listing.items], plain=True)  # the application layer's JSON
        return
    from datetime import datetime

    rows = [[it["id"], it["type"], it["shown_status"],
             humanize_age(datetime.fromisoformat(it["updated"])), it["title"]]
            for it in listing.items]
    rendered = table(rows, ["id", "type", "status", "updated", "title"])
    kinds = [SimpleNamespace(type=it["type"]) for it in listing.items]
    click.echo(_paint_table_types(rendered, kinds) if rendered else "no items")
    click.echo(page_summary(len(rows), listing.total, offset), err=True)


def page_summary(shown: int, total: int, offset: int) -> str:
    """'12 items', or which of them a page showed and how to ask for the next."""
    if shown == total:
        return f"{total} item{'s' if total != 1 else ''}"
    if not shown:
        return f"no items at offset {offset} of {total}"
    first = (offset if offset >= 0 else max(0, total + offset)) + 1
    more = (f"; --offset {first - 1 + shown} for the next page"
            if first - 1 + shown < total else "")
    return f"showing {first}-{first - 1 + shown} of {total} items{more}"


@click.command()
@click.argument("item_id")
@click.option("--json", "as_json", is_flag=True, help="Print the item as JSON.")
@click.pass_context
def show(ctx, item_id, as_json):
    """Show one item or journal event by id."""
    from lorestack import app
    from lorestack.app.models import ShowRequest
    from lorestack.memory_layers.models import JournalEvent, MemoryItem

    found = app.run(ShowRequest(caller=caller_for(ctx), id=item_id))
    if found.kind == "event":
        event = JournalEvent.model_validate(found.item)
        if as_json:
            emit_json(event)
        else:
            click.echo(f"{event.id} · {event.kind} · {event.time.isoformat()} ({humanize_age(event.time)})")
            click.echo(event.text)
            reason = (event.model_extra or {}).get("archived_reason")
            if reason:  # forgotten: kept in archive/events/, not in the journal
                click.echo(f"forgotten ({reason}); kept in archive/events/")
        return
    for note in found.notes:
        click.echo(f"note: {note}", err=True)
    if as_json:
        emit_json({**found.item, "path": found.path, **({"notes": found.notes} if found.notes
                                                         else {})})
        return
    item = MemoryItem.model_validate({k: v for k, v in found.item.items() if k != "body"})
    item.body = found.item.get("body", "")
    for line in describe_item(item, found.path):
        click.echo(line)


@click.command()
@click.argument("item_id")
@click.option("--reason", required=True, help="Why it no longer holds (kept in the archive).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def forget(ctx, item_id, reason, as_json):
    """Archive an item or a journal event, by its id or the short id the context shows.

    Nothing is deleted: an item moves to archive/<type>/, an event to archive/events/<day>.md,
    each with the reason. `restore` brings an item back. To close a todo, use `done`."""
    from lorestack import app
    from lorestack.app.models import ChangeRequest

    done = app.run(ChangeRequest(caller=caller_for(ctx), action="forget", id=item_id,
                                 reason=reason))
    if as_json:
        emit_json({"id": done.id, "archived": done.archived, "also_archived": done.also_archived})
    else:
        click.echo(f"archived {done.id} → {done.archived}")
        for copy in done.also_archived:  # a hand-made copy with the same id goes with it
            click.echo(f"archived its copy with the same id → {copy}")


@click.command()
@click.argument("old_id")
@words_argument("text")
@click.option("--title", help="Title of the new item (default: first line of TEXT).")
@click.option("--tags", help="Comma-separated tags (default: the old item's).")
@click.option("--redact", is_flag=True, default=None, help="Store with secrets replaced instead of refusing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def supersede(ctx, old_id, text, title, tags, redact, as_json):
    """Replace OLD_ID with TEXT; the old item is archived with links both ways."""
    from lorestack import app
    from lorestack.app.models import ChangeRequest

    done = app.run(ChangeRequest(caller=caller_for(ctx), action="supersede", id=old_id,
                                 text=_read_text(text), title=title,
                                 tags=_tags(tags) if tags else None, redact=redact))
    if as_json:
        emit_json({"item": done.item, "path": done.path, "archived": done.archived})
        return
    replaced = (done.item or {}).get("supersedes") or [old_id]  # sealed when it holds a key
    click.echo(f"{done.id} supersedes {replaced[0]}")
    click.echo(f"new: {done.path}\nold: {done.archived}")


def _paint_table_types(rendered: str, items) -> str:
    """Colour each row's type cell (a terminal only; the layout is measured before colouring)."""
    from lorestack.cli.render import colour_enabled, paint_type

    if not colour_enabled():
        return rendered
    lines = rendered.splitlines()
    out = lines[:2] if len(lines) > 1 and set(lines[1]) <= {"-", " "} else lines[:1]
    for line, item in zip(lines[len(out):], items):
        start = line.find(f" {item.type} ")
        if start >= 0:
            line = line[:start + 1] + paint_type(item.type) + line[start + 1 + len(item.type):]
        out.append(line)
    return "\n".join(out)


def describe_item(item, path) -> list[str]:
    """Everything an item holds, for a person: the header, then each field that is set."""
    from lorestack.cli.render import humanize_age, paint_type, paint_verdict
    from lorestack.memory_layers.listing import display_status

    status = display_status(item)
    lines = [f"# {item.title}", "",
             f"{item.id} · {paint_type(item.type)} · {paint_verdict(status) if status != 'active' else status}"
             f" · scope {item.scope} · confidence {item.confidence:g} · importance {item.importance:g}",
             f"path: {path}",
             f"created {item.created.isoformat()} · updated {item.updated.isoformat()} "
             f"({humanize_age(item.updated)})"]
    if item.tags:
        lines.append(f"tags: {', '.join(item.tags)}")
    if item.anchors:
        lines.append(f"anchors: {', '.join(item.anchors)}")
    source = item.source
    origin = source.kind + (f" (session {source.session})" if source.session else "") + (
        f" (run {source.run})" if source.run else "")
    lines.append(f"source: {origin}" + (f", {len(source.events)} event(s)" if source.events else ""))
    if item.supersedes:
        lines.append(f"supersedes: {', '.join(item.supersedes)}")
    if item.superseded_by:
        lines.append(f"superseded by: {item.superseded_by}")
    extra = item.model_extra or {}
    if extra.get("archived_reason"):
        lines.append(f"archived because: {extra['archived_reason']}")
    if extra.get("proposed_supersedes"):
        lines.append(f"proposed to replace: {extra['proposed_supersedes']}")
    spec = item.criterion
    if spec is not None:
        lines.append("criterion:")
        lines.append(f"  verdict: {paint_verdict(spec.verdict)}")
        if spec.condition:
            lines.append(f"  condition: {spec.condition}")
        applies = spec.applies_to
        for label, values in (("applies to paths", applies.paths),
                              ("keywords", applies.keywords), ("topics", applies.topics),
                              ("forbid", spec.forbid), ("require", spec.require),
                              ("unless", spec.unless)):
            if values:
                lines.append(f"  {label}: {', '.join(values)}")
        if spec.rationale:
            lines.append(f"  rationale: {spec.rationale}")
        if spec.review_when:
            lines.append(f"  review when: {spec.review_when}")
    if item.body and item.body.strip() != item.title.strip():
        lines += ["", item.body]
    return lines


@click.command()
@click.argument("todo_id")
@words_argument("note")
@click.option("--json", "as_json", is_flag=True, help="Print the closing event as JSON.")
@click.pass_context
def done(ctx, todo_id, note, as_json):
    """Close a todo or blocker (TODO_ID: its id or the short id the context shows).

    Logs a `progress` event "Done: …" tagged closes:<id>, so the todo leaves the context's open
    list; the todo itself stays in the journal. NOTE adds how it was resolved."""
    from lorestack import app
    from lorestack.app.models import ChangeRequest
    from lorestack.memory_layers.models import JournalEvent

    closed = app.run(ChangeRequest(caller=caller_for(ctx), action="done", id=todo_id,
                                   text=note or ""))
    event = JournalEvent.model_validate(closed.item)
    if as_json:
        emit_json(event)
    else:
        click.echo(f"closed {event.tags[0].split(':', 1)[1]} ({event.id}: {event.text})")


COMMANDS = [init, remember, log_cmd, list_cmd, show, forget, done, supersede]
