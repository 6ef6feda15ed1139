"""A pre-tool call too big to judge whole costs the session nothing, and is judged on its start
and said (hook34, session 34).

Before: `lorestack check --hook pre-tool` read a 4.8 MB Write or Edit whole, with no cap (the
other hooks cap their payload at 1 MiB), and judged the whole `old_string` of an Edit by every
rule (seconds, ~160-265 MB); the text past `limits.max_proposal_bytes` went unjudged with a
warning no one saw: a Write breaking a block rule in its last line passed without a word.
Now the payload is read up to the 1 MiB a hook reads, what that much holds is judged (the JSON
cut short is closed: guardrail/payload_cut.py), and the agent is told, on every such call and
in hooks.log, that the rest was not checked."""

from __future__ import annotations

import json
import os
import threading

import pytest

from lorestack.core.hook_stdin import HOOK_PAYLOAD_MAX, read_payload
from lorestack.guardrail.payload_cut import closed
from tests.conftest import run_cli

pytestmark = pytest.mark.usefixtures("long_hook_deadlines")
BODY = "x = 1\n" * 800_000  # 4.8 MB of harmless code


def _rule(repo) -> None:
    done = run_cli("remember", "--type", "criterion", "Never call eval( under src",
                   "--applies-path", "src/**", "--forbid", "eval(", "--verdict", "block",
                   cwd=repo)
    assert done.returncode == 0, done.stderr


def _log(repo) -> str:
    log = repo / ".memory" / ".index" / "hooks.log"
    return log.read_text() if log.exists() else ""


def _payload(repo, client: str, content: str) -> str:
    path = str(repo / "src" / "app.py")
    if client == "gemini":
        shape = {"hook_event_name": "BeforeTool", "tool_name": "write_file",
                 "tool_input": {"file_path": path, "content": content}}
    elif client == "codex":
        shape = {"hook_event_name": "PreToolUse", "tool_name": "Bash",
                 "tool_input": {"command": f"cat > src/app.py <<'EOF'\n{content}EOF\n"}}
    else:
        shape = {"hook_event_name": "PreToolUse", "tool_name": "Write",
                 "tool_input": {"file_path": path, "content": content}}
    return json.dumps({"session_id": "s-big", "transcript_path": str(repo / "t.jsonl"),
                       "cwd": str(repo), **shape})


def _check(repo, client: str, payload: str):
    done = run_cli("check", "--hook", "pre-tool", "--client", client, input=payload, cwd=repo)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else {}


@pytest.mark.parametrize("client", ["claude-code", "gemini", "codex"])
def test_a_huge_call_breaking_a_rule_at_its_start_is_denied(repo, client):
    _rule(repo)
    out = _check(repo, client, _payload(repo, client, "eval(input())\n" + BODY))
    text = json.dumps(out)
    assert '"deny"' in text and "eval(" in text, text[:400]


@pytest.mark.parametrize("client", ["claude-code", "gemini", "codex"])
def test_a_huge_call_is_said_to_be_checked_only_in_part(repo, client):
    """The rule is broken past what is judged: the call goes ahead (no block on a guess), and
    the agent (and the user) read that its end was not checked; hooks.log says so too."""
    _rule(repo)
    out = _check(repo, client, _payload(repo, client, BODY + "eval(input())\n"))
    said = out.get("systemMessage", "")
    assert "checked only the start of this tool call" in said, out
    assert "deny" not in json.dumps(out)
    assert "only a part was judged" in _log(repo)


def test_a_huge_edit_is_judged_on_its_start(repo):
    """An Edit replacing 4.8 MB: its old text is not judged whole (that took seconds)."""
    _rule(repo)
    payload = json.dumps({"session_id": "s", "cwd": str(repo), "hook_event_name": "PreToolUse",
                          "tool_name": "Edit",
                          "tool_input": {"file_path": str(repo / "src" / "app.py"),
                                         "old_string": BODY, "new_string": BODY + "y = 2\n"}})
    out = _check(repo, "claude-code", payload)
    assert "checked only the start" in out["hookSpecificOutput"]["additionalContext"], out


def test_a_call_under_the_cap_is_judged_whole_and_not_flagged(repo):
    _rule(repo)
    content = "x = 1\n" * 20_000 + "eval(input())\n"  # 120 kB: under both limits
    out = _check(repo, "claude-code", _payload(repo, "claude-code", content))
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "only the start" not in json.dumps(out) and "only a part" not in _log(repo)


def test_the_reader_keeps_the_first_bytes_of_a_long_payload_whole_characters_only():
    r, w = os.pipe()
    sent = b'{"tool_input": {"content": "' + "\u00e9".encode() * (3 * 2**20) + b'"}}'

    def write() -> None:
        os.write(w, sent)
        os.close(w)

    writer = threading.Thread(target=write)
    writer.start()
    try:
        data = read_payload(r, limit=HOOK_PAYLOAD_MAX + 1, prefix=True)  # cuts inside an é
    finally:
        writer.join(60)
        os.close(r)
    assert not writer.is_alive()
    assert len(data) == HOOK_PAYLOAD_MAX and sent.startswith(data)
    data.decode("utf-8")


@pytest.mark.parametrize("cut", [1, 5, 17, 30, 31, 45, 52, 60, 70])
def test_a_cut_payload_is_closed_into_json_that_keeps_what_was_whole(cut):
    full = json.dumps({"tool_name": "Edit", "tool_input": {"file_path": "a.py", "edits": [
        {"old_string": "a\\\"b", "new_string": "c\u00e9"}, {"n": 12}]}})
    whole = closed(full[:cut])
    if whole is not None:
        value = json.loads(whole)
        assert isinstance(value, dict)
    assert json.loads(closed(full)) == json.loads(full)
    assert json.loads(closed(full[:full.index(', {"n"') + 3])) == {"tool_name": "Edit", "tool_input": {
        "file_path": "a.py", "edits": [{"old_string": 'a\\"b', "new_string": "c\u00e9"}]}}


def test_a_command_of_many_cds_is_judged_within_the_hook_deadline(repo, monkeypatch):
    """110,000 `cd a && ` (880 kB, under the cap): every `cd` was read from a folder path that
    grew with each (seconds per 20,000), all of the command before the 256 kB cut, so the
    check missed the shipped 5 s deadline and failed open: the write to src/ went unchecked.
    The deadline here is 30 s, not the shipped 5 s: the growth cost a minute or more, the fix
    takes ~2 s, and a suite on a machine at load 10 took over 5 s (how fast it answers is the
    benchmark's to say, not a test's)."""
    _rule(repo)
    monkeypatch.setenv("LORESTACK_GUARDRAIL__HOOK_DEADLINE_MS", "30000")
    command = "echo 'eval(input())' > src/app.py; " + "cd a && " * 110_000 + "ls"
    payload = json.dumps({"session_id": "s", "cwd": str(repo), "hook_event_name": "PreToolUse",
                          "tool_name": "Bash", "tool_input": {"command": command}})
    out = _check(repo, "claude-code", payload)
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny", out
    assert "checked only the start" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_a_call_naming_thousands_of_files_is_judged_on_the_first_and_told(repo):
    _rule(repo)
    edits = [{"file_path": str(repo / "src" / f"m{i}.py"), "old_string": "a",
              "new_string": "eval(x)" if i == 0 else "b"} for i in range(5_000)]
    payload = json.dumps({"session_id": "s", "cwd": str(repo), "hook_event_name": "PreToolUse",
                          "tool_name": "MultiEdit", "tool_input": {"edits": edits}})
    out = _check(repo, "claude-code", payload)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny", out
    assert "the call names 5000 paths; judged its first 1000" in out["permissionDecisionReason"]
