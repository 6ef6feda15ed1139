"""Shared by the service tests: a private short runtime dir, a store, bounded polling."""

from __future__ import annotations

import json
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import run_cli

BOUND_S = 90  # generous bound for "the service is up" on a loaded machine
NO_DEADLINE = {
    "LORESTACK_HOOKS__DEADLINE_MS": "120000",
    "LORESTACK_HOOKS__PROMPT_DEADLINE_MS": "120000",
}


def poll(predicate, bound: float = BOUND_S, step: float = 0.05):
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


def service_pid(run_dir: Path) -> int | None:
    try:
        return int(json.loads((run_dir / "service.json").read_text())["pid"])
    except (OSError, ValueError, KeyError):
        return None


def alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (our own child) counts as gone
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


@pytest.fixture
def run_dir(monkeypatch):
    """Service on, in a short private folder (Unix socket paths are limited to ~104 bytes)."""
    folder = Path(tempfile.mkdtemp(prefix="ms-", dir="/tmp")) / "run"
    monkeypatch.setenv("LORESTACK_SERVICE__ENABLED", "true")
    monkeypatch.setenv("LORESTACK_SERVICE__RUNTIME_DIR", str(folder))
    for name, value in NO_DEADLINE.items():  # one environment for service and callers
        monkeypatch.setenv(name, value)
    yield folder
    stop_service(folder)
    shutil.rmtree(folder.parent, ignore_errors=True)


def stop_service(folder: Path) -> None:
    from lorestack.integrations.service import client

    pids = {service_pid(folder)}
    try:
        pids.add(client.call({"op": "stop"}, 5.0, with_caller=False).get("pid"))
    except client.Unavailable:
        pass
    for pid in filter(None, pids):
        if not poll(lambda p=pid: not alive(p), bound=20):
            os.kill(pid, signal.SIGKILL)


def start_service(cwd: Path) -> int:
    proc = run_cli("serve", "--json", cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return int(json.loads(proc.stdout)["pid"])


def status() -> dict:
    from lorestack.integrations.service import client

    try:
        return client.call({"op": "status"}, 10.0, with_caller=False)
    except client.Unavailable:
        return {}


def hook(
    event: str, payload: dict, cwd: Path, env: dict | None = None, client: str = "claude-code"
):
    return run_cli("hook", event, "--client", client, input=json.dumps(payload), cwd=cwd, env=env)


def context_of(proc) -> str:
    out = proc.stdout.strip()
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


@pytest.fixture
def stocked(repo):
    """A project with one decision, one caveat, and a built index."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember
    from lorestack.retrieval.index import MemoryIndex

    mem = Memory.open(repo)
    remember(
        mem, "Refunds are written through the ledger service, never with direct SQL", "decision"
    )
    remember(mem, "Never run migrations on Friday afternoons", "caveat")
    index = MemoryIndex(mem, warn=lambda _m: None)
    index.sync()
    index.close()
    return repo


def served_prompt(service, repo: Path, session: str, prompt: str) -> dict:
    """The reply of an in-process service (`service._handle`) to one prompt hook sent as a
    client sends it, past its acks."""
    import socket

    from lorestack.integrations.service import protocol

    ours, theirs = socket.socketpair()
    request = {"version": protocol.VERSION, "op": "hook", "event": "prompt",
               "client": "claude-code",
               "stdin": json.dumps({"session_id": session, "cwd": str(repo), "prompt": prompt}),
               "caller": {"cwd": str(repo), "root": None, "env": protocol.caller_env()}}
    ours.sendall(protocol.encode(request))
    ours.shutdown(socket.SHUT_WR)
    service._handle(theirs)
    reader = protocol.LineReader(ours, protocol.MAX_REPLY)
    reply = reader.next()
    while reply.get("ack"):
        reply = reader.next()
    ours.close()
    return reply
