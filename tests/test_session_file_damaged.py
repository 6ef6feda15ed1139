"""A damaged session file (what a session was handed, under `.index/sessions/`) never costs a
hook its answer. Garbage read as JSON was already taken as an empty record; but valid JSON of
another shape (`"received": 5`, a list where the claims are kept) made every prompt hook of
that session answer nothing (TypeError in the worker), and a FIFO under that name blocked the
pre-tool hook for good, holding the session's lock meanwhile."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.index import MemoryIndex
from tests.conftest import run_cli

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


@pytest.mark.usefixtures("long_hook_deadlines")
def test_a_session_file_of_another_shape_is_read_as_what_it_holds_well(repo):
    mem = Memory.open(repo)
    (repo / ".memory" / "facts" / "ci.md").write_text(
        f"---\ntitle: CI runner\n---\nThe CI runner deploys with blue green, token {TOKEN}.\n")
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
    finally:
        index.close()
    sessions = repo / ".memory" / ".index" / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    (sessions / "odd.json").write_text(json.dumps(
        {"received": 5, "secrets_told": None, "secrets_told_claimed": [1], "last_end": "x"}))
    payload = json.dumps({"session_id": "odd", "cwd": str(repo),
                          "hook_event_name": "UserPromptSubmit",
                          "prompt": "how does the CI runner deploy?"})
    done = run_cli("hook", "prompt", "--client", "claude-code", input=payload, cwd=repo)
    assert done.returncode == 0 and "blue green" in done.stdout, done.stdout + done.stderr
    assert "looks like a secret" in done.stdout and TOKEN not in done.stdout
    kept = json.loads((sessions / "odd.json").read_text())
    assert "ci" in kept["received"] and kept["secrets_told"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.usefixtures("long_hook_deadlines")
def test_a_fifo_in_place_of_a_session_file_is_not_waited_on(repo):
    (repo / ".memory" / "config.toml").write_text("[loader]\nbudget = \n")
    sessions = repo / ".memory" / ".index" / "sessions"
    sessions.mkdir(parents=True, exist_ok=True)
    os.mkfifo(sessions / "tools.json")
    payload = json.dumps({"session_id": "tools", "cwd": str(repo),
                          "hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "ls -la"}})
    try:  # the timeout only catches the hang this is about
        done = run_cli("check", "--hook", "pre-tool", "--client", "claude-code", input=payload,
                       cwd=repo, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail("the pre-tool hook blocked on a FIFO named like its session file")
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "settings file is broken" in done.stdout
