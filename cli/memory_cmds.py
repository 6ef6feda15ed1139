"""Commands that write and read memory files: init, remember, log, list, show, forget, supersede."""

from __future__ import annotations

from pathlib import Path

import click
from memstrata.cli.main import open_memory
from memstrata.cli.render import emit_json, humanize_age, read_piped_stdin, table

ITEM_TYPES = ["fact", "decision", "caveat", "preference", "criterion"]
KINDS = ["progress", "discussion", "rejected", "todo", "blocker", "decision", "note"]


def _tags(value: str | None) -> list[str]:
    return [t.strip() for t in (value or "").split(",") if t.strip()]


def _read_text(text: str | None) -> str:
    if text == "-" or text is None:
        return read_piped_stdin() or ""
    return text


@click.command()
@click.option("--global", "global_", is_flag=True, help="Initialise the global memory (~/.memstrata).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def init(ctx, global_: bool, as_json: bool):
    """Create .memory/ here and draft project.md from the repository.

    Safe to run again: it never overwrites files you edited.
    """
    from memstrata.memory_layers.memory import Memory

    root = ctx.find_root().obj.get("root")
    result = Memory.init(Path(root) if root else Path.cwd(), global_=global_)
    if as_json:
        emit_json(result)
        return
    click.echo(f"memory at {result.root}")
    card = "profile.md" if global_ else "project.md"
    if result.card_written:
        click.echo(f"drafted {card}: review and edit it")
    elif result.card_kept:
        click.echo(f"kept your existing {card}")


def _criterion_spec(applies_path, keyword, topic, forbid, require, verdict, rationale, review_when, condition):
    from memstrata.memory_layers.models import AppliesTo, CriterionSpec

    return CriterionSpec(
        applies_to=AppliesTo(paths=list(applies_path), keywords=list(keyword), topics=list(topic)),
        condition=condition or "", forbid=list(forbid), require=list(require),
        verdict=verdict, rationale=rationale or "", review_when=review_when or "",
    )


@click.command()
@click.argument("text", required=False)
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
@click.option("--json", "as_json", is_flag=True, help="Print the new item as JSON.")
@click.pass_context
def remember(ctx, text, item_type, title, tags, scope, supersedes, confidence, importance,
             applies_path, keyword, topic, condition, forbid, require, verdict, rationale,
             review_when, redact, as_json, unless=(), draft=None):
    """Store a fact, decision, caveat, preference or criterion (TEXT, or '-' for stdin)."""
    from memstrata.memory_layers.operations import remember as do_remember

    mem = open_memory(ctx, require_project=scope == "project")
    spec = drafted = None
    text = _read_text(text)
    if item_type == "criterion":
        from memstrata.cli.criteria_cmds import draft_for_remember

        spec = _criterion_spec(applies_path, keyword, topic, forbid, require, verdict,
                               rationale, review_when, condition)
        spec.unless = list(unless)
        spec, drafted = draft_for_remember(mem, condition or text, spec, draft)
    written = do_remember(
        mem, text, item_type, title=title, tags=_tags(tags), scope=scope,
        supersedes=supersedes, confidence=confidence, importance=importance, criterion=spec,
        redact=redact,
    )
    if as_json:
        extra = {"draft": {"drafted_by": drafted.drafted_by, "notes": drafted.notes}} if drafted else {}
        emit_json({"item": written.item, "path": written.path, "archived": written.archived, **extra})
        return
    click.echo(f"remembered {written.item.type} {written.item.id} → {written.path}")
    if spec is not None:
        from memstrata.cli.criteria_cmds import describe_draft

        for line in describe_draft(written.item.criterion, drafted.drafted_by if drafted else "user"):
            click.echo(line)
        for note in drafted.notes if drafted else []:
            click.echo(f"note: {note}", err=True)
        if drafted and drafted.drafted_by != "user" and not drafted.draft.kind:
            click.echo("note: no prohibition or obligation the rules can read (\"do not …\", "
                       "\"must …\"): `memstrata check` can only report it as possibly relevant, "
                       "or ask an LLM; add --forbid/--require terms to decide it", err=True)
        click.echo(f"change it: memstrata criteria edit {written.item.id} --forbid … ; "
                   f"try it: memstrata criteria test {written.item.id} \"…\"")
    if written.archived:
        click.echo(f"archived {supersedes} → {written.archived}")


@click.command(name="log")
@click.argument("text", required=False)
@click.option("--kind", type=click.Choice(KINDS), default="note", show_default=True,
              help="What sort of event this is.")
@click.option("--tags", help="Comma-separated tags.")
@click.option("--redact", is_flag=True, default=None, help="Store with secrets replaced instead of refusing.")
@click.option("--json", "as_json", is_flag=True, help="Print the event as JSON.")
@click.pass_context
def log_cmd(ctx, text, kind, tags, redact, as_json):
    """Append an event to today's journal (TEXT, or '-' for stdin)."""
    from memstrata.memory_layers.operations import log_event

    mem = open_memory(ctx)
    event = log_event(mem, _read_text(text), kind, tags=_tags(tags), redact=redact)
    if as_json:
        emit_json(event)
        return
    click.echo(f"logged {event.kind} {event.id}")


@click.command(name="list")
@click.option("--type", "item_type", type=click.Choice(ITEM_TYPES + ["event"]), help="Only this type.")
@click.option("--layer", type=click.Choice(["L1", "L2", "L3"]), help="Only this layer.")
@click.option("--status", type=click.Choice(["active", "pending", "archived", "all"]), default="active",
              show_default=True, help="Only items with this status.")
@click.option("--json", "as_json", is_flag=True, help="Print the items as JSON.")
@click.pass_context
def list_cmd(ctx, item_type, layer, status, as_json):
    """List memory items (events too with --type event or --layer L3)."""
    from memstrata.memory_layers.operations import list_items

    mem = open_memory(ctx)
    include_events = item_type == "event" or layer == "L3"
    listing = list_items(mem, item_type=item_type, layer=layer,
                         status=None if status == "all" else status, include_events=include_events)
    for problem in listing.problems:
        click.echo(f"warning: skipped {problem}", err=True)
    if as_json:
        emit_json([
            {**it.frontmatter(), "body": it.body, "path": str(listing.paths.get(it.id, ""))}
            for it in listing.items
        ])
        return
    rows = [[it.id, it.type, it.status, humanize_age(it.updated), it.title] for it in listing.items]
    click.echo(table(rows, ["id", "type", "status", "updated", "title"]) or "no items")


@click.command()
@click.argument("item_id")
@click.option("--json", "as_json", is_flag=True, help="Print the item as JSON.")
@click.pass_context
def show(ctx, item_id, as_json):
    """Show one item or journal event by id."""
    from memstrata.memory_layers.models import JournalEvent
    from memstrata.memory_layers.operations import show as do_show

    mem = open_memory(ctx)
    found = do_show(mem, item_id)
    if isinstance(found, JournalEvent):
        if as_json:
            emit_json(found)
        else:
            click.echo(f"{found.id} · {found.kind} · {found.time.isoformat()} ({humanize_age(found.time)})")
            click.echo(found.text)
        return
    if as_json:
        emit_json({**found.item.frontmatter(), "body": found.item.body, "path": str(found.path)})
        return
    click.echo(f"# {found.item.title}\n")
    click.echo(f"{found.item.id} · {found.item.type} · {found.item.status} · "
               f"confidence {found.item.confidence:g} · {found.path}")
    if found.item.body:
        click.echo("\n" + found.item.body)


@click.command()
@click.argument("item_id")
@click.option("--reason", required=True, help="Why it no longer holds (kept in the archive).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def forget(ctx, item_id, reason, as_json):
    """Archive an item. Nothing is deleted: it moves to archive/ with the reason."""
    from memstrata.memory_layers.operations import forget as do_forget

    mem = open_memory(ctx)
    path = do_forget(mem, item_id, reason)
    if as_json:
        emit_json({"id": item_id, "archived": path})
    else:
        click.echo(f"archived {item_id} → {path}")


@click.command()
@click.argument("old_id")
@click.argument("text", required=False)
@click.option("--title", help="Title of the new item (default: first line of TEXT).")
@click.option("--tags", help="Comma-separated tags (default: the old item's).")
@click.option("--redact", is_flag=True, default=None, help="Store with secrets replaced instead of refusing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def supersede(ctx, old_id, text, title, tags, redact, as_json):
    """Replace OLD_ID with TEXT; the old item is archived with links both ways."""
    from memstrata.memory_layers.operations import supersede as do_supersede

    mem = open_memory(ctx)
    written = do_supersede(mem, old_id, _read_text(text), title=title,
                           tags=_tags(tags) if tags else None, redact=redact)
    if as_json:
        emit_json({"item": written.item, "path": written.path, "archived": written.archived})
        return
    click.echo(f"{written.item.id} supersedes {old_id}")
    click.echo(f"new: {written.path}\nold: {written.archived}")


COMMANDS = [init, remember, log_cmd, list_cmd, show, forget, supersede]
