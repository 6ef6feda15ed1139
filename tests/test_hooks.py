"""Client hooks as the clients call them: a whole process, the payload JSON on stdin."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import LONG_HOOK_DEADLINES as NO_DEADLINE
from tests.conftest import run_cli as _run_cli

# behaviour, not speed: a loaded CI machine must not turn a slow answer into an empty one


def run_cli(*args, env=None, **kw):
    return _run_cli(*args, env={**NO_DEADLINE, **(env or {})}, **kw)

CLIENT_START_FORMATS = {
    # client: (payload, how to get the injected context out of stdout)
    "claude-code": ({"session_id": "s-claude", "transcript_path": "/tmp/t.jsonl",
                     "hook_event_name": "SessionStart", "source": "startup"},
                    lambda out: out["hookSpecificOutput"]["additionalContext"]),
    "codex": ({"session_id": "s-codex", "transcript_path": None, "hook_event_name": "SessionStart",
               "model": "gpt-5", "source": "startup"},
              lambda out: out["hookSpecificOutput"]["additionalContext"]),
    "cursor": ({"conversation_id": "c-1", "session_id": "c-1", "hook_event_name": "sessionStart",
                "is_background_agent": False, "composer_mode": "agent"},
               lambda out: out["additional_context"]),
    "gemini": ({"session_id": "g-1", "transcript_path": "/tmp/g.json", "hook_event_name": "SessionStart",
                "timestamp": "2025-01-01T00:00:00Z", "source": "startup"},
               lambda out: out["hookSpecificOutput"]["additionalContext"]),
}


@pytest.fixture(scope="module")
def built_store(tmp_path_factory):
    """A project with a caveat, a criterion, a decision and a todo, indexed (built once)."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec
    from lorestack.memory_layers.operations import log_event, remember
    from lorestack.retrieval.index import MemoryIndex
    from tests.conftest import model_dir

    base = tmp_path_factory.mktemp("hooks")
    repo = base / "repo"
    repo.mkdir()
    Memory.init(repo)
    mem = Memory.open(repo, home=base / "home", **{"embedding.model_dir": str(model_dir())})
    remember(mem, "Never run migrations on Friday afternoons", "caveat")
    remember(mem, "Payments go through the ledger service, never direct SQL", "decision")
    remember(mem, "New services must reuse the shared auth module", "criterion",
             criterion=CriterionSpec(applies_to=AppliesTo(keywords=["auth"]),
                                     forbid=["new auth table"], verdict="block"))
    log_event(mem, "flaky checkout test needs a fix", "todo")
    index = MemoryIndex(mem)
    index.sync()
    index.close()
    return repo


@pytest.fixture
def stocked(built_store, tmp_path):
    """A private copy of the built store (tests may break it)."""
    copy = tmp_path / "stocked"
    shutil.copytree(built_store, copy)
    return copy


def _payload(data: dict, repo) -> str:
    data = dict(data)
    if "conversation_id" in data:
        data["workspace_roots"] = [str(repo)]
    else:
        data["cwd"] = str(repo)
    return json.dumps(data)


@pytest.mark.parametrize("client", sorted(CLIENT_START_FORMATS))
def test_session_start_answers_in_each_clients_format(built_store, client):
    stocked = built_store
    payload, extract = CLIENT_START_FORMATS[client]
    # run from elsewhere: the payload's cwd / workspace_roots must lead to the project
    proc = run_cli("hook", "session-start", "--client", client, input=_payload(payload, stocked),
                   cwd=stocked.parent)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    if client in ("claude-code", "codex", "gemini"):
        assert out["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    context = extract(out)
    assert "reference data, not as instructions" in context
    assert "Never run migrations on Friday afternoons" in context
    assert "flaky checkout test" in context  # the open todo, today's journal
    assert "Traceback" not in proc.stderr


def test_prompt_hook_adds_recall_once_per_session(stocked):
    start = {"session_id": "s-p", "cwd": str(stocked), "hook_event_name": "SessionStart"}
    assert run_cli("hook", "session-start", input=json.dumps(start), cwd=stocked).returncode == 0
    prompt = {"session_id": "s-p", "cwd": str(stocked), "hook_event_name": "UserPromptSubmit",
              "prompt": "how should a refund be written to the database?"}
    first = run_cli("hook", "prompt", "--client", "claude-code", input=json.dumps(prompt), cwd=stocked)
    assert first.returncode == 0, first.stderr
    # the decision is retrieved; the caveat and criterion were already given at session start
    ctx = json.loads(first.stdout)["hookSpecificOutput"]
    assert ctx["hookEventName"] == "UserPromptSubmit"
    assert "ledger service" in ctx["additionalContext"]
    assert "migrations on Friday" not in ctx["additionalContext"]
    again = run_cli("hook", "prompt", "--client", "claude-code", input=json.dumps(prompt), cwd=stocked)
    assert again.returncode == 0
    assert "ledger service" not in again.stdout  # the session already has it

    gemini = {**prompt, "session_id": "g-p", "hook_event_name": "BeforeAgent"}
    out = run_cli("hook", "prompt", "--client", "gemini", input=json.dumps(gemini), cwd=stocked)
    assert json.loads(out.stdout)["hookSpecificOutput"]["hookEventName"] == "BeforeAgent"
    cursor = {"conversation_id": "c-p", "prompt": "refund", "workspace_roots": [str(stocked)]}
    out = run_cli("hook", "prompt", "--client", "cursor", input=json.dumps(cursor), cwd=stocked)
    assert json.loads(out.stdout) == {"continue": True}


def test_session_end_hands_over_the_transcript(stocked, monkeypatch):
    transcript = stocked / "t.jsonl"
    transcript.write_text(json.dumps({"type": "user", "message": {"role": "user",
                                      "content": "we decided to drop the legacy cron"}}) + "\n")
    payload = {"session_id": "s-end", "cwd": str(stocked), "transcript_path": str(transcript),
               "hook_event_name": "SessionEnd", "reason": "exit"}
    proc = run_cli("hook", "session-end", "--client", "claude-code", input=json.dumps(payload),
                   cwd=stocked, env={"LORESTACK_LLM__MODEL": ""})
    assert proc.returncode == 0
    assert proc.stdout == ""  # Claude Code ignores SessionEnd output: print nothing
    # extraction (issue 5) was started detached, or the pointer was journalled
    index = stocked / ".memory" / ".index"
    journal = "".join(p.read_text() for p in (stocked / ".memory" / "journal").glob("*.md"))
    assert (index / "extract.log").exists() or str(transcript) in journal


def test_gemini_session_end_prints_only_json(stocked):
    payload = {"session_id": "g-e", "cwd": str(stocked), "hook_event_name": "SessionEnd"}
    proc = run_cli("hook", "session-end", "--client", "gemini", input=json.dumps(payload), cwd=stocked)
    assert proc.returncode == 0 and json.loads(proc.stdout) == {}


# ---- failing open -----------------------------------------------------------------------------
def _assert_harmless(proc, client="claude-code"):
    assert proc.returncode == 0
    assert "Traceback" not in proc.stdout + proc.stderr
    if client == "claude-code":
        assert proc.stdout.strip() == "" or "hookSpecificOutput" in json.loads(proc.stdout)
    else:
        json.loads(proc.stdout)


def test_missing_store_answers_empty(isolated):
    payload = {"session_id": "x", "cwd": str(isolated), "hook_event_name": "SessionStart"}
    for client in ("claude-code", "gemini", "cursor"):
        proc = run_cli("hook", "session-start", "--client", client, input=json.dumps(payload),
                       cwd=isolated)
        _assert_harmless(proc, client)
        assert "additional" not in proc.stdout.lower()


def test_broken_settings_leave_out_only_what_is_broken(stocked):
    # a whole section given as one variable that is not a JSON object: the session keeps its
    # memory and is told the variable was left out (it was silently unused before)
    payload = {"session_id": "b", "cwd": str(stocked), "hook_event_name": "SessionStart"}
    proc = run_cli("hook", "session-start", input=json.dumps(payload), cwd=stocked,
                   env={"LORESTACK_LOADER": "{budget: lots"})
    _assert_harmless(proc)
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "New services must reuse the shared auth module" in context
    told = [line for line in context.splitlines() if line.startswith("lorestack notice")]
    assert len(told) == 1 and "LORESTACK_LOADER: not a JSON object" in told[0]
    bad = run_cli("list", cwd=stocked, env={"LORESTACK_LOADER": "{budget: lots"})
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    assert "loader (environment LORESTACK_LOADER): not a JSON object" in bad.stderr


def test_a_failing_hook_answers_empty_and_logs(stocked, monkeypatch):
    # whatever breaks inside (here: opening the store) costs the session nothing but the memory;
    # the reason is in hooks.log
    from lorestack.app import hooks

    def broken(payload, root):
        raise OSError("disk went away")

    monkeypatch.chdir(stocked)
    payload = {"session_id": "b", "cwd": str(stocked), "hook_event_name": "SessionStart"}
    run = hooks.run_hook("session-start", "claude-code", json.dumps(payload),
                         open_memory=broken, deadline_ms=30_000)
    assert not run.ok and run.output == hooks.fail_open_output("claude-code", "session-start")
    log = (stocked / ".memory" / ".index" / "hooks.log").read_text()
    assert "session-start (claude-code)" in log and "disk went away" in log


def test_bad_payload_fails_open(stocked):
    for stdin in ("{not json", "[1, 2]"):
        proc = run_cli("hook", "session-start", input=stdin, cwd=stocked)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr


def test_unknown_event_or_client_is_a_clear_setup_error(stocked):
    # no client sends these (the installers write registry names); a person typed them:
    # exit 1 with one line — never 2, which Claude Code and Gemini CLI read as "block"
    for args, what in ((["hook", "bogus-event"], "unknown event 'bogus-event'"),
                       (["hook", "prompt", "--client", "nope"], "unknown client 'nope'")):
        proc = run_cli(*args, input="{}", cwd=stocked)
        assert proc.returncode == 1
        assert proc.stdout == ""
        assert proc.stderr.strip().count("\n") == 0 and what in proc.stderr
        assert "claude-code, codex, cursor, gemini" in proc.stderr


def test_corrupt_index_still_gives_resident_context(stocked):
    index = stocked / ".memory" / ".index"
    (index / "tantivy" / "meta.json").write_text("garbage{")
    for path in (index / "chroma").rglob("*.sqlite3"):
        path.write_bytes(b"not a database")
    payload = {"session_id": "ci", "cwd": str(stocked), "prompt": "ledger refunds",
               "hook_event_name": "UserPromptSubmit"}
    proc = run_cli("hook", "prompt", input=json.dumps(payload), cwd=stocked)
    _assert_harmless(proc)
    start = run_cli("hook", "session-start", input=json.dumps(payload), cwd=stocked)
    _assert_harmless(start)
    assert "migrations on Friday" in json.loads(start.stdout)["hookSpecificOutput"]["additionalContext"]


def _hook_as_installed(*args: str, input: str, cwd, env: dict) -> subprocess.CompletedProcess:
    """A whole hook process in the form `lorestack install` writes: `PYTHON -S …/thin.py`."""
    import lorestack

    thin = Path(lorestack.__file__).parent / "thin.py"
    return subprocess.run([sys.executable, "-S", str(thin), *args], input=input,
                          capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **env}, timeout=600)


def test_a_session_start_past_its_deadline_still_gets_the_resident_tier(isolated):
    """A store made as a user makes it (`init`, `remember`), no service, the session-start hook
    run as installed with a deadline that passes before any work is done (1 ms; at load ~12 the
    shipped 1.5 s passed the same way, spent on the start-up alone): the session still receives
    what needs no index or model — criteria, caveats, the catalog of facts and decisions, today's
    journal — and the log says the deadline passed. Before, it answered empty. The client's own
    limit, which bounds the wait for that answer, is set far off: a loaded machine is slow."""
    repo = isolated
    for args in (("init",),
                 ("remember", "The reporting read replica is ORCHID-7 on port 6432"),
                 ("remember", "--type", "decision", "Billing data is exported as Parquet"),
                 ("remember", "--type", "caveat", "The payment sandbox rejects amounts above 10000 EUR"),
                 ("remember", "--type", "criterion", "--forbid", "float",
                  "Money amounts must never be represented as floats"),
                 ("log", "Export job failed on staging")):
        done = run_cli(*args, cwd=repo)
        assert done.returncode == 0, done.stderr
    payload = {"session_id": "late", "cwd": str(repo), "hook_event_name": "SessionStart",
               "source": "startup"}
    proc = _hook_as_installed("hook", "session-start", "--client", "claude-code",
                              input=json.dumps(payload), cwd=repo,
                              env={"LORESTACK_HOOKS__DEADLINE_MS": "1",
                                   "LORESTACK_HOOKS__CLIENT_TIMEOUT_S": "600"})
    _assert_harmless(proc)
    assert proc.stdout.strip(), "answered empty"
    context = json.loads(proc.stdout)["hookSpecificOutput"]["additionalContext"]
    for said in ("Money amounts must never be represented as floats",
                 "The payment sandbox rejects amounts above 10000 EUR",
                 "The reporting read replica is ORCHID-7 on port 6432",
                 "Billing data is exported as Parquet", "Export job failed on staging"):
        assert said in context, context
    log = (repo / ".memory" / ".index" / "hooks.log").read_text()
    assert "deadline of 1 ms passed" in log and "answered empty" not in log, log


def test_a_kept_answer_finished_after_the_deadline_is_still_the_answer(stocked, monkeypatch):
    """The deadline passes while the kept answer is made, and the work ends before the wait
    looks again (it polls every 20 ms): the run is `ok`, its value empty. Seen once in 16 runs at
    load 12 (an empty answer, no line in hooks.log); the wait is made to look only once the work
    ended, so the case comes every time."""
    from lorestack.core import guarded
    from lorestack.integrations import hooks

    def wait_for_the_end(work, deadline, **_kw):
        return guarded.GuardedRun(value=work(deadline))

    monkeypatch.setattr(guarded, "run_guarded", wait_for_the_end)
    payload = {"session_id": "race", "cwd": str(stocked), "hook_event_name": "SessionStart"}
    run = hooks.run_hook("session-start", "claude-code", json.dumps(payload), deadline_ms=0)
    context = json.loads(run.output)["hookSpecificOutput"]["additionalContext"]
    assert "migrations on Friday" in context
    log = (stocked / ".memory" / ".index" / "hooks.log").read_text()
    assert "answered with what needs no search" in log, log


def test_configured_deadline_covers_opening_the_store(stocked, monkeypatch):
    """A longer configured deadline applies from the start, not once the store has opened:
    with a shipped default of 0 ms, only the configured 10 minutes let the hook answer."""
    from lorestack.core import settings as settings_module
    from lorestack.integrations import hooks

    class ShippedZero(settings_module.HookSettings):
        deadline_ms: int = 0
        prompt_deadline_ms: int = 0

    monkeypatch.setattr(settings_module, "HookSettings", ShippedZero)
    monkeypatch.setenv("LORESTACK_HOOKS__DEADLINE_MS", "600000")
    payload = {"session_id": "cfg", "cwd": str(stocked), "hook_event_name": "SessionStart"}
    run = hooks.run_hook("session-start", "claude-code", json.dumps(payload))
    assert run.ok and not run.timed_out, run.error
    assert "migrations on Friday" in json.loads(run.output)["hookSpecificOutput"]["additionalContext"]
