"""A huge hook payload (a pasted log in a prompt) costs the session nothing and is told (hook33,
session 33).

Before: an 18 MB prompt was read whole, copied into a service request the service refused (over
its 4 MiB cap), handed to a cold in-process run that loaded the model (~350 MB, seconds), and
nothing in hooks.log said why; and a prompt of opening tags without their closing ones
(`<system-reminder>` pasted from a transcript) was stripped by a pattern that rescanned the rest
of the prompt from each tag, before any deadline: 100 kB took seconds, a few hundred kB outlived
the client's 10 s limit, which killed the hook with no answer and no line in hooks.log."""

from __future__ import annotations

import json
import os
import threading

from lorestack.core.hook_stdin import HOOK_PAYLOAD_MAX, read_payload
from tests.conftest import run_cli


def _hooks_log(repo) -> str:
    log = repo / ".memory" / ".index" / "hooks.log"
    return log.read_text() if log.exists() else ""


def _remember(repo, text: str) -> None:
    proc = run_cli("remember", text, cwd=repo)
    assert proc.returncode == 0, proc.stderr


def test_a_payload_over_the_cap_is_answered_empty_and_told(repo, long_hook_deadlines):
    _remember(repo, "Payments are written through the ledger service, never by direct SQL")
    prompt = "payments ledger sql " * (18 * 2**20 // 20)  # 18 MiB pasted into one prompt
    payload = json.dumps({"session_id": "s-huge", "cwd": str(repo),
                          "hook_event_name": "UserPromptSubmit", "prompt": prompt})
    proc = run_cli("hook", "prompt", "--client", "claude-code", input=payload, cwd=repo)
    assert proc.returncode == 0 and proc.stdout == "" and proc.stderr == "", proc.stderr
    line = next(x for x in _hooks_log(repo).splitlines() if "payload" in x)
    assert "prompt (claude-code)" in line and "over the 1 MiB a hook reads" in line, line
    doctor = run_cli("doctor", cwd=repo)
    assert "over the 1 MiB" in doctor.stdout, doctor.stdout


def test_a_payload_just_under_the_cap_is_answered(repo, long_hook_deadlines):
    _remember(repo, "Payments are written through the ledger service, never by direct SQL")
    head = json.dumps({"session_id": "s-big", "cwd": str(repo), "prompt": ""})
    prompt = ("how do payments reach the ledger? " * HOOK_PAYLOAD_MAX)[:HOOK_PAYLOAD_MAX - len(head) - 8]
    payload = json.dumps({"session_id": "s-big", "cwd": str(repo), "prompt": prompt})
    assert len(payload.encode()) <= HOOK_PAYLOAD_MAX
    proc = run_cli("hook", "prompt", "--client", "claude-code", input=payload, cwd=repo)
    assert proc.returncode == 0 and "ledger service" in proc.stdout, (proc.stdout, proc.stderr)
    assert "payload" not in _hooks_log(repo)


def test_a_prompt_of_unclosed_tags_is_answered_in_time(repo, long_hook_deadlines):
    """~900 kB of opening tags with no closing tag, then the question: answered from the
    memory. Before: the strip alone ran for minutes (the client kills a hook at 10 s); the
    timeout here only catches that, it measures nothing."""
    _remember(repo, "Payments are written through the ledger service, never by direct SQL")
    pasted = "<command-name>x\n" * 60_000
    payload = json.dumps({"session_id": "s-tags", "cwd": str(repo),
                          "prompt": pasted + "how do payments reach the ledger?"})
    assert len(payload.encode()) <= HOOK_PAYLOAD_MAX
    proc = run_cli("hook", "prompt", "--client", "claude-code", input=payload, cwd=repo,
                   timeout=120)
    assert proc.returncode == 0 and "ledger service" in proc.stdout, (proc.stdout, proc.stderr)


def test_a_payload_over_the_limit_is_drained_not_kept():
    """The client writing 3 MiB into the pipe is not left blocked: the reader takes it all, keeps
    none of it, and says how large it was."""
    r, w = os.pipe()
    sent = b'{"prompt": "' + b"x" * (3 * 2**20) + b'"}'

    def write() -> None:
        os.write(w, sent)  # blocks until the reader drained the pipe
        os.close(w)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        data = read_payload(r, limit=HOOK_PAYLOAD_MAX)
    finally:
        writer.join(60)
        os.close(r)
    assert not writer.is_alive()
    assert json.loads(data) == {"lorestack_oversize": len(sent)}

