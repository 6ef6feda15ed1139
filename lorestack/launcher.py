"""The `lorestack` console entry point: the thin path first, the click CLI otherwise.

A client hook and the read commands (`hook`, `context`, `search`, `list`, `show`, `check`,
`remember`, `log`) ask the resident service and print its answer; this path imports only the standard
library and `lorestack.integrations.service.client` before the answer is written, then leaves
at once (`os._exit`: the client waits for the process to end, not just for the output).
When the service is absent, stale, of another version, or too slow, the same command runs
in-process (for hooks: within the deadline, falling back to cheaper recall rather than an
empty answer) and the service is started for next time. Everything else imports the CLI.
"""

from __future__ import annotations

import os
import sys
import time

THIN_COMMANDS = ("context", "search", "check", "remember", "log", "list", "show")
# how long a hook waits for the service to take the request; once it has, the service says
# how long it will take (its configured deadline) and the hook waits that long
ACK_WAIT_S = 1.0
END_WAIT_S = 1.0  # session end: the service only queues the job
CLI_WAIT_S = 30.0  # a command the service accepted; past this, run it here instead
# options whose values are paths relative to the caller's folder: run those commands here
_LOCAL_ONLY = ("--file",)
# Set by `lorestack/thin.py` when this process started without `site` (the hook commands
# `lorestack install` writes): the command that runs the same entry with it. Anything beyond
# asking the service (the CLI, an in-process answer, starting the service) needs the whole
# install, so it restarts through this command (`restart_with_site`).
SITE_COMMAND: list[str] | None = None
# what a start without `site` hands on to its restart: why the service did not answer and when
# the hook started (so the restart skips the service and keeps the deadline's clock)
HANDOFF_ENV = "_LORESTACK_THIN_HANDOFF"
_handoff: tuple[str, float] | None = None
_argv: list[str] = []


def _full_cli(argv: list[str]) -> int:
    if SITE_COMMAND is not None:
        restart_with_site(argv, "cli", time.monotonic())
    from lorestack.cli.main import cli

    return cli.main(args=argv, prog_name="lorestack")


def restart_with_site(argv: list[str], reason: str, started: float,
                      stdin: bytes | None = None) -> None:
    """Replace this process (started without `site`) by the same command with it. `stdin`, when
    this process has read it, is handed on in an anonymous file in its place."""
    assert SITE_COMMAND is not None
    if stdin is not None:
        if hasattr(os, "memfd_create"):
            fd = os.memfd_create("lorestack-stdin")
        else:
            import tempfile

            fd = os.dup(tempfile.TemporaryFile().fileno())
        view = memoryview(stdin)
        while view:
            view = view[os.write(fd, view):]
        os.lseek(fd, 0, os.SEEK_SET)
        os.dup2(fd, 0)
        os.close(fd)
    os.environ[HANDOFF_ENV] = f"{reason}\t{started!r}"
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass
    os.execv(SITE_COMMAND[0], [*SITE_COMMAND, *argv])


def _take_handoff() -> tuple[str, float] | None:
    """The reason and start time a start without `site` handed on (removed from the
    environment: the service or a detached run started from here must not see it)."""
    value = os.environ.pop(HANDOFF_ENV, None)
    if not value:
        return None
    reason, _, started = value.partition("\t")
    try:
        return reason, float(started)
    except ValueError:
        return reason, time.monotonic()


def _split_root(argv: list[str]) -> tuple[str | None, list[str]] | None:
    """(--root value, rest) when argv is `[--root R] COMMAND …`; None for anything else."""
    root = None
    rest = list(argv)
    if rest and rest[0] == "--root" and len(rest) > 1:
        root, rest = rest[1], rest[2:]
    elif rest and rest[0].startswith("--root="):
        root, rest = rest[0].split("=", 1)[1], rest[1:]
    if not rest or rest[0].startswith("-"):
        return None
    if any(a in ("-h", "--help", "--version") for a in rest):
        return None
    return root, rest


def _hook_args(rest: list[str]) -> tuple[str, str] | None:
    """(event, client) for `hook EVENT [--client C]`, else None (the CLI reports the error).
    An empty client means the registry's default (resolved by whoever answers)."""
    if len(rest) < 2 or rest[1].startswith("-"):
        return None
    event, client, tail = rest[1], "", rest[2:]
    if tail[:1] == ["--client"] and len(tail) == 2:
        client = tail[1]
    elif len(tail) == 1 and tail[0].startswith("--client="):
        client = tail[0].split("=", 1)[1]
    elif tail:
        return None
    return event, client


def _stdin_is_piped() -> bool:
    stream = sys.stdin
    try:
        return stream is not None and not stream.closed and not stream.isatty()
    except (OSError, ValueError):
        return False


def _terminal() -> dict:
    """What decides colour, from this (the client's) side: whether stdout and stderr are
    terminals and whether NO_COLOR is set. The service writes into buffers, so it cannot see
    the caller's terminal itself."""

    def tty(stream) -> bool:
        try:
            return bool(stream is not None and stream.isatty())
        except (OSError, ValueError):
            return False

    return {"stdout": tty(sys.stdout), "stderr": tty(sys.stderr),
            "no_color": bool(os.environ.get("NO_COLOR"))}


def _read_stdin(strict: bool = True, payload: bool = False, limit: int | None = None,
                prefix: bool = False) -> str | None:
    """Piped stdin as text. Bytes that are not UTF-8 are handed to the full CLI, which refuses
    them with its one line (never a lossy decode handed on); a hook (`strict=False`) fails open.
    A hook's payload (`payload`) is read so that a client keeping stdin open cannot hold it
    (core/hook_stdin.py), one over `limit` bytes stands as a small one saying so (with
    `prefix`: as its first `limit` bytes); anything else is read to EOF."""
    if not _stdin_is_piped():
        return None
    try:
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is None:
            return sys.stdin.read()
        if payload:
            from lorestack.core.hook_stdin import read_payload

            raw = read_payload(buffer.fileno(), limit=limit, prefix=prefix)
        else:
            raw = buffer.read()
    except (OSError, ValueError):
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        if not strict:
            return raw.decode("utf-8", errors="replace")
        if SITE_COMMAND is not None:  # the error is the CLI's to word: it needs the install
            restart_with_site(_argv, "stdin", time.monotonic(), raw)
    # the command words its refusal (a check's is not a write's: exit 3; a check hook's exit 1)
    import io

    sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    os._exit(_full_cli(_argv) or 0)


def _leave(stdout: str, stderr: str = "", code: int = 0, after=None, sent=None,
           unsent=None) -> None:
    """Write the answer, flush, run `sent` once stdout is out (e.g. mark a notice told) or
    `unsent` when it could not be written (give its claim back), run `after` (e.g. start the
    service), and exit now."""
    try:
        try:
            if stdout:
                sys.stdout.write(stdout)
            sys.stdout.flush()
        except OSError:
            if unsent is not None:
                unsent()
            raise
        if sent is not None:
            sent()
        if stderr:
            sys.stderr.write(stderr)
        sys.stderr.flush()
    except OSError:
        pass
    if after is not None:
        try:
            after()
        except Exception:  # noqa: BLE001, S110 - starting the service is best effort
            pass
    os._exit(code)


def run_hook_thin(event: str, client_name: str, root: str | None, argv: list[str]) -> None:
    """Ask the service; in-process within what is left of the configured deadline otherwise.
    The deadline is never read here: the service acknowledges with it, and the in-process
    path reads it from the settings (`hooks.deadline_ms`, `hooks.prompt_deadline_ms`)."""
    from lorestack.core.hook_stdin import HOOK_PAYLOAD_MAX
    from lorestack.integrations.service import client

    started = _handoff[1] if _handoff else time.monotonic()
    stdin_text = _read_stdin(strict=False, payload=True, limit=HOOK_PAYLOAD_MAX) or ""
    root = root or os.environ.get("LORESTACK_ROOT") or None
    if _handoff:  # a start without `site` asked the service already
        reason = _handoff[0]
    else:
        reason = _ask_service(event, client_name, stdin_text, root)
        if SITE_COMMAND is not None:
            restart_with_site(argv, reason, started, stdin_text.encode("utf-8", "surrogatepass"))
    from lorestack.core.clients import DEFAULT_CLIENT
    from lorestack.integrations import hooks

    client_name = client_name or DEFAULT_CLIENT
    if reason == "usage" or client_name not in hooks.CLIENTS or event not in hooks.EVENTS:
        sys.exit(_full_cli(argv))  # a setup mistake: the CLI says so (exit 1)
    if event == "session-end":
        _leave(
            _end_without_service(event, client_name, stdin_text, root),
            after=lambda: client.after_failure(reason),
        )
    from lorestack.app.secret_notice import give_back, hand_on, told_after_reply
    from lorestack.integrations.hooks import log_failure, run_hook

    if reason not in ("absent", "stale"):
        log_failure(f"{event} ({client_name}): service did not answer ({reason}); in-process")
    held: list = []
    try:
        with told_after_reply() as held:  # a notice is told once stdout is flushed
            run = run_hook(event, client_name, stdin_text, root=root,
                           spent_ms=(time.monotonic() - started) * 1000)
        out = run.output
    except BaseException:  # noqa: BLE001 - a hook never breaks a session
        out, held = "", []
    _leave(out + "\n" if out else "", after=lambda: client.after_failure(reason),
           sent=lambda: hand_on(held), unsent=lambda: give_back(held))


def _ask_service(event: str, client_name: str, stdin_text: str, root: str | None) -> str:
    """Print the service's answer and leave; otherwise return why it did not answer."""
    from lorestack.integrations.service import client

    wait = END_WAIT_S if event == "session-end" else ACK_WAIT_S
    request = {
        "op": "hook",
        "event": event,
        "client": client_name,
        "stdin": stdin_text,
        "caller": client.caller(root),
    }
    try:
        reply = client.call(request, wait)
        out = reply.get("output") or ""
        _leave(out + "\n" if out else "")
    except client.Unavailable as exc:
        return exc.reason
    except Exception as exc:  # noqa: BLE001 - whatever went wrong, answer in-process
        return f"error {type(exc).__name__}"
    return "left"  # not reached: `_leave` exits


def _end_without_service(event: str, client_name: str, stdin_text: str, root: str | None) -> str:
    """Hand the payload to a detached in-process run (it queues extraction) and answer now."""
    import subprocess
    import tempfile

    env = {**os.environ, "LORESTACK_SERVICE__ENABLED": "false"}
    if root:
        env["LORESTACK_ROOT"] = root
    try:
        with tempfile.TemporaryFile() as payload:
            payload.write(stdin_text.encode("utf-8", "surrogatepass"))
            payload.seek(0)
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "lorestack.launcher",
                    "hook",
                    event,
                    "--client",
                    client_name,
                ],
                stdin=payload,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                close_fds=True,
                start_new_session=True,
                env=env,
            )
    except OSError:
        pass
    from lorestack.integrations.hooks import fail_open_output

    out = fail_open_output(client_name, event)
    return out + "\n" if out else ""


def run_command_thin(root: str | None, rest: list[str]) -> None:
    """Forward a read/write command to the service; in-process on any failure."""
    from lorestack.core.hook_stdin import HOOK_PAYLOAD_MAX
    from lorestack.integrations.service import client

    argv = list(rest)
    root = root or os.environ.get("LORESTACK_ROOT") or None
    if root:
        argv = ["--root", root, *argv]
    hook = any(a == "--hook" or a.startswith("--hook=") for a in rest)
    # a guardrail hook reads what a hook reads; a longer tool call is judged on its start
    cap: dict = {"limit": HOOK_PAYLOAD_MAX, "prefix": True} if hook else {}
    stdin_text = _read_stdin(payload=hook, **cap) if "-" in rest or hook else None
    request: dict = {
        "op": "cli",
        "argv": argv,
        "caller": client.caller(root),
        "stdin": stdin_text,
        "stdin_piped": _stdin_is_piped() if stdin_text is None else True,
        "terminal": _terminal(),
    }
    reason = _handoff[0] if _handoff else "absent"
    for _attempt in range(0 if _handoff else 2):
        try:
            reply = client.call(request, CLI_WAIT_S)
            _leave(reply.get("stdout", ""), reply.get("stderr", ""), int(reply.get("code", 0)))
        except client.Unavailable as exc:
            reason = exc.reason
            if reason == "needs-stdin" and request["stdin"] is None:
                request["stdin"] = _read_stdin(payload=hook, **cap) or ""
                continue
            break
        except Exception as exc:  # noqa: BLE001 - run it here instead
            reason = f"error {type(exc).__name__}"
            break
    if SITE_COMMAND is not None:
        given = request["stdin"]
        restart_with_site(_argv, reason, time.monotonic(),
                          None if given is None else given.encode("utf-8", "surrogatepass"))
    client.after_failure(reason)
    if request["stdin"] is not None:
        import io

        sys.stdin = io.StringIO(request["stdin"])
    code = _full_cli(argv)
    sys.stdout.flush()
    os._exit(code or 0)


def main(argv: list[str] | None = None) -> int:
    global _handoff, _argv
    argv = sys.argv[1:] if argv is None else argv
    _argv = list(argv)
    _handoff = _take_handoff()
    from lorestack.core import legacy
    from lorestack.integrations.service import protocol

    if _handoff is None:  # a restart with `site`: the start without it migrated already
        legacy.migrate()

    plan = _split_root(argv) if protocol.service_enabled() else None
    if plan is not None:
        root, rest = plan
        if rest[0] == "hook":
            hook = _hook_args(rest)
            if hook is not None:
                run_hook_thin(hook[0], hook[1], root, argv)
        elif rest[0] in THIN_COMMANDS and not any(
            a == o or a.startswith(o + "=") for a in rest for o in _LOCAL_ONLY
        ):
            run_command_thin(root, rest)
    return _full_cli(argv)


if __name__ == "__main__":
    sys.exit(main())
