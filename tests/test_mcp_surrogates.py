"""`lorestack mcp` as a client runs it: a tool call whose JSON carries a lone surrogate."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys


def _reply(proc, wait: float) -> dict | None:
    ready, _, _ = select.select([proc.stdout], [], [], wait)
    return json.loads(proc.stdout.readline()) if ready else None


def _send(proc, message: dict) -> None:
    # json.dumps escapes a lone surrogate as `\udXXX`, as JSON.stringify does in a JS client
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()


def test_a_lone_surrogate_in_a_tool_call_is_answered_not_left_hanging(repo):
    """Text cut inside an emoji (`\\ud83d` alone, as a JS client sends it) made the SDK's
    parser refuse the line, and a line it cannot parse gets no reply: the client's call hung
    until its own timeout. The half character now becomes U+FFFD, as in the hooks; a whole
    emoji (a pair of escapes) is kept."""
    proc = subprocess.Popen([sys.executable, "-m", "lorestack.cli", "mcp"], cwd=repo,
                            env=dict(os.environ), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, encoding="utf-8")
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                     "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "test", "version": "1"}}})
        assert _reply(proc, 120)["id"] == 0
        _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        text = "The staging deploy runs on Fridays \ud83d and the release train 😀 on Mondays"
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                     "params": {"name": "remember", "arguments": {"text": text}}})
        stored = _reply(proc, 120)
        assert stored is not None, "no reply to a tool call with a lone surrogate"
        assert stored["id"] == 1 and not stored["result"].get("isError"), stored
        path = json.loads(stored["result"]["content"][0]["text"])["path"]
        body = open(path, encoding="utf-8").read()
        assert "Fridays \ufffd and the release train 😀 on Mondays" in body

        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                     "params": {"name": "recall", "arguments": {"query": "staging \udc00 deploy"}}})
        found = _reply(proc, 120)
        assert found is not None and found["id"] == 2 and not found["result"].get("isError")
        assert "release train" in found["result"]["content"][0]["text"]
    finally:
        proc.kill()
        proc.wait()


def test_a_line_without_surrogates_is_passed_on_as_it_is():
    from lorestack.integrations.mcp_server import scrubbed_line

    plain = '{"a": "caf\\u00e9"}\n'
    assert scrubbed_line(plain) is plain
    literal = '{"a": "a backslash: \\\\ud800 is text"}\n'
    assert json.loads(scrubbed_line(literal)) == json.loads(literal)
    assert scrubbed_line("not json \\ud800\n") == "not json \\ud800\n"
    pair = '{"a": "\\ud83d\\ude00", "b": ["\\udc00x"]}\n'
    assert json.loads(scrubbed_line(pair)) == {"a": "😀", "b": ["\ufffdx"]}
