"""Reading commands for sessions: `context`, `hook …` (client hooks) and `mcp` (the MCP server)."""

from __future__ import annotations

import os
import sys

import click

from lorestack.cli.render import emit_json, read_piped_stdin
from lorestack.core.clients import CLIENTS, DEFAULT_CLIENT
from lorestack.core.clients import EVENTS as HOOK_EVENTS
from lorestack.retrieval.modes import CONTEXT_CHOICES

TIERS = ("resident", "catalog", "topk")


def _tiers(value: str | None) -> tuple[str, ...]:
    if not value:
        return TIERS
    chosen = tuple(t.strip() for t in value.split(",") if t.strip())
    unknown = [t for t in chosen if t not in TIERS]
    if unknown:
        raise click.BadParameter(f"unknown tier {', '.join(unknown)}; choose from {', '.join(TIERS)}",
                                 param_hint="--tiers")
    return chosen


def _report_text(result) -> str:
    lines = [(f"budget {result.budget} tokens ({result.encoding}); used {result.tokens}; "
              f"fixed overhead {result.overhead}")]
    for report in result.tiers.values():
        lines.append(f"  {report['name']:<9} {report['used']:>5} / {report['budget']:<5} tokens  "
                     f"{len(report['items'])} shown, {report['dropped']} left out")
    for dropped in result.dropped[:20]:
        lines.append(f"  dropped {dropped['id']} ({dropped['tier']}): {dropped['reason']}")
    if len(result.dropped) > 20:
        lines.append(f"  … and {len(result.dropped) - 20} more")
    lines.extend(f"  note: {note}" for note in result.notes)
    return "\n".join(lines)


@click.command()
@click.option("--query", "-q", help="What the session is about; retrieved items fill the top-k tier.")
@click.option("--budget", type=click.IntRange(min=0), help="Token budget (default: loader.budget).")
@click.option("--tiers", help="Comma-separated tiers to include: resident,catalog,topk (default: all).")
@click.option("--mode", type=click.Choice(CONTEXT_CHOICES), default="default",
              show_default=True,
              help="How the query is retrieved: default (alias hybrid) = the full pipeline; "
                   "rrf = BM25 + dense fused only; bm25; vector; none.")
@click.option("--no-recent", is_flag=True, help="Leave today's journal and open todos out of top-k.")
@click.option("--report", is_flag=True, help="Also print the budget report (tokens per tier, what was left out and why).")
@click.option("--about", metavar="PATH",
              help="Only the memory anchored to this file (what the pre-tool hook hands an "
              "agent about to read or edit it).")
@click.option("--json", "as_json", is_flag=True, help="Print the context and its report as JSON.")
@click.pass_context
def context(ctx, query, budget, tiers, mode, no_recent, report, as_json, about=None):
    """Print what a new session would receive, within a token budget.

    Three tiers: resident (identity card, criteria, caveats), a catalog of memory files, and
    top-k (recent journal, open todos, items retrieved for --query). Never exceeds --budget.
    With --about PATH: the items anchored to that file, criteria and caveats first.
    """
    from lorestack import app
    from lorestack.app.models import ContextRequest
    from lorestack.cli.main import caller_for

    result = app.run(ContextRequest(caller=caller_for(ctx), query=query, budget=budget,
                                    tiers=list(_tiers(tiers)), recent=not no_recent, mode=mode,
                                    about=about))
    if about:  # only the memory anchored to that file
        if as_json:
            emit_json({"path": result.about, "text": result.text, "ids": result.ids,
                       "tokens": result.tokens, "left_out": result.left_out})
        elif result.text:
            click.echo(result.text, nl=False)
        else:
            click.echo(f"no memory is anchored to {result.about}", err=True)
        return
    if as_json:
        emit_json({"text": result.text, "tokens": result.tokens, "budget": result.budget,
                   "encoding": result.encoding, "ids": result.ids, "tiers": result.tiers,
                   "dropped": result.dropped, "notes": result.notes, "overhead": result.overhead})
        return
    if result.text:
        click.echo(result.text, nl=False)
    else:  # say why nothing came out rather than exit 0 in silence
        why = next((n for n in result.notes if n.startswith("budget ")), None)
        nowhere = next((n for n in result.notes if n.startswith("no project memory")), None)
        click.echo(f"note: no context: {why}; give a larger --budget" if why
                   else f"note: no context: {nowhere}" if nowhere
                   else "note: no context: nothing to show with these options", err=True)
    if not report:  # files that were skipped (unsafe, unreadable, cut) are always named
        for note in result.notes:
            if note.startswith("unreadable memory file skipped"):
                click.echo(f"warning: {note}", err=True)
    if report:
        click.echo(_report_text(result), err=True)  # stdout stays the context itself


@click.command()
@click.argument("event", metavar="EVENT")
@click.option("--client", default=DEFAULT_CLIENT, show_default=True,
              help=f"Which client calls the hook: {', '.join(CLIENTS)}.")
@click.pass_context
def hook(ctx, event: str, client: str):
    """Run a client hook: EVENT is session-start, prompt, pre-tool (a file is about to be read
    or edited: the memory anchored to it) or session-end.

    Reads the client's hook payload (JSON) on stdin and answers in the client's own format.
    Exits 0 on any problem a session can meet (no memory, broken store, deadline passed): it
    answers empty and logs to .memory/.index/hooks.log. An unknown EVENT or --client is a
    setup mistake, not a session problem: one line on stderr and exit 1 (never 2, which
    clients read as "block").
    """
    if client not in CLIENTS or event not in HOOK_EVENTS:
        what = f"unknown client '{client}'" if client not in CLIENTS else f"unknown event '{event}'"
        click.echo(f"lorestack hook: {what}; events: {', '.join(HOOK_EVENTS)}; "
                   f"clients: {', '.join(CLIENTS)}", err=True)
        sys.exit(1)
    try:
        from lorestack import app
        from lorestack.app.models import HookRequest
        from lorestack.app.secret_notice import give_back, hand_on, told_after_reply
        from lorestack.cli.main import caller_for
        from lorestack.core.hook_stdin import HOOK_PAYLOAD_MAX
        from lorestack.integrations.hooks import capture_native_stderr

        capture_native_stderr()
        # one stray byte must not cost the answer: read as the thin path (service on) reads it
        stdin_text = read_piped_stdin(limit=HOOK_PAYLOAD_MAX, replace_undecodable=True) or ""
        with told_after_reply() as held:  # a notice is told once the reply is flushed
            run = app.run(HookRequest(caller=caller_for(ctx), event=event,  # type: ignore[arg-type]
                                      client=client, stdin=stdin_text))
        try:
            if run.output:
                sys.stdout.write(run.output + "\n")
            sys.stdout.flush()
        except OSError as exc:  # the client closed its end: it gave up on this hook
            give_back(held)  # the reply did not get out: the next hook tells its notices
            from lorestack.integrations.hooks import log_failure

            log_failure(f"{event} ({client}): reply not written ({type(exc).__name__}: {exc}); "
                        "nothing recorded for it")
            os._exit(0)
        hand_on(held)
        if run.timed_out:
            os._exit(0)  # the worker is still busy; do not wait for it
    except BaseException:  # noqa: BLE001 - a hook never breaks the session
        try:
            import traceback

            from lorestack.integrations.hooks import log_failure

            log_failure(f"{event} ({client}): {traceback.format_exc(limit=4)}")
        except BaseException:  # noqa: BLE001, S110 - nothing left to report to
            pass
        sys.stdout.flush()
        os._exit(0)
    sys.exit(0)


@click.command()
@click.pass_context
def mcp(ctx):
    """Serve memory over MCP on stdio: remember, recall, forget, list_memories tools.

    Add it to a client as a stdio server, e.g. `claude mcp add lorestack -- lorestack mcp`.
    """
    from lorestack.integrations.mcp_server import serve

    root = ctx.find_root().obj.get("root") if ctx.find_root().obj else None
    serve(root)


COMMANDS = [context, hook, mcp]
