"""A session-end payload whose `transcript_path` can name no file is one line in hooks.log,
never a traceback (hook34, session 34).

Before: a `transcript_path` holding a NUL byte failed the extraction's start
("ValueError('embedded null byte')"), then the fallback event that records the pointer was
refused for its NUL byte, and hooks.log got that refusal with a 15-line traceback (the hook
still exited 0). A path longer than the OS allows started an extraction that could only
fail, its 100 kB name written to hooks.log three times."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.usefixtures("long_hook_deadlines")


def _log(repo) -> str:
    log = repo / ".memory" / ".index" / "hooks.log"
    return log.read_text() if log.exists() else ""


@pytest.mark.parametrize("client,event", [("claude-code", "SessionEnd"), ("codex", "Stop"),
                                          ("gemini", "SessionEnd")])
@pytest.mark.parametrize("path", ["/tmp/a\u0000b.jsonl", "/tmp/" + "a" * 100_000])
def test_a_transcript_path_that_names_no_file_is_one_line(repo, client, event, path):
    payload = json.dumps({"session_id": "s-odd", "transcript_path": path, "cwd": str(repo),
                          "hook_event_name": event})
    done = run_cli("hook", "session-end", "--client", client, input=payload, cwd=repo)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    log = _log(repo)
    assert "Traceback" not in log and "aaaa" not in log, log[:2000]
    line = next(x for x in log.splitlines() if "transcript_path" in x)
    assert f"session-end ({client})" in line and "nothing extracted" in line, line
    events = run_cli("search", "s-odd", "--json", cwd=repo)
    assert "ended" not in events.stdout  # no pointer event recorded for it
