"""`lorestack extract`, `consolidate`, `review`, and `install/uninstall cron`."""

from __future__ import annotations

from typing import Literal

import click

from lorestack.cli.install_cmds import install, uninstall
from lorestack.cli.main import caller_for, open_memory
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


def _render_report(report: dict, show_diff: bool) -> None:
    """The consolidation report (the JSON the application layer answers) as lines."""
    r = report
    what = "would change" if r["dry_run"] else "changed"
    how = f"LLM {r['model']}" if r["method"] == "llm" else (
        "extractive (model unavailable)" if any("extractive path instead" in n for n in r["notes"])
        else "extractive (no model configured)")
    click.echo(f"consolidation {r['run']}{' (dry run)' if r['dry_run'] else ''}"
               f"{' — resumed an interrupted run' if r['resumed'] else ''}: {how}")
    click.echo(f"{r['events_considered']} new event(s), {r['windows']} day(s), "
               f"{r['clusters']} cluster(s)")
    click.echo(f"added {len(r['added'])} · proposed {len(r['proposed'])} · merged "
               f"{len(r['merged'])} · superseded {len(r['superseded'])} · archived "
               f"{len(r['archived_items'])} item(s), {len(r['archived_days'])} journal day(s)")
    for step in r["steps"]:
        click.echo(f"  {step}")
    for skipped in r["skipped"]:
        click.echo(f"  skipped {len(skipped['events'])} event(s): {skipped['reason']}")
    if r["retried"]:
        click.echo(f"{r['retried']} given-up event(s) put back in the queue (--retry-dropped)")
    if r["method"] == "llm":
        click.echo(f"LLM: {r['llm_calls']} call(s), {r['total_tokens']} tokens "
                   f"({r['prompt_tokens']} prompt + {r['completion_tokens']} completion), "
                   f"~${r['cost_usd']:.4f}")
    if r["stopped"]:
        click.echo(f"stopped early: {r['stopped']}; {r['waiting_events']} event(s) wait "
                   "for the next run")
    elif r["waiting_events"]:
        click.echo(f"{r['waiting_events']} event(s) wait for the next run")
    if r["given_up"]:
        events = sum(len(row["events"]) for row in r["given_up"])
        click.echo(f"given up: {events} event(s) of {len(r['given_up'])} cluster(s) the model "
                   "never answered validly are not consolidated; `lorestack consolidate "
                   "--retry-dropped` asks again")
    for note in r["notes"]:
        click.echo(f"note: {note}", err=True)
    if r["commit"]:
        click.echo(f"committed {r['commit'][:12]}")
    if show_diff and r["diff"]:
        click.echo("")
        click.echo(r["diff"].rstrip("\n"))
    elif not r["changed"]:
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
@click.option("--retry-dropped", is_flag=True,
              help="Put back in the queue the events of clusters given up after "
              "[consolidation] max_failures refused model replies (the report lists them).")
@click.option("--json", "as_json", is_flag=True, help="Print the report (with the diff) as JSON.")
@click.pass_context
def consolidate(ctx, dry_run, since, model, max_tokens, commit, show_diff, require_llm,
                retry_dropped, as_json):
    """Fold new journal events into stable facts, decisions and caveats.

    Clusters the events since the last run by topic, states one claim per cluster (with the
    configured LLM, else extractively), merges it into a matching item, supersedes a
    contradicted one (the old moves to archive/) or adds it, then archives expired journal
    days and faded items. One run at a time; safe to rerun after a crash; a run with no new
    events changes nothing.
    """
    from lorestack import app
    from lorestack.app.models import ConsolidateRequest
    from lorestack.cli.render import ProgressCallback

    request = ConsolidateRequest(caller=caller_for(ctx), dry_run=dry_run, since=since,
                                 model=model, max_tokens=max_tokens, commit=commit,
                                 require_llm=require_llm, retry_dropped=retry_dropped)
    with ProgressCallback("consolidating") as bar:  # a terminal only; silent when piped
        report = app.run(request, progress=None if as_json else bar).report
    if as_json:
        emit_json(report)
    else:
        _render_report(report, show_diff)
    if report.get("model_failed"):
        # a wrong key or a server down leaves every event waiting: a scheduler (systemd,
        # launchd) and a person at the prompt see a failed run, not "nothing changed"
        ctx.exit(1)


@click.group(invoke_without_command=True)
@click.option("--json", "as_json", is_flag=True, help="Print the pending claims as JSON.")
@click.pass_context
def review(ctx, as_json):
    """List machine claims waiting for review, and items whose anchored code changed ("may be
    stale"); `accept` or `reject` them by id (accepting a stale item re-anchors it)."""
    if ctx.invoked_subcommand is not None:
        return
    from lorestack import app
    from lorestack.app.models import ReviewRequest

    answer = app.run(ReviewRequest(caller=caller_for(ctx)))
    if as_json:  # both lists the text shows: claims to decide, items that may be stale
        emit_json({"pending": answer.pending, "stale": answer.stale})
        return
    for item in answer.stale:
        click.echo(f"{item['id']} {item['title'][:60]} — {item['note']}")
    if answer.stale:
        click.echo("still true? lorestack review accept ID (re-anchors it); no longer: "
                   "lorestack forget ID --reason …\n")
    if not answer.pending:
        click.echo("nothing waits for review")
        return
    rows = []
    for p in answer.pending:
        change = (f"replaces {p['replaces']}" if p["replaces"] else
                  f"adds its events to {p['merges_into']}" if p["merges_into"] else "new")
        rows.append([p["id"], p["type"], f"{p['confidence']:.2f}", change, str(len(p["events"])),
                     humanize_age(_when(p["created"])) if p["created"] else "", p["title"]])
    click.echo(table(rows, ["id", "type", "conf", "change", "events", "age", "claim"]))
    click.echo("\naccept: lorestack review accept ID…   reject: lorestack review reject ID… --reason …")


def _when(value):
    """A time from JSON (ISO text) as the datetime `humanize_age` reads."""
    from datetime import datetime

    return datetime.fromisoformat(value) if isinstance(value, str) else value


def _decide(ctx, action: Literal["accept", "reject"], ids, all_: bool, reason: str = "") -> dict:
    from lorestack import app
    from lorestack.app.models import ReviewRequest
    from lorestack.core.errors import LorestackError

    try:
        answer = app.run(ReviewRequest(caller=caller_for(ctx), action=action, ids=list(ids),
                                       all=all_, reason=reason))
    except LorestackError as exc:
        if "give the ids" in str(exc):  # nothing chosen: a usage error, as before
            raise click.UsageError(str(exc)) from exc
        raise
    assert answer.result is not None  # accept and reject always answer a result
    return answer.result


@review.command(name="accept")
@click.argument("ids", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Accept every pending claim.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def review_accept(ctx, ids, all_, as_json):
    """Make pending claims active (and archive the items they replace)."""
    result = _decide(ctx, "accept", ids, all_)
    if as_json:
        emit_json(result)
        return
    for item_id in result["accepted"]:
        click.echo(f"accepted {item_id}")
    for item_id in result["archived"]:
        click.echo(f"archived {item_id} (replaced)")
    for note in result["notes"]:
        click.echo(f"note: {note}", err=True)


@review.command(name="reject")
@click.argument("ids", nargs=-1)
@click.option("--all", "all_", is_flag=True, help="Reject every pending claim.")
@click.option("--reason", default="", help="Why (kept in the archive).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def review_reject(ctx, ids, all_, reason, as_json):
    """Archive pending claims; the same events will not propose them again."""
    result = _decide(ctx, "reject", ids, all_, reason)
    if as_json:
        emit_json(result)
        return
    for item_id in result["rejected"]:
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
    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
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
    if result.changed:  # with --dry-run: what is there to remove
        click.echo(f"{'would remove' if dry_run else 'removed'} ({result.scheduler}): {result.entry}")
    else:
        click.echo(f"nothing to remove ({result.scheduler})")


install.add_command(install_cron)
uninstall.add_command(uninstall_cron)

COMMANDS = [extract, consolidate, review]
