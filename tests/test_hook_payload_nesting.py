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
