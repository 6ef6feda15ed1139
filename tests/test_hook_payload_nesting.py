"""A hook payload nested deeper than json reads is an empty payload, never a traceback
(hook34, session 34).

Before: `parse_payload` turned non-JSON stdin into an empty payload but let json's
RecursionError through, so `lorestack hook EVENT` on `{"tool_input": [[[[…]]]]}` (100,000
deep) or `{"a":{"a":…}}` (5,000 deep) wrote a 14-line traceback to hooks.log, for every event
and every client (it still exited 0 with an empty answer)."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.usefixtures("long_hook_deadlines")
DEEP = ['{"tool_name": "Read", "tool_input": ' + "[" * 100_000 + "]" * 100_000 + "}",
        '{"prompt": "hi", "a": ' + '{"a":' * 5_000 + "1" + "}" * 5_001]


@pytest.mark.parametrize("payload", DEEP)
@pytest.mark.parametrize("event,client", [("pre-tool", "claude-code"), ("prompt", "codex"),
                                          ("session-start", "gemini"),
                                          ("session-end", "claude-code")])
def test_a_payload_nested_too_deep_is_read_as_empty(repo, payload, event, client):
    done = run_cli("hook", event, "--client", client, input=payload, cwd=repo)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    log = repo / ".memory" / ".index" / "hooks.log"
    assert "Traceback" not in (log.read_text() if log.exists() else "")


def test_the_guardrail_says_a_tool_input_is_nested_too_deep_in_words(repo):
    """900 levels: json reads it, but the guardrail's walk of it failed with a bare
    "RecursionError: maximum recursion depth exceeded"."""
    payload = ('{"tool_name": "Write", "tool_input": {"file_path": "src/a.py", "content": '
               + "[" * 900 + '"eval("' + "]" * 900 + "}}")
    done = run_cli("check", "--hook", "pre-tool", "--client", "claude-code", input=payload,
                   cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "nested more than 100 levels deep" in done.stderr, done.stderr
    assert "RecursionError" not in done.stderr
