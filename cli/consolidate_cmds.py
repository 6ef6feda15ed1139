"""`lorestack extract`, `consolidate`, `review`, and `install/uninstall cron`."""

from __future__ import annotations

from datetime import date

import click

from lorestack.cli.install_cmds import install, uninstall
from lorestack.cli.main import open_memory
from lorestack.cli.render import emit_json, humanize_age, table
from lorestack.core.clients import transcript_clients


@click.command()
@click.option("--transcript", "transcript", required=True, type=click.Path(dir_okay=False),
              help="The client's session transcript (e.g. Claude Code's .jsonl).")
@click.option("--client", default="auto", show_default=True,
              type=click.Choice(["auto", *transcript_clients(), "generic"]),
              help="Which client wrote the transcript (auto: guess from its shape).")
@click.option("--session", help="Session id to record (default: the transcript's own).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def extract(ctx, transcript, client, session, as_json):
    """Turn a finished session's user messages into journal events.

    Only what the user typed is read (never the assistant's replies, which echo recalled
    memory). Secrets are redacted before anything is written. Safe to run twice.
    """
    from lorestack.consolidation.extract import extract_session

    mem = open_memory(ctx)
    result = extract_session(mem, transcript, client, session=session)
    if as_json:
        emit_json(result)
        return
    click.echo(f"{result.messages} user message(s): {len(result.events)} event(s), "
               f"{len(result.items)} item(s) written, {result.duplicates} already known"
               + (f", {result.redacted} redacted" if result.redacted else ""))
    for event in result.events:
        click.echo(f"  {event.id} {event.kind}: {event.title}")


def _parse_since(value: str | None):
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise click.BadParameter(f"{value!r} is not a date (YYYY-MM-DD)") from exc


def _render_report(report, show_diff: bool) -> None:
    what = "would change" if report.dry_run else "changed"
    how = f"LLM {report.model}" if report.method == "llm" else (
        "extractive (model unavailable)" if any("extractive path instead" in n for n in report.notes)
        else "extractive (no model configured)")
    click.echo(f"consolidation {report.run}{' (dry run)' if report.dry_run else ''}"
               f"{' — resumed an interrupted run' if report.resumed else ''}: {how}")
    click.echo(f"{report.events_considered} new event(s), {report.windows} day(s), "
               f"{report.clusters} cluster(s)")
    click.echo(f"added {len(report.added)} · proposed {len(report.proposed)} · merged "
               f"{len(report.merged)} · superseded {len(report.superseded)} · archived "
               f"{len(report.archived_items)} item(s), {len(report.archived_days)} journal day(s)")
    for step in report.steps:
        click.echo(f"  {step}")
    for skipped in report.skipped:
        click.echo(f"  skipped {len(skipped.events)} event(s): {skipped.reason}")
    if report.method == "llm":
        click.echo(f"LLM: {report.llm_calls} call(s), {report.total_tokens} tokens "
                   f"({report.prompt_tokens} prompt + {report.completion_tokens} completion), "
                   f"~${report.cost_usd:.4f}")
    if report.stopped:
        click.echo(f"stopped early: {report.stopped}; {report.deferred_events} event(s) wait "
                   "for the next run")
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    if report.commit:
        click.echo(f"committed {report.commit[:12]}")
    if show_diff and report.diff:
        click.echo("")
        click.echo(report.diff.rstrip("\n"))
    elif not report.changed:
        click.echo(f"nothing {what}")


@click.command()
@click.option("--dry-run", is_flag=True, help="Show what would change (as a diff); write nothing.")
@click.option("--since", metavar="DATE", help="Re-examine events from this day (YYYY-MM-DD) on, "
              "ignoring the checkpoint; already applied claims are recognised and skipped.")
@click.option("--model", metavar="M", help="litellm model for claim extraction (overrides [llm] model).")
@click.option("--max-tokens", type=click.IntRange(min=1), metavar="N",
              help="Token budget for this run's LLM calls (default: [consolidation] max_tokens).")
@click.option("--commit/--no-commit", default=None,
              help="git-commit the changes to .memory/ (default: [consolidation] git_commit).")
@click.option("--diff/--no-diff", "show_diff", default=True, show_default=True,
              help="Print the diff of memory files after the summary.")
@click.option("--require-llm", is_flag=True,
              help="Fail (exit 1) instead of falling back to the extractive path when the "
              "model cannot be called (no credentials, litellm missing).")
@click.option("--json", "as_json", is_flag=True, help="Print the report (with the diff) as JSON.")
@click.pass_context
def consolidate(ctx, dry_run, since, model, max_tokens, commit, show_diff, require_llm, as_json):
    """Fold new journal events into stable facts, decisions and caveats.

    Clusters the events since the last run by topic, states one claim per cluster (with the
    configured LLM, else extractively), merges it into a matching item, supersedes a
    contradicted one (the old moves to archive/) or adds it, then archives expired journal
    days and faded items. One run at a time; safe to rerun after a crash; a run with no new
    events changes nothing.
    """
    from lorestack.consolidation.job import run_consolidation

    overrides = {"llm.model": model} if model else {}
    mem = open_memory(ctx, **overrides)
    from lorestack.cli.render import ProgressCallback

    with ProgressCallback("consolidating") as bar:  # a terminal only; silent when piped
        report = run_consolidation(mem, dry_run=dry_run, since=_parse_since(since),
                                   max_tokens=max_tokens, progress=None if as_json else bar,
                                   commit=commit, require_llm=require_llm)
    if as_json:
        data = {**_report_json(report)}
        emit_json(data)
        return
    _render_report(report, show_diff)


def _report_json(report) -> dict:
    from lorestack.cli.render import to_jsonable

    data = to_jsonable(report)
    data["changed"] = report.changed
    data["total_tokens"] = report.total_tokens
    return data


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print the pending claims as JSON.")
@click.pass_context
def review(ctx, as_json):
    """List machine claims waiting for review, and items whose anchored code changed ("may be
    stale"); `accept` or `reject` them by id (accepting a stale item re-anchors it)."""
    if ctx.invoked_subcommand is not None:
        return
    from lorestack.consolidation.review import list_pending

    mem = open_memory(ctx)
    pending = list_pending(mem)
    if as_json:
        emit_json(pending)
        return
    from lorestack.memory_layers.anchors import stale_items, stale_note

    stale = stale_items(mem)
    for item, states in stale:
        click.echo(f"{item.id} {item.title[:60]} — {stale_note(states)}")
    if stale:
        click.echo("still true? lorestack review accept ID (re-anchors it); no longer: "
                   "lorestack forget ID --reason …\n")
    if not pending:
        click.echo("nothing waits for review")
        return
    rows = []
    for p in pending:
        change = (f"replaces {p.replaces}" if p.replaces else
                  f"adds its events to {p.merges_into}" if p.merges_into else "new")
        rows.append([p.id, p.type, f"{p.confidence:.2f}", change, str(len(p.events)),
                     humanize_age(p.created) if p.created else "", p.title])
    click.echo(table(rows, ["id", "type", "conf", "change", "events", "age", "claim"]))
    click.echo("\naccept: lorestack review accept ID…   reject: lorestack review reject ID… --reason …")


@review.command(name="accept")
@click.argument("ids", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Accept every pending claim.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def review_accept(ctx, ids, all_, as_json):
    """Make pending claims active (and archive the items they replace)."""
    from lorestack.consolidation.review import accept, list_pending

    mem = open_memory(ctx)
    chosen = [p.id for p in list_pending(mem)] if all_ else list(ids)
    if not chosen:
        raise click.UsageError("give the ids to accept (see `lorestack review`) or --all")
    result = accept(mem, chosen)
    if as_json:
        emit_json(result)
        return
    for item_id in result.accepted:
        click.echo(f"accepted {item_id}")
    for item_id in result.archived:
        click.echo(f"archived {item_id} (replaced)")
    for note in result.notes:
        click.echo(f"note: {note}", err=True)


@review.command(name="reject")
@click.argument("ids", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Reject every pending claim.")
@click.option("--reason", default="", help="Why (kept in the archive).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def review_reject(ctx, ids, all_, reason, as_json):
    """Archive pending claims; the same events will not propose them again."""
    from lorestack.consolidation.review import list_pending, reject

    mem = open_memory(ctx)
    chosen = [p.id for p in list_pending(mem)] if all_ else list(ids)
    if not chosen:
        raise click.UsageError("give the ids to reject (see `lorestack review`) or --all")
    result = reject(mem, chosen, reason)
    if as_json:
        emit_json(result)
        return
    for item_id in result.rejected:
        click.echo(f"rejected {item_id} (archived)")


@click.command(name="cron")
@click.option("--at", "at", metavar="HH:MM", help="Daily time (default: [consolidation] cron_at).")
@click.option("--scheduler", type=click.Choice(["auto", "cron", "systemd", "launchd"]),
              default="auto", show_default=True,
              help="auto: launchd on macOS, cron where crontab exists, else a systemd user timer.")
@click.option("--dry-run", is_flag=True, help="Show what would be installed; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def install_cron(ctx, at, scheduler, dry_run, as_json):
    """Run `lorestack consolidate` nightly for this project (idempotent)."""
    from lorestack.consolidation.cron import install_schedule

    mem = open_memory(ctx)
    result = install_schedule(mem, at=at or mem.settings.consolidation.cron_at,
                              scheduler=scheduler, dry_run=dry_run)
    if as_json:
        emit_json(result)
        return
    verb = "would install" if dry_run else ("already installed" if not result.changed else "installed")
    if result.notes and not dry_run:
        verb += " but not running"  # e.g. a crontab line with no cron daemon to run it
    click.echo(f"{verb} ({result.scheduler}): {result.entry}")
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if dry_run:
        for where, text in result.content.items():
            click.echo(f"--- {where}")
            click.echo(text, nl=not text.endswith("\n"))
    else:
        for path in result.files:
            click.echo(f"  {path}")


@click.command(name="cron")
@click.option("--scheduler", type=click.Choice(["auto", "cron", "systemd", "launchd"]),
              default="auto", show_default=True, help="Which scheduler to remove it from.")
@click.option("--dry-run", is_flag=True, help="Show what would be removed; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def uninstall_cron(ctx, scheduler, dry_run, as_json):
    """Remove exactly the nightly consolidation entry `install cron` added for this project."""
    from lorestack.consolidation.cron import uninstall_schedule

    mem = open_memory(ctx)
    result = uninstall_schedule(mem, scheduler=scheduler, dry_run=dry_run)
    if as_json:
        emit_json(result)
        return
    if result.changed or dry_run:
        click.echo(f"{'would remove' if dry_run else 'removed'} ({result.scheduler}): {result.entry}")
    else:
        click.echo(f"nothing to remove ({result.scheduler})")


install.add_command(install_cron)
uninstall.add_command(uninstall_cron)

COMMANDS = [extract, consolidate, review]
