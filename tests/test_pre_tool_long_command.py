"""The pre-tool hook reads the files a long shell command names within its deadline (hook34,
session 34).

Before: for a Codex shell call (tool "Bash"), `files_in_command` split the whole command with
shlex before keeping its first 200 words (1.8 s a MiB) and resolved every `*** Update File:`
line of an apply_patch body, 25,000 of them naming one file: `lorestack hook pre-tool`
missed its 1.5 s deadline and answered empty, so the memory anchored to that file never
reached the agent."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def test_a_patch_repeating_one_file_gets_its_memory_in_time(repo, monkeypatch):
    (repo / "src").mkdir()
    (repo / "src" / "app.py").write_text("x = 1\n")
    done = run_cli("remember", "app.py retries payments itself; never wrap it in a retry",
                   "--type", "caveat", "--about", "src/app.py", cwd=repo)
    assert done.returncode == 0, done.stderr
    monkeypatch.setenv("LORESTACK_HOOKS__DEADLINE_MS", "1500")  # the shipped deadline
    body = "*** Begin Patch\n" + "*** Update File: src/app.py\n@@\n+y = 2\n" * 25_000
    payload = json.dumps({"session_id": "s", "cwd": str(repo), "hook_event_name": "PreToolUse",
                          "tool_name": "Bash",
                          "tool_input": {"command": f"apply_patch <<'EOF'\n{body}*** End Patch\nEOF"}})
    done = run_cli("hook", "pre-tool", "--client", "codex", input=payload, cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "retries payments itself" in done.stdout, done.stdout
