"""A one-time notice (a secret left in a memory file, a broken config.toml) is told once per
session even when hooks of that session run at once: Claude Code runs a turn's tool calls in
parallel, each with its pre-tool hook. Each hook read the session file, found the notice not
yet told and put it in its reply (it is marked told only once a reply is out), so parallel
hooks told it two or three times out of six. Hooks now claim a notice in one locked step of
the session file; the others see the claim. A reply that is not sent gives its claim back.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys

import pytest

from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.index import MemoryIndex

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
HOOKS = 5


def _hook_of_one_session(repo: str, barrier, answers) -> None:
    """One hook process: makes its notice, waits until every hook has made its own (none has
    replied yet: the moment parallel tool calls share), then "replies"."""
    from lorestack.app.secret_notice import hand_on, secret_notice, told_after_reply

    mem = Memory.open(repo)
    with told_after_reply() as held:
        notice = secret_notice(mem, "parallel")
    barrier.wait(timeout=600)  # a hang guard only
    hand_on(held)
    answers.put(notice or "")


@pytest.fixture
def secret_left(mem, repo):
    path = mem.project.root / "facts" / "ci.md"
    path.write_text(f"---\ntitle: CI runner\n---\nThe runner uses {TOKEN}.\n")
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
    finally:
        index.close()
    return repo


def test_hooks_of_one_session_at_once_tell_a_notice_once(secret_left):
    context = multiprocessing.get_context("spawn")  # fresh interpreters, as hooks are
    barrier, answers = context.Barrier(HOOKS), context.Queue()
    hooks = [context.Process(target=_hook_of_one_session, args=(str(secret_left), barrier, answers))
             for _ in range(HOOKS)]
    for process in hooks:
        process.start()
    told = [answers.get(timeout=600) for _ in hooks]
    for process in hooks:
        process.join(timeout=600)
        assert process.exitcode == 0
    assert sum("looks like a secret" in notice for notice in told) == 1, told
    assert not any(TOKEN in notice for notice in told)


def test_a_notice_not_sent_is_given_back_to_the_next_hook(secret_left):
    from lorestack.app.secret_notice import give_back, secret_notice, told_after_reply

    mem = Memory.open(secret_left)
    with told_after_reply() as held:
        assert secret_notice(mem, "s1")  # claimed ...
    assert secret_notice(mem, "s1") is None  # ... so a parallel hook does not tell it
    give_back(held)  # the reply never got out
    assert "looks like a secret" in (secret_notice(mem, "s1") or "")
    assert secret_notice(mem, "s1") is None  # told now (no writer held the marks)


@pytest.mark.usefixtures("long_hook_deadlines")
def test_parallel_pre_tool_hooks_tell_a_broken_config_once(repo):
    (repo / ".memory" / "config.toml").write_text("[loader]\nbudget = \n")
    payload = json.dumps({"session_id": "tools", "cwd": str(repo),
                          "hook_event_name": "PreToolUse", "tool_name": "Bash",
                          "tool_input": {"command": "ls -la"}})
    hooks = [subprocess.Popen([sys.executable, "-m", "lorestack.cli", "check", "--hook",
                               "pre-tool", "--client", "claude-code"], cwd=repo, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for _ in range(HOOKS)]
    replies = [hook.communicate(payload, timeout=600) for hook in hooks]
    assert all(hook.returncode == 0 for hook in hooks), replies
    assert not any("Traceback" in err for _out, err in replies)
    assert sum("settings file is broken" in out for out, _err in replies) == 1, replies


def test_a_file_told_about_keeps_the_claim_a_parallel_hook_made_meanwhile(secret_left,
                                                                          monkeypatch):
    """The pre-tool hook records the files it told about by reading the session file, making
    their context, then writing the file whole: a claim another hook of the session made in
    between (parallel tool calls) was written over, and the notice told again."""
    from lorestack.app import file_hooks
    from lorestack.app.hooks import parse_payload
    from lorestack.app.secret_notice import secret_notice, told_after_reply
    from lorestack.retrieval import about

    mem = Memory.open(secret_left)
    real = about.about_context
    held: list = []

    def meanwhile(*args, **kwargs):
        with told_after_reply() as marks:  # a parallel hook claims the notice, replies later
            assert secret_notice(mem, "tools")
        held.extend(marks)
        return real(*args, **kwargs)

    monkeypatch.setattr(about, "about_context", meanwhile)
    payload = parse_payload(json.dumps({"session_id": "tools", "cwd": str(secret_left),
                                        "hook_event_name": "PreToolUse", "tool_name": "Read",
                                        "tool_input": {"file_path": "src/app.py"}}),
                            "claude-code", "pre-tool")
    file_hooks.pre_tool(mem, payload)
    assert held
    assert secret_notice(mem, "tools") is None  # still claimed: not told a second time
