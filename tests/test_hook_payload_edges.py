"""Hook payloads a client can send that are odd but not wrong enough to cost the session its
answer (hook33, session 33)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

FACT = "Payments are written through the ledger service, never by direct SQL"


def _hooks_log(repo) -> str:
    log = repo / ".memory" / ".index" / "hooks.log"
    return log.read_text() if log.exists() else ""


@pytest.mark.parametrize("cwd", ["{repo}\u0000x", "/tmp/" + "a" * 300],
                         ids=["nul-byte", "name-too-long"])
def test_a_cwd_that_cannot_be_a_folder_is_left_out(repo, long_hook_deadlines, cwd):
    """Before: a `cwd` holding a NUL made the session start fail in git's `cwd=` (ValueError),
    and a name past the file system's limit made `Path.is_dir` raise ENAMETOOLONG before the
    store opened, failing every event: each answered empty, a traceback in hooks.log. Now
    the `cwd` is left out, and the hook answers for the folder it runs in."""
    proc = run_cli("remember", FACT, cwd=repo)
    assert proc.returncode == 0, proc.stderr
    payload = json.dumps({"session_id": "s-cwd", "cwd": cwd.format(repo=repo),
                          "hook_event_name": "SessionStart", "source": "startup"})
    proc = run_cli("hook", "session-start", "--client", "claude-code", input=payload, cwd=repo)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    assert "ledger service" in json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    prompt = json.dumps({"session_id": "s-cwd-2", "cwd": cwd.format(repo=repo),
                         "prompt": "how do payments reach the ledger?"})
    proc = run_cli("hook", "prompt", "--client", "claude-code", input=prompt, cwd=repo)
    assert proc.returncode == 0 and "ledger service" in proc.stdout, (proc.stdout, proc.stderr)
    assert "Traceback" not in _hooks_log(repo), _hooks_log(repo)
