"""A one-time notice (a broken config.toml, a secret left in a memory file) is marked told only
once the reply carrying it is out. It was marked while the reply was being made, so a reply
lost to the client's deadline (the hook killed, its stdout closed) meant the session was never
told at all."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from tests import service_helpers
from tests.service_helpers import context_of, hook, status
from tests.test_check_cli import claude_payload, git, git_repo, rules  # noqa: F401 - fixtures

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture

pytestmark = pytest.mark.usefixtures("long_hook_deadlines")


def _told(text: str) -> list[str]:
    return [line for line in text.splitlines() if "settings file is broken" in line]


def _break_config(project) -> None:
    (project / ".memory" / "config.toml").write_text("[loader]\nbudget = \n")


def _lost(*args: str, payload: dict, cwd) -> None:
    """Run `lorestack ARGS` with its stdout already gone (a client that stopped waiting)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run([sys.executable, "-m", "lorestack.cli", *args],
                              input=json.dumps(payload), stdout=write_end,
                              stderr=subprocess.PIPE, text=True, cwd=cwd, timeout=600)
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr


def _session(session: str, cwd) -> dict:
    return {"session_id": session, "cwd": str(cwd), "prompt": "how are refunds written?"}


def test_a_lost_in_process_reply_leaves_the_notice_for_the_next_hook(stocked):
    _break_config(stocked)
    _lost("hook", "session-start", "--client", "claude-code", payload=_session("s1", stocked),
          cwd=stocked)
    first = context_of(hook("prompt", _session("s1", stocked), stocked))
    assert len(_told(first)) == 1
    assert _told(context_of(hook("prompt", _session("s1", stocked), stocked))) == []


def test_a_lost_reply_of_the_thin_in_process_path_leaves_the_notice(stocked, run_dir):
    """The service is on but not running: the launcher answers in-process (and starts it)."""
    _break_config(stocked)
    _lost("hook", "prompt", "--client", "claude-code", payload=_session("t1", stocked),
          cwd=stocked)
    # asked in-process (a second start of the service could outlive the fixture's stop)
    again = context_of(hook("prompt", _session("t1", stocked), stocked,
                            env={"LORESTACK_SERVICE__ENABLED": "false"}))
    assert len(_told(again)) == 1
    # the lost hook started the service: wait for it, so the fixture stops it
    assert service_helpers.poll(lambda: status().get("pid"))


class _ReplyLost:
    """The service's end of a connection whose client is gone once the ack is out (killed
    at its deadline): the reply's send fails."""

    def __init__(self, sock: socket.socket):
        self.sock = sock

    def __getattr__(self, name: str):
        return getattr(self.sock, name)

    def sendall(self, data: bytes) -> None:
        if not data.startswith(b'{"ack"'):
            raise BrokenPipeError("the client left")
        self.sock.sendall(data)


def _served(service, stocked, session: str, lose: bool, event: str = "prompt") -> str:
    from lorestack.integrations.service import protocol

    ours, theirs = socket.socketpair()
    request = {"version": protocol.VERSION, "op": "hook", "event": event,
               "client": "claude-code", "stdin": json.dumps(_session(session, stocked)),
               "caller": {"cwd": str(stocked), "root": None, "env": protocol.caller_env()}}
    ours.sendall(protocol.encode(request))
    ours.shutdown(socket.SHUT_WR)
    service._handle(_ReplyLost(theirs) if lose else theirs)
    reader = protocol.LineReader(ours, protocol.MAX_REPLY)
    reply = reader.next()
    while reply.get("ack"):
        try:
            reply = reader.next()
        except protocol.ProtocolError:  # the lost reply: nothing after the ack
            ours.close()
            return ""
    ours.close()
    out = reply["output"]
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def test_the_service_marks_a_notice_told_after_its_send(stocked, run_dir):
    from lorestack.integrations.service import protocol
    from lorestack.integrations.service.server import Service

    _break_config(stocked)
    service = Service(protocol.private_dir(create=True), watch=False)
    try:
        assert _served(service, stocked, "v1", lose=True, event="session-start") == ""
        shown = _served(service, stocked, "v1", lose=False)
        assert len(_told(shown)) == 1 and "ledger service" in shown
        assert _told(_served(service, stocked, "v1", lose=False)) == []
    finally:
        service.close()


def test_a_lost_pre_tool_guardrail_reply_leaves_the_notice(rules, repo):  # noqa: F811
    config = repo / ".memory" / "config.toml"
    config.write_text("[loader]\nbudget = \n")
    payload = json.loads(claude_payload(repo, "Bash", {"command": "pip install leftpad"}))
    payload["session_id"] = "g1"
    _lost("check", "--hook", "pre-tool", "--client", "claude-code", payload=payload, cwd=repo)
    done = subprocess.run([sys.executable, "-m", "lorestack.cli", "check", "--hook", "pre-tool",
                           "--client", "claude-code"], input=json.dumps(payload),
                          capture_output=True, text=True, cwd=repo, timeout=600)
    told = json.loads(done.stdout)["hookSpecificOutput"].get("additionalContext", "")
    assert len([line for line in told.splitlines() if str(config) in line]) == 1
