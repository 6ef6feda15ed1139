"""A broken config.toml under a hook: the session keeps its memory and is told once, naming
the file and the problem (the hook answered empty, with nothing said but a line in hooks.log)."""

from __future__ import annotations

from tests import service_helpers
from tests.conftest import run_cli
from tests.service_helpers import context_of, hook, start_service, status

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture


def _payload(session: str, cwd) -> dict:
    return {"session_id": session, "cwd": str(cwd), "prompt": "how are refunds written?"}


def _told(text: str) -> list[str]:
    return [line for line in text.splitlines() if "settings file is broken" in line]


def test_bad_toml_keeps_the_memory_and_tells_each_session_once(stocked, long_hook_deadlines):
    config = stocked / ".memory" / "config.toml"
    config.write_text("[loader]\nbudget = \n")
    start = context_of(hook("session-start", _payload("s1", stocked), stocked))
    assert "ledger service" in start  # the memory still arrives
    told = _told(start)
    assert len(told) == 1 and str(config) in told[0] and "not valid TOML" in told[0]
    again = context_of(hook("prompt", _payload("s1", stocked), stocked))
    assert _told(again) == []  # once per session
    other = context_of(hook("prompt", _payload("s2", stocked), stocked))
    assert len(_told(other)) == 1 and "ledger service" in other  # a prompt-first session too
    doctor = run_cli("doctor", cwd=stocked)
    assert doctor.returncode != 0 and str(config) in doctor.stderr
    assert "not valid TOML" in doctor.stderr


def test_a_wrong_type_through_the_service_leaves_out_that_key_only(stocked, run_dir):
    config = stocked / ".memory" / "config.toml"
    config.write_text('[loader]\nbudget = "lots"\nprompt_budget = 5000\n')
    start_service(stocked)
    served = status().get("answered", 0)
    start = context_of(hook("session-start", _payload("t1", stocked), stocked))
    assert status().get("answered", 0) > served  # answered by the service, not in-process
    assert "Never run migrations on Friday" in start
    told = _told(start)
    assert len(told) == 1 and str(config) in told[0] and "loader.budget" in told[0]
    assert _told(context_of(hook("prompt", _payload("t1", stocked), stocked))) == []


def test_the_lenient_settings_keep_the_rest_of_the_file(tmp_path):
    from lorestack.core.settings_lenient import load_settings_lenient

    project, home = tmp_path / "p", tmp_path / "h"
    project.mkdir()
    home.mkdir()
    (home / "config.toml").write_text("this is not toml\n")
    (project / "config.toml").write_text(
        '[loader]\nbudget = "lots"\nprompt_budget = 777\n[retrieval]\nk = 3\n')
    settings, problems = load_settings_lenient(project, home)
    assert settings.loader.prompt_budget == 777 and settings.retrieval.k == 3
    assert len(problems) == 2
    assert any(str(home / "config.toml") in p and "not valid TOML" in p for p in problems)
    assert any(str(project / "config.toml") in p and "loader.budget" in p for p in problems)


def _told_env(text: str) -> list[str]:
    return [line for line in text.splitlines() if "environment setting is broken" in line]


def test_a_bad_environment_value_is_left_out_in_process(stocked, long_hook_deadlines):
    """LORESTACK_LOADER__BUDGET=lots under a hook: the hook answered '' (hooks.log only)."""
    env = {"LORESTACK_LOADER__BUDGET": "lots"}
    start = context_of(hook("session-start", _payload("e1", stocked), stocked, env=env))
    assert "ledger service" in start
    told = _told_env(start)
    assert len(told) == 1 and "LORESTACK_LOADER__BUDGET" in told[0]
    again = context_of(hook("prompt", _payload("e1", stocked), stocked, env=env))
    assert _told_env(again) == []
    listed = run_cli("list", cwd=stocked, env=env)  # a command still stops, in one line
    assert listed.returncode != 0 and "LORESTACK_LOADER__BUDGET" in listed.stderr


def test_a_bad_environment_value_through_the_service(stocked, run_dir):
    start_service(stocked)
    served = status().get("answered", 0)
    env = {"LORESTACK_LOADER__BUDGET": "lots"}
    start = context_of(hook("session-start", _payload("e2", stocked), stocked, env=env))
    assert status().get("answered", 0) > served
    assert "Never run migrations on Friday" in start
    told = _told_env(start)
    assert len(told) == 1 and "LORESTACK_LOADER__BUDGET" in told[0]


def test_the_file_hook_carries_the_notice(stocked, long_hook_deadlines):
    """`hook pre-tool` (memory anchored to a file) opened leniently but said nothing, so a
    session whose first hook it was never learnt why its settings were not applied."""
    (stocked / "src").mkdir()
    (stocked / "src" / "refunds.py").write_text("def refund(): ...\n")
    made = run_cli("remember", "--type", "caveat", "--about", "src/refunds.py",
                   "refund() must go through the ledger service", cwd=stocked)
    assert made.returncode == 0, made.stderr
    config = stocked / ".memory" / "config.toml"
    config.write_text("[loader]\nbudget = \n")

    def read(session: str) -> str:
        payload = {"session_id": session, "cwd": str(stocked), "hook_event_name": "PreToolUse",
                   "tool_name": "Read", "tool_input": {"file_path": str(stocked / "src" /
                                                                      "refunds.py")}}
        return context_of(hook("pre-tool", payload, stocked))

    first = read("f1")
    assert "must go through the ledger service" in first
    told = _told(first)
    assert len(told) == 1 and str(config) in told[0]
    assert _told(read("f2")) != [] and _told(read("f2")) == []  # once per session


def test_a_cold_index_is_rebuilt_behind_a_hook_despite_a_broken_config(tmp_path):
    """Tour finding (Claude Code): with a broken config.toml the background sync a hook starts
    on a cold index ran `lorestack search`, which stops on the broken file (its error went to
    /dev/null): the index stayed cold, every prompt answered from catalog titles only."""
    import json
    import time

    repo = tmp_path / "repo"
    assert run_cli("init", cwd=repo).returncode == 0
    assert run_cli("remember", "We deploy the kafka consumer with blue green",
                   cwd=repo).returncode == 0
    (repo / ".memory" / "config.toml").write_text("[loader\nbudget = oops\n")
    payload = {"session_id": "first", "cwd": str(repo), "hook_event_name": "UserPromptSubmit",
               "prompt": "how do we deploy the kafka consumer?"}
    proc = run_cli("hook", "prompt", "--client", "claude-code", input=json.dumps(payload),
                   cwd=repo, env={"LORESTACK_HOOKS__PROMPT_DEADLINE_MS": "120000"})
    assert proc.returncode == 0, proc.stderr
    index = repo / ".memory" / ".index"
    assert "index is cold" in (index / "hooks.log").read_text()  # the case in question
    for _ in range(240):  # the background sync it started; polled, no timing asserted
        if (index / "tantivy" / "meta.json").is_file():
            break
        time.sleep(0.5)
    assert (index / "tantivy" / "meta.json").is_file(), "the index was never rebuilt"


def _transcript(path, text: str):
    import json

    entry = {"type": "user", "uuid": "u1", "sessionId": "s-end", "cwd": str(path.parent),
             "timestamp": "2026-12-03T10:00:00Z", "message": {"role": "user", "content": text}}
    path.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    return path


def test_a_sessions_end_is_extracted_despite_a_broken_config(tmp_path):
    """Tour finding (Claude Code, service log): with a broken config.toml the session-end
    extraction (`lorestack extract`, and the service's queue) stopped on the file and retried
    until it was fixed: what the user asked to remember was not written."""
    import json
    import time

    repo = tmp_path / "repo"
    assert run_cli("init", cwd=repo).returncode == 0
    (repo / ".memory" / "config.toml").write_text("[loader\nbudget = oops\n")
    said = _transcript(tmp_path / "t.jsonl", "Remember that the CI cache lives in bucket ci-7.")
    payload = {"session_id": "s-end", "cwd": str(repo), "hook_event_name": "SessionEnd",
               "transcript_path": str(said)}
    proc = run_cli("hook", "session-end", "--client", "claude-code", input=json.dumps(payload),
                   cwd=repo)
    assert proc.returncode == 0, proc.stderr
    facts = repo / ".memory" / "facts"
    for _ in range(240):  # the detached extraction it started; polled, no timing asserted
        if any("ci-7" in f.read_text() for f in facts.glob("*.md")):
            break
        time.sleep(0.5)
    log = repo / ".memory" / ".index" / "extract.log"
    assert any("ci-7" in f.read_text() for f in facts.glob("*.md")), (
        log.read_text() if log.exists() else "no extract.log")


def test_the_services_extraction_reads_a_broken_config_leniently(tmp_path):
    from lorestack.integrations.service.jobs import ExtractionJob
    from lorestack.integrations.service.warm import run_extraction

    repo = tmp_path / "repo"
    assert run_cli("init", cwd=repo).returncode == 0
    (repo / ".memory" / "config.toml").write_text('[loader]\nbudget = "lots"\n')
    said = _transcript(tmp_path / "t.jsonl", "Remember that the nightly backup runs at 02:00.")
    run_extraction(ExtractionJob(key="s-end", transcript=str(said), client="claude-code",
                                 root=str(repo / ".memory"), session="s-end"))
    texts = [f.read_text() for f in (repo / ".memory" / "facts").glob("*.md")]
    assert any("nightly backup runs at 02:00" in t for t in texts), texts
