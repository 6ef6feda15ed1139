"""A broken settings layer under the pre-tool guardrail hook (`check --hook pre-tool`, as the
installers write it): the hook still judges with the rest of the settings and the agent is told
once what to fix. It failed open with the error on stderr only, which no agent reads, so a
typo in config.toml silently switched the guardrail off."""

from __future__ import annotations

import json

import pytest

from tests import service_helpers
from tests.conftest import run_cli
from tests.service_helpers import start_service, status
from tests.test_check_cli import claude_payload, git, git_repo, rules  # noqa: F401 - fixtures

run_dir = service_helpers.run_dir  # fixture

pytestmark = pytest.mark.usefixtures("long_hook_deadlines")


def _pre_tool(repo, command: str, *, client: str = "claude-code", session: str = "s1",
              env=None):
    payload = json.loads(claude_payload(repo, "Bash", {"command": command}))
    payload["session_id"] = session
    if client == "cursor":
        payload = {"hook_event_name": "beforeShellExecution", "command": command,
                   "cwd": str(repo), "conversation_id": session}
    done = run_cli("check", "--hook", "pre-tool", "--client", client, cwd=repo,
                   input=json.dumps(payload), env=env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else {}


def _context(out: dict) -> str:
    return out.get("hookSpecificOutput", {}).get("additionalContext", "")


def _notices(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("lorestack notice:")]


def test_bad_project_toml_still_judges_and_tells_the_agent_once(rules, repo):  # noqa: F811
    config = repo / ".memory" / "config.toml"
    config.write_text("[loader]\nbudget = \n")
    warned = _context(_pre_tool(repo, "pip install leftpad"))
    assert rules["deps"] in warned  # the rule still applies
    told = _notices(warned)
    assert len(told) == 1 and str(config) in told[0] and "not valid TOML" in told[0]
    again = _context(_pre_tool(repo, "pip install leftpad"))
    assert rules["deps"] in again and _notices(again) == []  # once per session
    # a call that passes carries the notice as context in a new session, and nothing after
    passed = _pre_tool(repo, "ls -la", session="s2")
    assert "permissionDecision" not in passed["hookSpecificOutput"]
    assert len(_notices(_context(passed))) == 1
    assert _pre_tool(repo, "ls -la", session="s2") == {}


def test_a_bad_key_is_left_out_and_a_refusal_carries_the_notice(rules, repo):  # noqa: F811
    config = repo / ".memory" / "config.toml"
    config.write_text('[guardrail]\nmax_notes = "many"\n')
    payload = claude_payload(repo, "Write", {"file_path": str(repo / "infra" / "dns.tf"),
                                             "content": 'record "www" {}'})
    done = run_cli("check", "--hook", "pre-tool", "--client", "claude-code", cwd=repo,
                   input=payload)
    inner = json.loads(done.stdout)["hookSpecificOutput"]
    assert inner["permissionDecision"] == "deny" and rules["infra"] in inner[
        "permissionDecisionReason"]
    told = _notices(inner["permissionDecisionReason"])
    assert len(told) == 1 and "guardrail.max_notes" in told[0] and str(config) in told[0]


def test_through_the_service(rules, repo, run_dir):  # noqa: F811
    """The installed hook command asks the resident service, which runs `check` itself."""
    config = repo / ".memory" / "config.toml"
    config.write_text('[guardrail]\nmax_notes = "many"\n')
    start_service(repo)
    served = status().get("answered", 0)
    warned = _context(_pre_tool(repo, "pip install leftpad", session="v1"))
    assert status().get("answered", 0) > served  # answered by the service
    assert rules["deps"] in warned
    told = _notices(warned)
    assert len(told) == 1 and "guardrail.max_notes" in told[0]


def test_bad_global_file_and_environment_value(rules, repo):  # noqa: F811
    global_config = repo.parent / "home" / ".lorestack" / "config.toml"
    global_config.parent.mkdir(parents=True, exist_ok=True)
    global_config.write_text("[hooks\n")
    out = _pre_tool(repo, "pip install leftpad", client="cursor",
                    env={"LORESTACK_LOADER__BUDGET": "lots"})
    assert out["permission"] == "ask" and rules["deps"] in out["agent_message"]
    told = _notices(out["agent_message"])
    assert len(told) == 2
    assert any(str(global_config) in line for line in told)
    assert any("LORESTACK_LOADER__BUDGET" in line and "environment" in line for line in told)


def test_the_commands_keep_failing_with_one_line(repo):
    """A person at a terminal is told and stopped: one line naming the file, exit non-zero."""
    config = repo / ".memory" / "config.toml"
    config.write_text("[loader]\nbudget = \n")
    for args in (["list"], ["search", "refunds"], ["check", "--no-retrieval", "add a cache"]):
        done = run_cli(*args, cwd=repo)
        assert done.returncode != 0, args
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and str(config) in lines[0], (args, done.stderr)
    config.unlink()
    bad_env = run_cli("list", cwd=repo, env={"LORESTACK_LOADER__BUDGET": "lots"})
    assert bad_env.returncode != 0 and "LORESTACK_LOADER__BUDGET" in bad_env.stderr


def test_pre_commit_still_blocks_and_says_what_is_broken(git_repo):  # noqa: F811
    """`check --hook pre-commit` with a broken config.toml let every commit through (failing
    open); now it judges with the rest and prints the problem for the person committing."""
    config = git_repo / ".memory" / "config.toml"
    config.write_text("[loader]\nbudget = \n")
    (git_repo / "jobs.txt").write_text("add a cron entry for the one-off cleanup\n")
    git(git_repo, "add", "jobs.txt")
    done = run_cli("check", "--hook", "pre-commit", cwd=git_repo)
    assert done.returncode == 2, done.stderr
    assert "commit blocked" in done.stderr
    broken = [line for line in done.stderr.splitlines() if "settings file is broken" in line]
    assert len(broken) == 1 and str(config) in broken[0]


def test_a_whole_section_as_json_with_a_bad_value_is_left_out(rules, repo, git_repo):  # noqa: F811
    """LORESTACK_LOADER='{"budget": "lots"}' (a section given as JSON, as pydantic-settings
    reads it) was the one broken value the lenient reading could not trace: the pre-tool hook
    skipped the check and `check --hook pre-commit` let a blocked commit through (exit 0)."""
    env = {"LORESTACK_LOADER": json.dumps({"budget": "lots", "prompt_budget": 500})}
    out = _pre_tool(repo, "pip install leftpad", env=env)
    warned = _context(out)
    assert rules["deps"] in warned  # judged with the rest of the settings
    told = _notices(warned)
    assert len(told) == 1 and "LORESTACK_LOADER" in told[0] and "budget" in told[0]
    (git_repo / "jobs.txt").write_text("add a cron entry for the one-off cleanup\n")
    git(git_repo, "add", "jobs.txt")
    done = run_cli("check", "--hook", "pre-commit", cwd=git_repo, env=env)
    assert done.returncode == 2, done.stderr
    assert "commit blocked" in done.stderr and "LORESTACK_LOADER" in done.stderr
