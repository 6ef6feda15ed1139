"""A transcript line of the wrong shape is skipped, never the whole session (qa32u, session 32).

`lorestack extract` (what the session-end hook starts) and `lorestack import --format …` read
every user line of a client transcript. One line whose `message` was not an object, or whose
session id was a number or an object, stopped the whole run with "unexpected AttributeError /
ValidationError (this is a bug in lorestack)": what the user said in the rest of the session
was never written, and the session-end job only left a traceback in extract.log.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli

GOOD = "We decided to use Redis for the session cache."


def _claude(session) -> list[dict]:
    return [
        {"type": "user", "message": "not an object", "sessionId": "s-1"},
        {"type": "user", "message": 5, "sessionId": "s-1"},
        {"type": "user", "message": {"role": "user", "content": "We ruled out Memcached."},
         "sessionId": session, "timestamp": "2026-03-02T09:00:00Z"},
        {"type": "user", "message": {"role": "user", "content": GOOD},
         "sessionId": "s-1", "timestamp": "2026-03-02T09:01:00Z"},
    ]


def _codex(session) -> list[dict]:
    return [
        {"type": "session_meta", "payload": {"id": session}},
        {"timestamp": "2026-03-02T09:00:00Z", "type": "event_msg",
         "payload": {"type": "user_message", "message": GOOD}},
    ]


def _gemini(session) -> list[dict]:
    return [
        {"$set": {"sessionId": session}},
        {"id": "m1", "type": "user", "content": GOOD, "timestamp": "2026-03-02T09:00:00Z",
         "sessionId": session},
    ]


@pytest.mark.parametrize("client,lines", [("claude-code", _claude), ("codex", _codex),
                                          ("gemini", _gemini)])
@pytest.mark.parametrize("session", [12345, {"a": 1}])
def test_extract_skips_a_line_of_the_wrong_shape(repo, tmp_path, client, lines, session):
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(x) for x in lines(session)) + "\n")
    result = CliRunner().invoke(cli, ["extract", "--transcript", str(transcript),
                                      "--client", client, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert any(GOOD in e["text"] for e in data["events"]), data
    assert all(e["session"] is None or isinstance(e["session"], str) for e in data["events"])


def test_import_skips_a_line_of_the_wrong_shape(repo, tmp_path):
    transcript = tmp_path / "session.jsonl"
    transcript.write_text("\n".join(json.dumps(x) for x in _claude({"a": 1})) + "\n")
    result = CliRunner().invoke(cli, ["import", "--format", "claude-code", str(transcript),
                                      "--no-index", "--json"])
    assert result.exit_code == 0, result.output
    assert "Redis" in "".join(p.read_text() for p in (repo / ".memory/journal").glob("*.md"))
