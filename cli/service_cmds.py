"""`lorestack serve`: the resident service (status, stop, foreground) and its command runner."""

from __future__ import annotations

import io
import sys

import click

from lorestack.cli.render import emit_json


class NeedStdin(BaseException):
    """A forwarded command wants the stdin its caller has not sent yet."""


class _LazyStdin(io.TextIOBase):
    """Stands for a piped stdin the client kept: reading it asks the client to send it."""

    def isatty(self) -> bool:
        return False

    def readable(self) -> bool:
        return True

    def read(self, size: int | None = -1) -> str:
        raise NeedStdin()

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise NeedStdin()


def run_cli_request(request: dict) -> dict:
    """Run one forwarded command line in this (warm) process, as its caller.

    The service calls this inside the caller's environment and folder (`core.overlay`); the
    command's standard streams are this request's own (`cli.stdio`), so requests running at
    the same time never see each other's input or output, and nothing changes directory.
    """
    from lorestack.cli import stdio
    from lorestack.cli.main import cli
    from lorestack.cli.render import client_terminal, colour_enabled

    stdio.install()
    argv = [str(a) for a in request.get("argv") or []]
    stdin: io.TextIOBase
    if request.get("stdin") is not None:
        stdin = io.TextIOWrapper(io.BytesIO(str(request["stdin"]).encode("utf-8", "surrogatepass")),
                                 encoding="utf-8")
    elif request.get("stdin_piped"):
        stdin = _LazyStdin()
    else:
        stdin = io.StringIO()
        stdin.close()  # a terminal or no stdin: commands see none
    out, err = stdio.sink(), stdio.sink()
    code = 0
    # colour as the caller's terminal wants it; click keeps the codes only when told to (its
    # own check would see this request's buffers, never a terminal)
    terminal = request.get("terminal") if isinstance(request.get("terminal"), dict) else None
    try:
        with stdio.capture(stdin, out, err), client_terminal(terminal):
            colour = True if terminal and (colour_enabled() or colour_enabled(err=True)) else None
            try:
                cli.main(args=argv, prog_name="lorestack", standalone_mode=True, color=colour)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except NeedStdin:
        return {"ok": False, "error": "needs-stdin", "message": "send stdin"}
    return {"ok": True, "stdout": stdio.drained(out), "stderr": stdio.drained(err), "code": code}


@click.command()
@click.option(
    "--foreground",
    "mode",
    flag_value="foreground",
    help="Run the service in this process (what the automatic start runs).",
)
@click.option(
    "--status",
    "mode",
    flag_value="status",
    help="Show whether it runs, its pid, "
    "version, memory use, projects it keeps warm and queued extraction jobs.",
)
@click.option("--stop", "mode", flag_value="stop", help="Ask the running service to exit.")
@click.option(
    "--idle-exit",
    type=click.FloatRange(min=1),
    default=None,
    help="Seconds without requests before the service exits (default: service.idle_exit_s).",
)
@click.option("--json", "as_json", is_flag=True, help="With --status / --stop: print JSON.")
def serve(mode, idle_exit, as_json):
    """The resident memory service: one per user, on a private Unix socket.

    Hooks and read commands start it on demand and ask it first; it keeps indexes, the
    embedding model and caches warm, watches .memory/ for edits, runs session-end
    extraction in the background and exits after service.idle_exit_s without requests.
    Nothing listens on the network. Without an option: start it (detached) if needed.
    """
    from lorestack.integrations.service import client, protocol

    if mode == "foreground":
        from lorestack.core.paths import global_home
        from lorestack.core.settings import load_settings
        from lorestack.integrations.service.server import run_service

        settings = load_settings(None, global_home())
        try:
            code = run_service(
                idle_exit_s=idle_exit or settings.service.idle_exit_s, run_cli=run_cli_request
            )
        except protocol.UnsafeRuntimeDir as exc:
            raise click.ClickException(str(exc)) from exc
        sys.exit(code)
    try:
        protocol.private_dir(create=mode is None)
    except protocol.UnsafeRuntimeDir as exc:
        raise click.ClickException(str(exc)) from exc
    except FileNotFoundError:
        pass
    if mode == "stop":
        try:
            reply = client.call({"op": "stop"}, 5.0, with_caller=False)
            # stopped means gone: a `serve` or a hook right after must not meet the old one
            result = {"stopped": True, "pid": reply.get("pid"),
                      "exited": client.wait_until_gone(reply.get("pid"), 15.0)}
        except client.Unavailable as exc:
            result = {"stopped": False, "reason": exc.reason}
        if as_json:
            emit_json(result)
        elif result["stopped"] and not result["exited"]:
            click.echo(f"asked the lorestack service (pid {result['pid']}) to stop; it is still "
                       "shutting down")
        elif result["stopped"]:
            click.echo(f"stopped the lorestack service (pid {result['pid']})")
        else:
            click.echo(f"no lorestack service running ({result['reason']})")
        return
    if mode is None:
        try:
            client.call({"op": "ping"}, 2.0, with_caller=False)
        except client.Unavailable as exc:
            if exc.reason == "version":
                client.restart_mismatched()
            else:
                client.start(force=True)
        if not client.wait_until_up(30):
            raise click.ClickException(f"the service did not start; see {client.log_path()}")
    try:
        status = client.call({"op": "status"}, 5.0, with_caller=False)
        status.pop("ok", None)
        status["running"] = True
    except client.Unavailable as exc:
        status = {
            "running": False,
            "reason": exc.reason,
            "detail": exc.detail,
            "runtime_dir": str(protocol.runtime_dir()),
        }
    if as_json:
        emit_json(status)
        return
    if not status["running"]:
        click.echo(f"not running ({status['reason']}); runtime dir {status['runtime_dir']}")
        return
    click.echo(
        f"running: pid {status['pid']}, version {status['version']}, up "
        f"{status['uptime_s']:.0f}s, {status['requests']} requests, rss "
        f"{status['rss_mb']} MB, idle exit after {status['idle_exit_s']:.0f}s"
    )
    click.echo(f"socket {status['socket']} (Unix socket, private; nothing on the network)")
    for project in status["projects"]:
        click.echo(f"  warm: {project}")
    for root, prepared in (status.get("prepared") or {}).items():
        if "failed" in prepared:  # hooks still answer, each reading the items it shows
            click.echo(f"  warm-up failed for {root}: {prepared['failed']}")
    jobs = status["jobs"]
    click.echo(
        f"  extraction jobs: {len(jobs['pending'])} waiting"
        f"{', one running' if jobs['running'] else ''}"
    )


COMMANDS = [serve]
