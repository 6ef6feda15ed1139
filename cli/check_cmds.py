"""`lorestack check` (the pre-commit installers are in precommit_cmds).

Exit codes of `check`: 2 block, 1 warn or "applies, undecided", 0 nothing applies, 3 an
error (a usage mistake, a missing file, an unknown revision); --strict makes a warn exit 2
like a block. As a pre-commit hook only a block stops
the commit (a warn too with --strict). As a hook it fails open on errors (exit 0, one line
on stderr) unless --fail-closed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from lorestack.cli.main import open_memory
from lorestack.cli.render import emit_json, read_piped_stdin, read_stdin_input, words_argument
from lorestack.core.clients import CLIENTS, DEFAULT_CLIENT
from lorestack.core.errors import LorestackError

CLIENT_CHOICES = list(CLIENTS)
WORKTREE = "\0worktree"
ERROR_EXIT = 3


class CheckCommand(click.Command):
    """`check`'s errors exit 3, apart from its answers (0 pass, 1 warn, 2 block): a script,
    a CI step or a client's hook must never read a typo or a missing file as a block (a
    pre-tool hook's exit 2 denies the tool call) or as a warn."""

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.UsageError as exc:
            exc.exit_code = ERROR_EXIT
            raise

    def invoke(self, ctx):
        from lorestack.cli.main import unexpected_line

        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            exc.exit_code = ERROR_EXIT
            raise
        except LorestackError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(ERROR_EXIT)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException,
                SystemExit, KeyboardInterrupt, BrokenPipeError):
            raise
        except Exception as exc:  # noqa: BLE001 - one line, never a traceback
            click.echo(unexpected_line(exc), err=True)
            sys.exit(ERROR_EXIT)


def _proposal(text, file, diff_rev, staged, repo_dir: Path):
    """Build one proposal from whatever inputs were given (they combine)."""
    from lorestack.guardrail import proposals as P

    parts = []
    if text == "-":
        text = read_stdin_input(outcome="nothing was checked")
    if text:
        parts.append(P.from_text(text))
    if file:
        parts.append(P.from_file(file))
    if staged:
        parts.append(P.from_git_diff(repo_dir, staged=True))
    elif diff_rev is not None:
        parts.append(P.from_git_diff(repo_dir, None if diff_rev == WORKTREE else diff_rev))
    if not parts:
        data = read_stdin_input(outcome="nothing was checked")
        if data and data.strip():
            return P.from_text(data, label="stdin")
        raise click.UsageError("give the proposal: TEXT, '-' for stdin, --file, --diff or --staged")
    proposal = parts[0]
    for extra in parts[1:]:
        proposal = proposal.merged_with(extra)
    return proposal


def _quiet_stdout():
    """Libraries that print (litellm does on errors) must not corrupt JSON or a hook reply
    (per request inside the service: `cli.stdio`)."""
    from lorestack.cli.stdio import quiet_stdout

    return quiet_stdout()


def _repo_dir(mem) -> Path:
    return mem.project.repo_dir if mem.project else Path.cwd()


def _exit_now(code: int) -> None:
    """Leave as soon as the answer is written: a timed-out check thread must not hold the
    client (it waits for the process to exit). Under click's test runner, exit normally."""
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        real_stdout = sys.stdout.fileno() == 1
    except (AttributeError, OSError, ValueError):  # click's runner: an in-memory stream
        real_stdout = False
    if real_stdout:
        os._exit(code)
    sys.exit(code)


def _hook_deadline(ctx, llm) -> float:
    """Seconds a guardrail hook may take: `guardrail.hook_deadline_ms`, longer when an LLM judges."""
    from lorestack.cli.main import settings_for

    try:
        settings = settings_for(ctx).guardrail
    except Exception:  # noqa: BLE001 - bad settings: what is sound in them, else the default
        settings = _lenient_guardrail_settings(ctx)
    seconds = settings.hook_deadline_ms / 1000
    if llm or (llm is None and settings.llm):
        seconds = max(seconds, settings.hook_llm_timeout_s + 1)
    return seconds


def _lenient_guardrail_settings(ctx):
    from lorestack.core.settings import GuardrailSettings, resolve_roots
    from lorestack.core.settings_lenient import load_settings_lenient

    try:
        root = ctx.find_root().obj.get("root") if ctx.find_root().obj else None
        return load_settings_lenient(*resolve_roots(None, root))[0].guardrail
    except Exception:  # noqa: BLE001 - the shipped default still bounds the hook
        return GuardrailSettings()


def _hook_notices(mem, payload: str, client: str, result) -> str | None:
    """Once per session each: what a lenient opening left out of a broken settings file, and
    that criteria went unjudged by meaning for want of a sentence model."""
    from lorestack.app.secret_notice import config_notice, model_notice, with_notice
    from lorestack.core.clients import parse_payload

    unjudged = getattr(result, "unjudged_by_meaning", 0)
    cut = _cut_notice(mem, client, result)
    if not getattr(mem, "config_problems", None) and not unjudged:
        return cut
    session_id = parse_payload(payload, client, "pre-tool").session_id
    told = config_notice(mem, session_id) if getattr(mem, "config_problems", None) else None
    return with_notice(with_notice(told, model_notice(mem, session_id, unjudged)), cut)


def _cut_notice(mem, client: str, result) -> str | None:
    """A tool call judged only in part (too big to judge whole in a hook's time): said to
    the agent on every such call, whatever the verdict, and one line in hooks.log."""
    from lorestack.guardrail.check import CUT_NOTE
    from lorestack.integrations.hooks import log_failure

    cut = [w for w in result.warnings if w.startswith(CUT_NOTE)]
    if not cut:
        return None
    said = "; ".join(w.removeprefix(CUT_NOTE).strip() for w in cut)
    log_failure(f"check --hook pre-tool ({client}): {CUT_NOTE} {said}", mem=mem)
    return (f"lorestack notice: the guardrail checked only the start of this tool call "
            f"({said}); the rest was not held against the user's rules.")


def _guarded_check(ctx, name: str, build_proposal, retrieval, llm):
    """Open the memory, build the proposal and judge it under the hook deadline.

    Returns a `GuardedRun` whose value is (result, proposal, memory); a failure or a missed deadline
    is logged to hooks.log (where hook failures go) and left to the caller to answer.
    """
    from lorestack.core.guarded import Deadline, run_guarded
    from lorestack.core.logs import detach_stderr
    from lorestack.guardrail.check import check as do_check
    from lorestack.integrations.hooks import log_failure

    detach_stderr()
    deadline = Deadline(_hook_deadline(ctx, llm))
    opened: dict = {}

    def work(_deadline):
        # a hook judges with what is sound in a broken config file (what was left out is in
        # mem.config_problems, told to the agent or the person), never not at all
        mem = opened["mem"] = open_memory(ctx, lenient_config=True)
        proposal = build_proposal(mem)
        with _quiet_stdout():
            result = do_check(mem, proposal, retrieval=retrieval, llm=llm, hook=True)
        return result, proposal, mem

    run = run_guarded(work, deadline, name=f"lorestack-check-{name}")
    if run.timed_out:
        run.error = f"deadline of {round(deadline.seconds * 1000)} ms passed"
    if not run.ok:
        log_failure(f"check --hook {name}: {run.error}", mem=opened.get("mem"))
    return run


def _painted(line: str, verdict: str, *, err: bool) -> str:
    """The verdict word in colour on a terminal (plain in pipes and with NO_COLOR)."""
    from lorestack.cli.render import paint_verdict

    head, sep, rest = line.partition(" ")
    word = head.rstrip(":")
    if word not in ("pass", "warn", "block"):
        return line
    return paint_verdict(word, err=err) + head[len(word):] + sep + rest


def _human(result, strict: bool, *, err: bool = False) -> None:
    """The verdict and what it rests on, on stdout whatever the verdict (the exit code tells
    them apart; `check ... | less` shows a block as it shows a pass; a hook passes err=True);
    notes about the check itself (a setting it could not honour, a missing model) go to
    stderr."""
    from lorestack.guardrail.replies import report, verdict_line

    for warning in result.warnings:
        click.echo(f"warning: {warning}", err=True)
    body = report(result)
    if body:
        click.echo(body, err=err)
    click.echo(
        _painted(verdict_line(result), result.verdict, err=err)
        + (" [--strict: failing]" if strict and result.verdict == "warn" else ""),
        err=err,
    )


def _run_pre_tool(ctx, client: str, strict: bool, fail_closed: bool, retrieval, llm) -> int:
    from lorestack.core.errors import InputRejected
    from lorestack.core.hook_stdin import HOOK_PAYLOAD_MAX
    from lorestack.guardrail.proposals import from_hook_payload

    try:
        # at most the bytes a hook reads; a longer tool call is judged on what they hold
        payload = read_piped_stdin(refuse_undecodable="nothing was checked",
                                   limit=HOOK_PAYLOAD_MAX, prefix=True) or ""
    except InputRejected as exc:  # as the thin client refuses it: one line, exit 1 (not 2)
        click.echo(f"Error: {exc}", err=True)
        return 1
    # the check thread redirects sys.stdout to stderr while it runs (_quiet_stdout); if it
    # is still running at the deadline, the reply must still reach the real stdout
    out = sys.stdout
    run = _guarded_check(
        ctx,
        "pre-tool",
        lambda mem: from_hook_payload(payload, client, repo_dir=_repo_dir(mem),
                                      max_bytes=mem.settings.limits.max_proposal_bytes),
        retrieval,
        llm,
    )
    from lorestack.app.secret_notice import give_back, hand_on, told_after_reply

    with told_after_reply() as held:  # the notice is told once the reply is out (below)
        reply = _pre_tool_reply(run, payload, client, strict, fail_closed)
    try:
        if reply.stdout:
            click.echo(reply.stdout, file=out)
        out.flush()
    except (OSError, ValueError):
        give_back(held)  # the reply did not get out: told next time
    hand_on(held)  # the service hands them on after its send; here they are told now
    if reply.stderr:
        click.echo(reply.stderr, err=True)
    return reply.exit_code


def _pre_tool_reply(run, payload: str, client: str, strict: bool, fail_closed: bool):
    from lorestack.core.clients import get as client_spec
    from lorestack.guardrail.replies import hook_error_reply, hook_reply, with_agent_notice

    if run.ok and run.value is not None:
        result, proposal, mem = run.value
        first = True
        refuses_to_ask = client_spec(client).tool_reply != "hook-specific"
        if result.undecided and not result.violations and refuses_to_ask:
            # clients that cannot tell the model without refusing: refuse once, then allow
            from lorestack.guardrail.asked import first_ask

            first = first_ask(mem.primary.index_dir, client, result, proposal)
        reply = with_agent_notice(hook_reply(result, client, strict=strict, first_ask=first),
                                  client, _hook_notices(mem, payload, client, result))
    else:
        reply = hook_error_reply(run.error or "no result", client, fail_closed=fail_closed)
        if (run.error or "").startswith("ConfigError") and not fail_closed:
            # settings even a lenient opening cannot use: the tool goes ahead, and the agent
            # is told why nothing was checked (stderr of a passing hook reaches no one)
            reply = with_agent_notice(reply, client, f"lorestack notice: the guardrail did "
                                      f"not check this call: {run.error}. Tell the user.")
    return reply


def _broken(problem: str) -> str:
    """What a lenient opening left out, in the words the other hooks use for it."""
    if problem.startswith("environment "):
        return f"an environment variable is broken: {problem.removeprefix('environment ')}"
    return f"a settings file is broken: {problem}"


def _run_pre_commit(ctx, text, file, strict, fail_closed, retrieval, llm) -> int:
    run = _guarded_check(
        ctx,
        "pre-commit",
        lambda mem: _proposal(text, file, None, True, _repo_dir(mem)),
        retrieval,
        llm,
    )
    if not run.ok or run.value is None:
        click.echo(
            f"lorestack check failed: {run.error}"
            + ("" if fail_closed else " (commit allowed: the guardrail fails open)"),
            err=True,
        )
        return 1 if fail_closed else 0
    result, mem = run.value[0], run.value[2]
    for problem in getattr(mem, "config_problems", []):  # judged without it: say so
        click.echo(f"warning: {_broken(problem)}", err=True)
    if result.verdict != "pass" or result.warnings:
        _human(result, strict, err=True)
        if result.verdict == "block":
            click.echo(
                "commit blocked by lorestack guardrail (bypass once: git commit --no-verify)",
                err=True,
            )
    return result.commit_exit_code(strict)


def diff_options(command):
    """--diff [REV] and --staged, as `check` and `criteria test` both take them."""
    command = click.option(
        "--staged", is_flag=True, help="Judge the staged changes (git diff --cached)."
    )(command)
    return click.option(
        "--diff",
        "diff_rev",
        is_flag=False,
        flag_value=WORKTREE,
        default=None,
        metavar="[REV]",
        help="Judge a git diff: the working tree vs HEAD (untracked files as new), or what REV "
        "introduced (a commit, or a range A..B). Use --diff=REV when TEXT follows.",
    )(command)


@click.command(cls=CheckCommand)
@words_argument("text")
@click.option(
    "--file", "file", type=click.Path(dir_okay=False), help="Read the proposal from a file."
)
@diff_options
@click.option(
    "--hook",
    type=click.Choice(["pre-tool", "pre-commit"]),
    help="Run as a hook: pre-tool reads the client's payload on stdin and answers in "
    "its format; pre-commit judges the staged diff. Hooks fail open on errors.",
)
@click.option(
    "--client",
    type=click.Choice(CLIENT_CHOICES),
    default=DEFAULT_CLIENT,
    show_default=True,
    help="With --hook pre-tool: whose payload and reply format.",
)
@click.option(
    "--strict", is_flag=True, help="Treat warn as a block (exit 2; deny in a hook)."
)
@click.option(
    "--fail-closed", is_flag=True, help="As a hook, deny/fail when the check itself errors."
)
@click.option(
    "--retrieval/--no-retrieval",
    default=None,
    help="Also look up related items in the hybrid index (default: [guardrail] "
    "retrieval, or hook_retrieval in hook mode).",
)
@click.option(
    "--llm/--no-llm",
    default=None,
    help="Let the configured LLM judge what the rules cannot (default: [guardrail] llm).",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the result as JSON (not in hook mode)."
)
@click.pass_context
def check(
    ctx, text, file, diff_rev, staged, hook, client, strict, fail_closed, retrieval, llm, as_json
):
    """Hold a proposal (TEXT, '-' for stdin, --file, --diff, --staged) against your criteria,
    decisions and caveats: block (exit 2), warn or "applies, undecided" (exit 1; 2 with
    --strict), or nothing applies / every rule kept (exit 0). An error exits 3.

    Every verdict names the rule's id, its text, when it was set and why it exists.
    """
    if hook == "pre-tool":
        sys.stdout.flush()
        _exit_now(_run_pre_tool(ctx, client, strict, fail_closed, retrieval, llm))
    if hook == "pre-commit":
        _exit_now(_run_pre_commit(ctx, text, file, strict, fail_closed, retrieval, llm))
    from lorestack import app
    from lorestack.app.models import CheckRequest
    from lorestack.cli.main import caller_for
    from lorestack.guardrail.findings import CheckResult

    repo_dir = _repo_dir(open_memory(ctx)) if (staged or diff_rev is not None) else Path.cwd()
    proposal = _proposal(text, file, diff_rev, staged, repo_dir)
    with _quiet_stdout():
        answer = app.run(CheckRequest(caller=caller_for(ctx), proposal=proposal.model_dump(),
                                      retrieval=retrieval, llm=llm, strict=strict))
    result = CheckResult.model_validate(answer.result)
    if as_json:
        emit_json(result)
    else:
        _human(result, strict)
    sys.exit(answer.exit_code)


COMMANDS = [check]
