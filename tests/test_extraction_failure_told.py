"""A session-end extraction that fails is told where `doctor` looks (qa32u, session 32).

The session-end hook hands the transcript to a detached `hook_jobs extract` (no service) or to
the service's queue. When that failed (a transcript gone or unreadable, a reader error), the
only trace was a traceback in .memory/.index/extract.log or a line in the service's own log:
hooks.log had nothing, `lorestack doctor` said "ok", and what the user said in the session
was never written, without a word."""

from __future__ import annotations

import json
import time

import pytest

from tests.conftest import run_cli


def _hooks_log(repo) -> str:
    log = repo / ".memory" / ".index" / "hooks.log"
    return log.read_text() if log.exists() else ""


def test_a_failed_detached_extraction_reaches_hooks_log_and_doctor(repo, tmp_path, monkeypatch):
    monkeypatch.setenv("LORESTACK_SERVICE__ENABLED", "false")
    gone = tmp_path / "gone.jsonl"
    payload = {"session_id": "s-gone", "cwd": str(repo), "hook_event_name": "SessionEnd",
               "transcript_path": str(gone)}
    proc = run_cli("hook", "session-end", "--client", "claude-code", input=json.dumps(payload),
                   cwd=repo)
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    for _ in range(240):  # the detached job it started; polled, no timing asserted
        if "extraction" in _hooks_log(repo):
            break
        time.sleep(0.5)
    line = next(x for x in _hooks_log(repo).splitlines() if "extraction" in x)
    assert str(gone) in line and "not found" in line
    doctor = run_cli("doctor", cwd=repo)
    assert doctor.returncode == 1 and "extraction" in doctor.stdout


def test_the_services_failed_extraction_is_told_once(repo, tmp_path):
    from lorestack.integrations.service.jobs import ExtractionJob
    from lorestack.integrations.service.warm import run_extraction

    job = ExtractionJob(key="s-gone", transcript=str(tmp_path / "gone.jsonl"),
                        client="claude-code", root=str(repo / ".memory"), session="s-gone")
    for attempt in range(3):  # the queue retries: hooks.log is told at the first only
        job.attempts = attempt
        with pytest.raises(Exception, match="not found"):
            run_extraction(job)
    lines = [x for x in _hooks_log(repo).splitlines() if "extraction" in x]
    assert len(lines) == 1 and "gone.jsonl" in lines[0]


def test_the_line_told_holds_no_key_from_the_transcripts_name(repo, tmp_path):
    """The line quotes the transcript and the error, either of which can hold a key (a file
    named after one, an error quoting a line): hooks.log is a derived file, so log_failure
    redacts what it writes."""
    from lorestack.integrations.service.jobs import ExtractionJob
    from lorestack.integrations.service.warm import run_extraction

    key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    job = ExtractionJob(key="s-key", transcript=str(tmp_path / f"{key}.jsonl"),
                        client="claude-code", root=str(repo / ".memory"), session="s-key")
    with pytest.raises(Exception, match="not found"):
        run_extraction(job)
    line = next(x for x in _hooks_log(repo).splitlines() if "extraction" in x)
    assert key not in line and ".jsonl" in line, line


def test_extract_log_holds_no_key_from_the_transcripts_name(repo, tmp_path, monkeypatch):
    """The detached extraction's traceback went to .memory/.index/extract.log as Python printed
    it, quoting the transcript's path raw (hook33, session 33): a folder or file named after a
    key put the key in a derived file that hooks.log, written through the same redaction,
    kept out."""
    monkeypatch.setenv("LORESTACK_SERVICE__ENABLED", "false")
    key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    gone = tmp_path / key / "session.jsonl"
    payload = {"session_id": "s-key-log", "cwd": str(repo), "hook_event_name": "SessionEnd",
               "transcript_path": str(gone)}
    proc = run_cli("hook", "session-end", "--client", "claude-code", input=json.dumps(payload),
                   cwd=repo)
    assert proc.returncode == 0 and proc.stdout == "", proc.stderr
    extract_log = repo / ".memory" / ".index" / "extract.log"
    for _ in range(240):  # the detached job it started; polled, no timing asserted
        if extract_log.exists() and "not found" in extract_log.read_text():
            break
        time.sleep(0.5)
    text = extract_log.read_text()
    assert "TranscriptError" in text and "session.jsonl" in text, text
    assert key not in text, text
    # an error named for the user is one line there, not a traceback (session 34)
    assert "Traceback" not in text and len(text.strip().splitlines()) == 1, text


def test_service_log_holds_no_key_from_the_transcripts_name(repo, tmp_path, capsys):
    """The service's queue logs a failed extraction to service.log (the service's stderr) with
    the transcript's path and the error: written raw before (hook33, session 33), while the
    same failure's hooks.log line was redacted."""
    from lorestack.integrations.service.jobs import ExtractionJob
    from lorestack.integrations.service.server import Service

    key = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    service = Service(runtime, watch=False, retry_pauses=[600])
    try:
        service.jobs.start()
        service.jobs.submit(ExtractionJob(
            key="s-svc-key", transcript=str(tmp_path / key / "session.jsonl"),
            client="claude-code", root=str(repo / ".memory"), session="s-svc-key"))
        err = ""
        for _ in range(240):  # polled, no timing asserted
            err += capsys.readouterr().err
            if "extraction of" in err:
                break
            time.sleep(0.5)
    finally:
        service.close()
    line = next(x for x in err.splitlines() if "extraction of" in x)
    assert "session.jsonl" in line and key not in line, line
