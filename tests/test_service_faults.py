"""Faults around the service: the hook still answers in the client's format, nothing is lost."""

from __future__ import annotations

import errno
import json
import os
import signal
import socket
import subprocess
import sys
import threading

import pytest

from lorestack.integrations.service import client, protocol
from tests import service_helpers
from tests.conftest import run_cli
from tests.service_helpers import (
    alive,
    context_of,
    hook,
    poll,
    start_service,
    status,
)

PROMPT = {"session_id": "f1", "prompt": "how should a refund be written to the database?"}

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture


_SESSIONS = iter(range(10**6))


def _prompt(repo, **kw):
    """A prompt in a new session each time (a session is never shown the same item twice)."""
    session = f"f{next(_SESSIONS)}"
    return hook("prompt", {**PROMPT, "session_id": session, "cwd": str(repo)}, repo, **kw)


def test_stale_socket_file_is_replaced(stocked, run_dir):
    protocol.private_dir(create=True)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(run_dir / "service.sock"))
    dead.close()  # the file stays, nobody listens: a service that was killed
    os.chmod(run_dir / "service.sock", 0o600)
    with pytest.raises(client.Unavailable) as info:
        client.call({"op": "ping"}, 2.0)
    assert info.value.reason == "stale"
    assert "ledger service" in context_of(_prompt(stocked))  # answered in-process
    assert poll(lambda: status().get("pid")), "no service after a stale socket"


def _has_socket(pid: int) -> bool:
    try:
        return any(
            os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:")
            for fd in os.listdir(f"/proc/{pid}/fd")
        )
    except OSError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to see the connection")
def test_service_killed_mid_request_still_answers(stocked, run_dir):
    pid = start_service(stocked)
    os.kill(pid, signal.SIGSTOP)  # accepts nothing from now on: the request stays in flight
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "lorestack.cli", "hook", "prompt"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=stocked,
        )
        proc.stdin.write(json.dumps({**PROMPT, "cwd": str(stocked)}))
        proc.stdin.close()
        assert poll(lambda: _has_socket(proc.pid)), "the hook never connected"
    finally:
        os.kill(pid, signal.SIGKILL)
    out = proc.stdout.read()
    assert proc.wait(timeout=180) == 0
    assert "ledger service" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert poll(lambda: not alive(pid))


def test_two_services_started_at_once_leave_one(stocked, run_dir):
    protocol.private_dir(create=True)
    command = [sys.executable, "-m", "lorestack.cli", "serve", "--foreground"]
    procs = [
        subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=stocked
        )
        for _ in range(2)
    ]
    try:
        assert poll(lambda: any(p.poll() is not None for p in procs), bound=120)
        done = [p for p in procs if p.poll() is not None]
        running = [p for p in procs if p.poll() is None]
        assert len(done) == 1 and len(running) == 1
        assert done[0].returncode == 0 and "already running" in done[0].stderr.read()
        assert poll(lambda: status().get("pid") == running[0].pid)
    finally:
        for p in procs:
            if p.poll() is None:
                p.terminate()
                p.wait(timeout=60)


def _thread_service(run_dir, **kw):
    from lorestack.integrations.service.server import Service

    service = Service(protocol.private_dir(create=True), watch=False, **kw)
    service.bind()
    thread = threading.Thread(target=service.serve_forever, daemon=True)
    thread.start()
    return service, thread


def test_version_mismatch_replaces_the_service(stocked, run_dir):
    old, thread = _thread_service(run_dir, version="0.0.1+p0")
    assert "ledger service" in context_of(_prompt(stocked))  # answered in-process meanwhile
    thread.join(60)
    assert not thread.is_alive(), "the old service was not asked to stop"
    assert poll(lambda: status().get("version") == protocol.VERSION)
    assert status()["pid"] != os.getpid()


def test_loose_or_foreign_runtime_dir_is_refused(stocked, run_dir):
    protocol.private_dir(create=True)
    os.chmod(run_dir, 0o777)
    try:
        assert "ledger service" in context_of(_prompt(stocked))  # still answers, in-process
        shown = run_cli("serve", "--status", cwd=stocked)
        assert shown.returncode == 1 and "must be private" in shown.stderr
        assert len(shown.stderr.strip().splitlines()) == 1
        fg = run_cli("serve", "--foreground", cwd=stocked)
        assert fg.returncode == 1 and "refusing" in fg.stderr and "Traceback" not in fg.stderr
        assert not (run_dir / "service.sock").exists()
    finally:
        os.chmod(run_dir, 0o700)
    if os.geteuid() == 0:  # ownership can only be simulated as root
        os.chown(run_dir, 65534, -1)
        try:
            with pytest.raises(protocol.UnsafeRuntimeDir, match="owned by uid 65534"):
                protocol.private_dir(create=False)
            assert "ledger service" in context_of(_prompt(stocked))
        finally:
            os.chown(run_dir, 0, -1)


def test_loose_socket_is_refused(stocked, run_dir):
    start_service(stocked)
    os.chmod(run_dir / "service.sock", 0o666)
    try:
        with pytest.raises(client.Unavailable) as info:
            client.call({"op": "ping"}, 2.0)
        assert info.value.reason == "unsafe" and "chmod 600" in info.value.detail
        assert "ledger service" in context_of(_prompt(stocked))
    finally:
        os.chmod(run_dir / "service.sock", 0o600)


def _raw(run_dir, data: bytes) -> dict:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(60)
    sock.connect(str(run_dir / "service.sock"))
    try:
        sock.sendall(data)
        sock.shutdown(socket.SHUT_WR)
    except OSError:
        pass  # the service stopped reading an oversized request; its reply is still there
    try:
        return protocol.read_message(sock, protocol.MAX_REPLY)
    finally:
        sock.close()


def test_malformed_and_oversized_requests_get_an_error_reply(stocked, run_dir):
    start_service(stocked)
    for data in (
        b"not json\n",
        b"[1, 2]\n",
        b'{"op": "fly"',
        b"\xff\xfe\n",
        b"x" * (protocol.MAX_REQUEST + 10),
    ):
        reply = _raw(run_dir, data)
        assert reply["ok"] is False and reply["error"] == "bad-request", data[:20]
    unknown = _raw(run_dir, protocol.encode({"op": "fly", "version": protocol.VERSION}))
    assert unknown["error"] == "bad-request" and "unknown op" in unknown["message"]
    assert client.call({"op": "ping"}, 10.0)["ok"]  # still serving


def test_memory_folder_deleted_while_watched(stocked, run_dir):
    import shutil

    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember

    start_service(stocked)
    assert "ledger service" in context_of(_prompt(stocked))
    root = str(stocked / ".memory")
    assert root in status()["watching"]
    def remove() -> bool:  # the watcher may still be writing the index while we delete
        shutil.rmtree(stocked / ".memory", ignore_errors=True)
        return not (stocked / ".memory").exists()

    assert poll(remove)
    assert poll(lambda: root not in status().get("watching", [root]))
    gone = hook("session-start", {"session_id": "g1", "cwd": str(stocked)}, stocked)
    assert gone.returncode == 0 and "ledger" not in gone.stdout
    Memory.init(stocked)
    remember(Memory.open(stocked), "Never deploy the billing worker by hand", "caveat")
    back = hook("session-start", {"session_id": "g2", "cwd": str(stocked)}, stocked)
    assert "billing worker by hand" in context_of(back)


def test_full_disk_during_extraction_loses_nothing(stocked, run_dir, monkeypatch):
    from lorestack.integrations.service import warm
    from lorestack.memory_layers import journal, store

    failures = {"left": 2}

    def failing(real):
        def write(*args, **kw):
            if failures["left"] > 0:
                failures["left"] -= 1
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(*args, **kw)

        return write

    monkeypatch.setattr(journal, "append_durable", failing(journal.append_durable))
    monkeypatch.setattr(store, "write_atomic", failing(store.write_atomic))
    runs = []
    real_run = warm.run_extraction
    monkeypatch.setattr(
        "lorestack.integrations.service.server.run_extraction",
        lambda job: (runs.append(job.key), real_run(job)),
    )
    service, thread = _thread_service(run_dir, retry_pauses=(0.01,))
    try:
        transcript = stocked / "t.jsonl"
        said = [
            "we decided to keep the invoices in Postgres",
            "remember that staging resets nightly",
        ]
        transcript.write_text(
            "".join(
                json.dumps(
                    {
                        "type": "user",
                        "sessionId": "d1",
                        "message": {"role": "user", "content": text},
                    }
                )
                + "\n"
                for text in said
            )
        )
        payload = json.dumps(
            {
                "session_id": "d1",
                "cwd": str(stocked),
                "transcript_path": str(transcript),
                "hook_event_name": "SessionEnd",
            }
        )
        reply = client.call(
            {
                "op": "hook",
                "event": "session-end",
                "client": "claude-code",
                "stdin": payload,
                "cwd": str(stocked),
            },
            30.0,
        )
        assert reply["output"] == ""
        assert service.jobs.wait_idle(120)
    finally:
        service.stop()
        thread.join(60)
    assert failures["left"] == 0 and len(runs) >= 2  # failed, then retried
    text = "".join(p.read_text() for p in (stocked / ".memory").rglob("*.md"))
    assert "keep the invoices in Postgres" in text and "staging resets nightly" in text
    assert text.count("keep the invoices in Postgres") == 1


def test_a_failed_warm_up_is_reported_in_status_not_waited_for(tmp_path):
    """A project whose loader warm-up fails says so under `prepared` (a bench waiting for the
    warm-up stops waiting), and a later open does not try again behind every request."""
    import time
    from types import SimpleNamespace

    from lorestack.integrations.service.warm import WarmMemories

    logged: list[str] = []
    warm = WarmMemories(SimpleNamespace(on_open=None), log=logged.append, watch=False)
    # not a Memory: the loader's cache cannot be built from it
    broken = SimpleNamespace(primary=SimpleNamespace(root=tmp_path / ".memory"))
    warm._warm_loader(broken)
    key = str(tmp_path / ".memory")
    deadline = time.monotonic() + 60
    while key not in warm.prepared() and time.monotonic() < deadline:
        time.sleep(0.05)
    entry = warm.prepared()[key]
    assert set(entry) == {"failed"} and "Error" in entry["failed"]
    assert warm.warming() == []  # ended, though failed: a bench waiting for it stops waiting
    assert any(key in line and entry["failed"] in line for line in logged)
    warm._warm_loader(broken)  # once per memory: no second attempt, the entry stays
    assert warm.prepared()[key] == entry
