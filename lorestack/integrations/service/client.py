"""The thin client: ask the service, start it when it is not there. Standard library only.

`call` sends one request and returns the service's reply, or raises `Unavailable` with a
short reason (absent, stale, timeout, version, unsafe, refused, broken) so the caller can
answer in-process instead. Every request carries the caller (folder, root, LORESTACK_*
environment): the service answers with the caller's settings, whatever its own are. `start` launches the service detached, in its own session,
with its output going to a log file in the runtime directory; its lock makes sure only one
of several racing starts keeps running.
"""

from __future__ import annotations

import _socket  # the C module: `socket` imports enum and selectors, ~4 ms of every hook's start
import os
import sys
import time

from lorestack.integrations.service import protocol

TYPE_CHECKING = False  # imported by every hook: no pathlib nor typing on the way to the answer
if TYPE_CHECKING:
    from pathlib import Path

_START_MARKER = "starting"
_START_GRACE_S = 10.0
_ACK_MARGIN_S = 0.5  # past the service's promised deadline: it answers with what is ready


class Unavailable(Exception):
    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


def _connect(timeout: float) -> _socket.socket:
    try:
        directory = protocol.private_dir_str(create=False)
        path = protocol.socket_path_str(directory)
        if not os.path.lexists(path):
            raise Unavailable("absent")
        protocol.check_private(path, want_dir=False)
    except FileNotFoundError as exc:
        raise Unavailable("absent") from exc
    except protocol.UnsafeRuntimeDir as exc:
        raise Unavailable("unsafe", str(exc)) from exc
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    sock.settimeout(max(0.001, timeout))
    try:
        sock.connect(str(path))
    except (ConnectionRefusedError, FileNotFoundError) as exc:
        sock.close()
        raise Unavailable("stale", "socket file without a service") from exc
    except OSError as exc:
        sock.close()
        raise Unavailable("refused", str(exc)) from exc
    return sock


def caller(root: str | None = None) -> dict:
    """This process as a caller: its folder, the root it names and its settings overlay."""
    return {"cwd": os.getcwd(), "root": root, "env": protocol.caller_env()}


def call(request: dict, timeout: float, *, with_caller: bool = True,
         check_env: bool | None = None) -> dict:
    """Send `request` (op + fields) and wait at most `timeout` seconds for the reply; an
    acknowledgement from the service (`wait_ms`) extends the wait to what it promised.
    (`check_env=False` is the former spelling of `with_caller=False`.)"""
    if check_env is False:
        with_caller = False
    deadline = time.monotonic() + timeout
    message = {"version": protocol.VERSION, **request}
    if with_caller and "caller" not in message:
        message["caller"] = caller()
    sock = _connect(timeout)
    try:
        sock.sendall(protocol.encode(message))
        sock.shutdown(_socket.SHUT_WR)
        reader = protocol.LineReader(sock, protocol.MAX_REPLY)
        parts = protocol.Parts()  # a reply over MAX_REPLY comes in parts
        while True:
            sock.settimeout(max(0.001, deadline - time.monotonic()))
            reply = reader.next()
            if "part" in reply:
                whole = parts.add(reply)
                if whole is None:
                    continue
                reply = whole
            if not reply.get("ack"):
                break
            deadline = time.monotonic() + float(reply.get("wait_ms") or 0) / 1000 + _ACK_MARGIN_S
    except TimeoutError as exc:
        raise Unavailable("timeout") from exc
    except (OSError, protocol.ProtocolError) as exc:
        raise Unavailable("broken", str(exc)) from exc  # e.g. the service died mid-request
    finally:
        sock.close()
    if not reply.get("ok"):
        raise Unavailable(str(reply.get("error") or "refused"), str(reply.get("message") or ""))
    return reply


def log_path() -> Path:
    return protocol.runtime_dir() / protocol.LOG_NAME


def start(*, force: bool = False) -> bool:
    """Launch `lorestack serve --foreground` detached; False when one was launched just now."""
    try:
        directory = protocol.private_dir(create=True)
    except (OSError, protocol.UnsafeRuntimeDir):
        return False
    marker = directory / _START_MARKER
    try:
        if not force and time.time() - os.stat(marker).st_mtime < _START_GRACE_S:
            return False
    except OSError:
        pass
    import subprocess

    try:
        marker.touch()
        env = {k: v for k, v in os.environ.items() if k != "LORESTACK_ROOT"}
        with open(directory / protocol.LOG_NAME, "ab") as log:
            os.chmod(directory / protocol.LOG_NAME, 0o600)
            subprocess.Popen(
                [sys.executable, "-m", "lorestack.launcher", "serve", "--foreground"],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                close_fds=True,
                start_new_session=True,
                cwd="/",
                env=env,
            )
    except OSError:
        return False
    return True


def restart_mismatched() -> None:
    """The running service has another version: ask it to stop, then start ours."""
    try:
        call({"op": "stop"}, 2.0, with_caller=False)
    except Unavailable:
        pass
    start(force=True)


def after_failure(reason: str) -> None:
    """What a failed call means for next time: start (or replace) the service."""
    if reason in ("absent", "stale"):
        start()
    elif reason == "version":
        restart_mismatched()


def wait_until_gone(pid: int | None, timeout: float) -> bool:
    """Poll until process `pid` has exited (bounded): a stopped service may still answer for
    a moment while it shuts down (a viewer it served closes first)."""
    if not pid:
        return True
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:  # not ours to signal: it is alive
            pass
        time.sleep(0.05)
    return False


def wait_until_up(timeout: float) -> bool:
    """Poll until the service answers a ping (bounded; for `serve`, tests and benchmarks)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            call({"op": "ping"}, 1.0, with_caller=False)
            return True
        except Unavailable:
            time.sleep(0.05)
    return False
