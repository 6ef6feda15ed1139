"""The service process: a private Unix socket, one request per connection, idle exit.

Start-up takes an exclusive lock in the runtime directory (a second service started at the
same moment exits at once), removes a socket file left by a killed service, binds a new
socket readable only by the user, and serves until `stop`, SIGTERM, or `idle_exit_s` without
requests or jobs. Requests from another version are refused with `version` (the client then
replaces the service). Each request is answered as its caller (folder, root, LORESTACK_*
environment: `core.overlay`), by a worker from a fixed pool: reads of one project run
together, writes to one project one at a time (`warm.WarmMemories.access`). Operations are
the application layer's (`call`: a typed request as JSON; `hook`: a client hook event);
`cli` runs a forwarded command line through the runner the CLI layer hands in.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from lorestack.integrations.service import protocol
from lorestack.integrations.service.jobs import ExtractionQueue
from lorestack.integrations.service.process import (
    _fixed_mmap_threshold,
    _malloc_trim,
    _rss_mb,
    _same_user,
)
from lorestack.integrations.service.warm import WarmMemories, queue_session_end, run_extraction
from lorestack.retrieval.pool import IndexPool, install

CliRunner = Callable[[dict], dict]
WORKERS = 8  # requests answered at once; more wait in the queue
WRITE_COMMANDS = ("remember", "log")  # forwarded command lines that write


class AlreadyRunning(Exception):
    pass


class Service:
    def __init__(
        self,
        directory: Path,
        *,
        idle_exit_s: float = 1800.0,
        run_cli: CliRunner | None = None,
        version: str = protocol.VERSION,
        watch: bool = True,
        retry_pauses=None,
    ):
        self.directory = directory
        self.idle_exit_s = idle_exit_s
        self.run_cli = run_cli
        self.version = version
        self.started = time.time()
        self.last_activity = time.monotonic()
        self.requests = 0
        self.answered = 0  # hook and command requests served (not refused)
        self._inflight = 0
        self._trimmed_at = 0.0
        self._count_lock = threading.Lock()
        self._stop = threading.Event()
        self._lock_fd: int | None = None
        self._sock: socket.socket | None = None
        self._sock_ino: int | None = None
        self.pool = IndexPool()
        self.warm = WarmMemories(self.pool, log=self.log, watch=watch)

        self._workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="lorestack-request")
        self._viewers: dict[str, Any] = {}  # memory root -> the ViewerServer serving it
        self._viewers_lock = threading.Lock()

        def run(job):
            with self.warm.access(job.root, "write"):
                run_extraction(job)

        kwargs = {"pauses": retry_pauses} if retry_pauses else {}
        self.jobs = ExtractionQueue(run, state_file=directory / "jobs.json", log=self.log, **kwargs)

    # ---- lifecycle ----------------------------------------------------------------------
    def log(self, message: str) -> None:
        """One line in service.log, redacted as hooks.log is: a line can quote a transcript's
        path or an error, either of which can hold a key."""
        from lorestack.memory_layers.secret_guard import redact_for_reading

        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        try:
            message = redact_for_reading(message)[0]
        except Exception:  # noqa: BLE001 - the redaction failed: say so rather than quote it
            message = "(a line not shown: its redaction failed)"
        print(f"{stamp} [{os.getpid()}] {message}", file=sys.stderr, flush=True)

    def bind(self, wait_s: float = 5.0) -> None:
        """Lock, clear a stale socket, bind 0600. AlreadyRunning when another keeps the lock
        for `wait_s` (a service being replaced releases it within that time)."""
        protocol.check_private(self.directory, want_dir=True)
        path = protocol.socket_path(self.directory)
        fd = os.open(self.directory / protocol.LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError as exc:
                if time.monotonic() >= deadline:
                    os.close(fd)
                    raise AlreadyRunning(
                        f"a lorestack service is already running in {self.directory}"
                    ) from exc
                time.sleep(0.1)
        self._lock_fd = fd
        if os.path.lexists(path):
            os.unlink(path)  # we hold the lock: whoever made it is dead
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(str(path))
        finally:
            os.umask(old)
        os.chmod(path, 0o600)
        sock.listen(64)
        sock.settimeout(0.5)
        self._sock = sock
        self._sock_ino = os.stat(path).st_ino
        info = {
            "pid": os.getpid(),
            "version": self.version,
            "socket": str(path),
            "started": self.started,
        }
        (self.directory / protocol.INFO_NAME).write_text(json.dumps(info), "utf-8")
        (self.directory / "starting").unlink(missing_ok=True)

    def serve_forever(self) -> None:
        from lorestack.memory_layers import parse_cache

        assert self._sock is not None, "bind() first"
        install(self.pool)
        parse_cache.enable(True)
        from lorestack.retrieval import embedding

        embedding.use_threads(1)  # one short query per prompt; prompts together side by side
        _fixed_mmap_threshold()  # what a sync needed goes back to the system after it
        self.jobs.start()
        self.log(f"serving {self.version} on {self._sock.getsockname() if self._sock else '?'}")
        try:
            while not self._stop.is_set():
                try:
                    conn, _addr = self._sock.accept()
                except TimeoutError:
                    self._trim()
                    if self._idle():
                        self.log(f"idle for {self.idle_exit_s:.0f}s; exiting")
                        break
                    continue
                except OSError:
                    if self._stop.is_set():
                        break
                    raise
                with self._count_lock:
                    self._inflight += 1
                    self.last_activity = time.monotonic()
                self._workers.submit(self._handle, conn)
        finally:
            self.close()

    def _trim(self) -> None:
        """Once quiet after requests, give freed heap back to the system (glibc's
        malloc_trim): an index sync or a burst of prompts leaves hundreds of MB free but
        still counted as the service's resident memory."""
        with self._count_lock:
            quiet = self._inflight == 0 and time.monotonic() - self.last_activity > 1.0
            due = quiet and self._trimmed_at < self.last_activity and not self.jobs.busy
            if due:
                self._trimmed_at = time.monotonic()
        if due:
            _malloc_trim()

    def _idle(self) -> bool:
        with self._count_lock:
            quiet = self._inflight == 0 and time.monotonic() - self.last_activity > self.idle_exit_s
        return quiet and not self.jobs.busy

    def stop(self) -> None:
        self._stop.set()

    def close(self) -> None:
        with self._viewers_lock:
            for viewer in self._viewers.values():
                viewer.stop()
            self._viewers.clear()
        self._workers.shutdown(wait=False, cancel_futures=True)
        self.jobs.stop()
        self.warm.close()
        install(None)
        from lorestack.memory_layers import parse_cache

        parse_cache.enable(False)
        from lorestack.retrieval import embedding

        embedding.use_threads(None)
        path = self.directory / protocol.SOCKET_NAME
        try:  # only our own socket: a newer service may have replaced it
            if self._sock_ino is not None and os.stat(path).st_ino == self._sock_ino:
                path.unlink()
                (self.directory / protocol.INFO_NAME).unlink(missing_ok=True)
        except OSError:
            pass
        if self._sock is not None:
            self._sock.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # ---- requests -----------------------------------------------------------------------
    def _handle(self, conn: socket.socket) -> None:
        from lorestack.app.secret_notice import give_back, hand_on, told_after_reply

        held: list = []
        try:
            conn.settimeout(10)
            try:
                if not _same_user(conn):
                    raise PermissionError("connection from another user refused")
                request = protocol.read_message(conn, protocol.MAX_REQUEST)

                def ack(wait_ms: float) -> None:
                    conn.sendall(protocol.encode({"ack": True, "wait_ms": int(wait_ms)}))

                # a notice in the reply is marked told once the reply is sent (below); the
                # thin client's own write to its stdout is the window left
                with told_after_reply() as held:
                    reply = self.dispatch(request, ack)
            except PermissionError as exc:
                reply = {"ok": False, "error": "forbidden", "message": str(exc)}
            except protocol.ProtocolError as exc:
                reply = {"ok": False, "error": "bad-request", "message": str(exc)}
            except Exception as exc:  # noqa: BLE001 - one bad request never ends the service
                self.log(f"request failed: {type(exc).__name__}: {exc}")
                reply = {"ok": False, "error": "failed", "message": f"{type(exc).__name__}: {exc}"}
                give_back(held)  # no notice went out: the caller answers in-process, tells it
            conn.settimeout(30)
            for line in protocol.reply_lines(reply):  # a reply over the cap in parts
                conn.sendall(line)
            hand_on(held)
        except OSError:
            give_back(held)  # the client left (its own deadline); nothing to answer
        finally:
            conn.close()
            with self._count_lock:
                self._inflight -= 1
                self.last_activity = time.monotonic()

    def status(self) -> dict:
        return {
            "pid": os.getpid(),
            "version": self.version,
            "uptime_s": round(time.time() - self.started, 1),
            "requests": self.requests,
            "answered": self.answered,
            "rss_mb": _rss_mb(),
            "projects": self.warm.projects(),
            "settings_cached": self.warm.overlays(),
            "prepared": self.warm.prepared(),
            "warming": self.warm.warming(),
            "viewers": {root: v.started.base for root, v in self._viewers.items()},
            "workers": WORKERS,
            "watching": self.warm.watcher.watching() if self.warm.watcher else [],
            "jobs": self.jobs.snapshot(),
            "idle_exit_s": self.idle_exit_s,
            "socket": str(self.directory / protocol.SOCKET_NAME),
        }

    def dispatch(self, request: dict, ack: Callable[[float], None] = lambda _ms: None) -> dict:
        op = request.get("op")
        self.requests += 1
        if op == "ping":
            return {"ok": True, "version": self.version, "pid": os.getpid()}
        if op == "status":
            return {"ok": True, **self.status()}
        if op == "stop":
            self.stop()
            return {"ok": True, "pid": os.getpid()}
        if request.get("version") != self.version:
            return {
                "ok": False,
                "error": "version",
                "message": f"service runs {self.version}, caller {request.get('version')}",
            }
        given = request.get("caller")
        caller: dict = given if isinstance(given, dict) else {}
        env = caller.get("env") if isinstance(caller.get("env"), dict) else None
        cwd = caller.get("cwd") if isinstance(caller.get("cwd"), str) else None
        from lorestack.core.overlay import caller as as_caller

        with as_caller(env, cwd):
            if op == "hook":
                return self._hook(request, caller, ack)
            if op == "call":
                return self._call(request, caller)
            if op == "cli":
                return self._cli(request, caller)
            if op == "ui":
                return self._ui(request, caller)
        return {"ok": False, "error": "bad-request", "message": f"unknown op {op!r}"}

    def _hook(self, request: dict, caller: dict, ack: Callable[[float], None]) -> dict:
        from lorestack.app import events, hooks
        from lorestack.app.models import HookRequest
        from lorestack.core.clients import DEFAULT_CLIENT

        event = str(request.get("event") or "")
        client_name = str(request.get("client") or DEFAULT_CLIENT)
        if client_name not in hooks.CLIENTS or event not in hooks.EVENTS:
            return {"ok": False, "error": "usage",
                    "message": f"unknown hook {event!r} / {client_name!r}"}
        stdin_text = str(request.get("stdin") or "")
        root = caller.get("root") or None
        if event == "session-end":
            self.answered += 1
            return {"ok": True, "output": queue_session_end(
                self.warm, self.jobs, event, client_name, stdin_text, root, caller.get("cwd"))}
        hook_request = HookRequest.model_validate(
            {"caller": caller, "event": event, "client": client_name, "stdin": stdin_text})
        ack(events.deadline_ms(hook_request))
        key = self.warm.project_key(hook_request.caller.cwd, root)
        self.warm.catch_up(key)  # a file saved by hand a moment ago, before the watcher
        with self.warm.access(key, "read"):
            answer = events.hook(hook_request, self.warm.opener)
        self.answered += 1
        # the hook's own `ok`/`error` describe its run, not whether the service answered
        return {**answer.model_dump(mode="json"), "ok": True}

    def _call(self, request: dict, caller: dict) -> dict:
        from lorestack import app
        from lorestack.core.errors import LorestackError

        payload = request.get("request")
        if not isinstance(payload, dict):
            return {"ok": False, "error": "bad-request", "message": "request must be an object"}
        try:
            op, typed = app.parse(str(request.get("operation") or ""), {**payload, "caller": caller})
        except ValueError as exc:
            return {"ok": False, "error": "bad-request", "message": str(exc)}
        key = self.warm.project_key(typed.caller.cwd, typed.caller.root)
        self.warm.catch_up(key)
        try:
            with self.warm.access(key, op.access):
                response = op.run(typed, self.warm.opener)
        except LorestackError as exc:  # the operation's answer, not the service's failure
            self.answered += 1
            return {"ok": True, "failed": {"type": type(exc).__name__, "message": str(exc),
                                           "exit_code": exc.exit_code}}
        self.answered += 1
        return {"ok": True, "response": response.model_dump(mode="json")}

    def _ui(self, request: dict, caller: dict) -> dict:
        """Open (or reuse) the viewer for the caller's memory, served from this process on
        127.0.0.1 with its own token; its requests count as activity for the idle exit."""
        from lorestack.app.models import Caller
        from lorestack.integrations.viewer.server import ViewerServer

        who = Caller.model_validate(caller)
        mem = self.warm.opener(who, False)
        key = str(mem.primary.root)
        asked = request.get("port")
        port: int = asked if isinstance(asked, int) else 0
        with self._viewers_lock:
            viewer = self._viewers.get(key)
            if viewer is not None and (not port or viewer.port == port):
                started = viewer.started
            else:
                if viewer is not None:
                    viewer.stop()
                viewer = ViewerServer(mem, port=port)
                inner = viewer.server.config.app

                async def touching(scope, receive, send):
                    self.last_activity = time.monotonic()
                    await inner(scope, receive, send)

                viewer.server.config.app = touching
                started = viewer.start()
                self._viewers[key] = viewer
        self.answered += 1
        return {"ok": True, "url": started.url, "port": started.port, "root": key}

    def _cli(self, request: dict, caller: dict) -> dict:
        if self.run_cli is None:
            return {"ok": False, "error": "unsupported", "message": "no command runner"}
        argv = request.get("argv")
        if not isinstance(argv, list):
            return {"ok": False, "error": "bad-request", "message": "argv must be a list"}
        key = self.warm.project_key(caller.get("cwd"), caller.get("root"))
        command = next((str(a) for a in argv if not str(a).startswith("-")
                        and str(a) != caller.get("root")), "")
        self.warm.catch_up(key)
        with self.warm.access(key, "write" if command in WRITE_COMMANDS else "read"):
            reply = self.run_cli(request)
        self.answered += 1 if reply.get("ok") else 0
        return reply


def run_service(*, idle_exit_s: float, run_cli: CliRunner | None = None) -> int:
    """`lorestack serve --foreground`: serve until stopped or idle; 0 also when one already runs."""
    directory = protocol.private_dir(create=True)
    # each request names its project; the first caller's LORESTACK_ROOT must not become ours
    os.environ.pop("LORESTACK_ROOT", None)
    service = Service(directory, idle_exit_s=idle_exit_s, run_cli=run_cli)
    try:
        service.bind()
    except AlreadyRunning as exc:
        print(f"lorestack: {exc}", file=sys.stderr)
        return 0
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda *_a: service.stop())
    service.serve_forever()
    return 0
