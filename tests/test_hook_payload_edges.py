"""Hook payloads a client can send that are odd but not wrong enough to cost the session its
answer (hook33, session 33)."""

from __future__ import annotations

import json
import subprocess
import sys

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


LONE = "\ud83d"  # the first half of an emoji, alone: text a client cut inside one


def test_a_transcript_with_a_lone_surrogate_is_extracted(repo, tmp_path):
    """JSON can carry a lone surrogate (`"\\ud83d"`), and a JS client's JSON.stringify writes
    one for text cut inside an emoji. Before: one in a user message made the whole session's
    extraction fail ("unexpected UnicodeEncodeError … surrogates not allowed") — nothing of
    the session was written, and the session-end job failed the same way every retry."""
    transcript = tmp_path / "session.jsonl"
    lines = [{"type": "user", "sessionId": "s-sur", "timestamp": "2026-12-07T07:00:00Z",
              "message": {"role": "user", "content": "We decided to route refunds through the "
                          f"ledger service because direct SQL broke reconciliation {LONE}"}},
             {"type": "user", "sessionId": "s-sur", "timestamp": "2026-12-07T07:01:00Z",
              "message": {"role": "user", "content": "Remember that the staging database is "
                          "reset every Sunday night"}}]
    transcript.write_text("\n".join(json.dumps(x) for x in lines) + "\n")  # ensure_ascii: \ud83d
    proc = run_cli("extract", "--transcript", str(transcript), "--client", "claude-code", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    written = "".join(p.read_text() for p in (repo / ".memory").rglob("*.md"))
    assert "route refunds through the ledger service" in written  # an event
    assert "reset every Sunday night" in written  # a fact


def test_a_prompt_with_a_lone_surrogate_keeps_its_vector_recall(repo, long_hook_deadlines):
    """Before: the tokenizer refused the prompt (TypeError), so recall lost its vector half
    and hooks.log said "vector retriever unavailable"."""
    for args in (("remember", FACT), ("reindex",)):  # a warm index: the vector half is asked
        proc = run_cli(*args, cwd=repo)
        assert proc.returncode == 0, proc.stderr
    payload = json.dumps({"session_id": "s-sur", "cwd": str(repo),
                          "prompt": f"how do payments reach the ledger? {LONE}"})
    proc = run_cli("hook", "prompt", "--client", "claude-code", input=payload, cwd=repo)
    assert proc.returncode == 0 and "ledger service" in proc.stdout, (proc.stdout, proc.stderr)
    assert "unavailable" not in _hooks_log(repo), _hooks_log(repo)


def test_a_transcript_path_that_is_no_file_is_told_in_one_line(repo, tmp_path):
    """Before: a folder was "not found" in the line the session-end job left in hooks.log, and
    a name past the file system's limit made `extract` print "unexpected OSError … (this is a
    bug in lorestack; please report it)"."""
    from lorestack.consolidation.transcripts import TranscriptError, read_user_messages

    with pytest.raises(TranscriptError, match="is not a file"):
        read_user_messages(tmp_path)
    long_name = str(tmp_path / ("b" * 300))
    with pytest.raises(TranscriptError, match="not found"):
        read_user_messages(long_name)
    proc = run_cli("extract", "--transcript", long_name, "--client", "claude-code", cwd=repo)
    assert proc.returncode == 1 and "not found" in proc.stderr, proc.stderr
    assert "bug" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_a_payload_with_a_byte_that_is_not_utf8_is_answered(repo, long_hook_deadlines):
    """Before: with the service off, one byte that is not UTF-8 in the payload made the hook
    read no payload at all: an empty answer, nothing in hooks.log; with the service on, the
    thin path read it (U+FFFD) and answered."""
    proc = run_cli("remember", FACT, cwd=repo)
    assert proc.returncode == 0, proc.stderr
    payload = (b'{"session_id": "s-byte", "cwd": "' + str(repo).encode()
               + b'", "prompt": "how do pay\xffments reach the ledger?"}')
    proc = subprocess.run([sys.executable, "-m", "lorestack.cli", "hook", "prompt", "--client",
                           "claude-code"], input=payload, capture_output=True, cwd=repo,
                          timeout=600)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    assert b"ledger service" in proc.stdout, proc.stdout
