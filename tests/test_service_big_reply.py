"""A service reply over the size cap (`protocol.MAX_REPLY`, 64 MB) comes in parts. The client
refused the one long line, and the command ran again in-process (a second, cold run of what
the service had already done). The cap is lowered here by patching the module constant."""

from __future__ import annotations

import json
import os
import threading

from lorestack.integrations.service import client, protocol
from tests import service_helpers

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture


def _search(repo) -> dict:
    return client.call({"op": "cli", "argv": ["search", "ledger migrations", "--json"],
                        "caller": {"cwd": str(repo), "root": None,
                                   "env": protocol.caller_env()},
                        "stdin": None, "stdin_piped": False, "terminal": {}}, 120)


def test_a_reply_over_the_cap_arrives_in_parts(stocked, run_dir, monkeypatch):
    from lorestack.cli.service_cmds import run_cli_request
    from lorestack.integrations.service.server import Service

    service = Service(protocol.private_dir(create=True), watch=False, run_cli=run_cli_request)
    service.bind()
    thread = threading.Thread(target=service.serve_forever, daemon=True)
    thread.start()
    try:
        whole = _search(stocked)
        hits = json.loads(whole["stdout"])
        assert any("ledger service" in json.dumps(h) for h in hits)
        assert len(protocol.encode(whole)) > 1024
        monkeypatch.setattr(protocol, "MAX_REPLY", 1024)
        parted = _search(stocked)  # raised Unavailable('broken'): "message larger than …"
        assert json.loads(parted["stdout"]) == hits and parted["code"] == 0
        lines = protocol.reply_lines(parted)
        assert len(lines) > 1 and all(len(line) <= 1024 for line in lines)
        assert client.call({"op": "status"}, 30, with_caller=False)["pid"] == os.getpid()
    finally:
        service.stop()
        thread.join(60)


def test_parts_keep_any_text_whole(monkeypatch):
    """Escapes and characters outside ASCII survive the cut into parts."""
    monkeypatch.setattr(protocol, "MAX_REPLY", 64)
    reply = {"ok": True, "stdout": 'quote " back \\ tab \t ünï 😀 ' * 20 + "\x00\x1f"}
    lines = protocol.reply_lines(reply)
    assert len(lines) > 1 and all(len(line) <= 64 for line in lines)
    parts = protocol.Parts()
    got = [parts.add(protocol.decode(line.rstrip(b"\n"))) for line in lines]
    assert got[:-1] == [None] * (len(lines) - 1) and got[-1] == reply
