"""`lorestack check` / `criteria test` / `install pre-commit` as users and clients call them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli
from tests.conftest import run_cli

# the hooks here are about verdicts and replies, not speed: a loaded machine must not turn a
# slow check into a fail-open (the deadline test sets its own 0 ms)
pytestmark = pytest.mark.usefixtures("long_hook_deadlines")

CRON = [
    "--type",
    "criterion",
    "No cron for one-off tasks",
    "--keyword",
    "one-off",
    "--forbid",
    "cron",
    "--verdict",
    "block",
    "--rationale",
    "one-off jobs get forgotten",
]
INFRA = [
    "--type",
    "criterion",
    "Nothing under infra/ without a review note",
    "--applies-path",
    "infra/**",
    "--require",
    "review note",
    "--verdict",
    "block",
]
DEPS = [
    "--type",
    "criterion",
    "New dependencies need a justification",
    "--keyword",
    "pip install",
    "--require",
    "because",
    "--verdict",
    "warn",
]


def invoke(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def remember(*args) -> str:
    result = invoke("remember", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["item"]["id"]


@pytest.fixture
def rules(repo):
    return {"cron": remember(*CRON), "infra": remember(*INFRA), "deps": remember(*DEPS)}


def git(cwd, *args, check=True, env=None):
    return subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=check,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture
def git_repo(repo, rules):
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "dev@example.com")
    git(repo, "config", "user.name", "Dev")
    git(repo, "config", "commit.gpgsign", "false")
    (repo / "README.md").write_text("hello\n")
    git(repo, "add", "README.md")
    git(repo, "commit", "-qm", "init")
    return repo


# ---- exit codes and output ---------------------------------------------------------------
def test_block_exits_2_and_cites_the_rule(rules):
    result = invoke("check", "--no-retrieval", "Add a cron job for the one-off backfill")
    assert result.exit_code == 2
    # the verdict is the command's output whatever it is (a block piped to a pager shows too)
    assert rules["cron"] in result.stdout and "No cron for one-off tasks" in result.stdout
    assert "set 20" in result.stdout and "one-off jobs get forgotten" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("block (") and result.stderr == ""


def test_pass_exits_0_on_stdout(rules):
    result = invoke("check", "--no-retrieval", "Run the one-off backfill by hand, no cron")
    assert result.exit_code == 0
    assert result.stdout.startswith("pass (3 criteria checked: 1 applied and held)")


def test_warn_exits_1_and_2_with_strict(rules):
    plain = invoke("check", "--no-retrieval", "pip install leftpad")
    strict = invoke("check", "--no-retrieval", "--strict", "pip install leftpad")
    assert plain.exit_code == 1 and "WARN" in plain.stdout and plain.stderr == ""
    assert strict.exit_code == 2
    nothing = invoke("check", "--no-retrieval", "Fix the typo in the changelog")
    assert nothing.exit_code == 0


def test_json_is_the_only_stdout(rules):
    result = invoke("check", "--no-retrieval", "--json", "Add a cron job for the one-off backfill")
    data = json.loads(result.stdout)
    assert result.exit_code == 2
    assert data["verdict"] == "block"
    assert data["violations"][0]["id"] == rules["cron"]
    assert data["violations"][0]["set_on"] and data["violations"][0]["quote"]


def test_file_and_stdin_inputs(rules, repo):
    plan = repo / "plan.md"
    plan.write_text("# Plan\n\nSchedule the one-off cleanup with cron.\n")
    assert invoke("check", "--no-retrieval", "--file", str(plan)).exit_code == 2
    assert invoke("check", "--no-retrieval", "-", input="one-off job via cron").exit_code == 2


def test_binary_stdin_is_refused_as_a_binary_file_is(rules, repo):
    # `check -` (and a bare `check` fed by a pipe) said "pass" for NUL bytes and "nothing was
    # written" for bytes that are not UTF-8, exit 0 / 1: a script read a refusal as an answer
    plan = repo / "plan.bin"
    plan.write_bytes(b"one-off job\x00via cron")
    by_file = invoke("check", "--no-retrieval", "--file", str(plan))
    assert by_file.exit_code == 3 and "NUL bytes" in by_file.stderr
    for args in (["-"], []):
        for data, problem in ((b"one-off job\x00via cron", "contains NUL bytes"),
                              (b"one-off job \xff via cron", "is not valid UTF-8")):
            piped = invoke("check", "--no-retrieval", *args, input=data)
            assert piped.exit_code == 3, (args, data, piped.output)
            assert piped.stdout == "" and piped.stderr.count("\n") == 1, piped.stderr
            assert f"stdin {problem}" in piped.stderr and "nothing was checked" in piped.stderr
    assert by_file.stderr.split("contains")[1] == invoke(
        "check", "--no-retrieval", "-", input=b"one-off job\x00via cron").stderr.split("contains")[1]


def test_errors_exit_3_with_one_line(rules):
    # 1 is a warn and 2 a block: an error must be neither
    missing = invoke("check", "--file", "nope.md")
    assert missing.exit_code == 3 and missing.stderr.count("\n") == 1
    assert "nope.md" in missing.stderr


def test_usage_mistakes_exit_3_not_as_a_block(rules):
    nothing = invoke("check")
    assert nothing.exit_code == 3 and "give the proposal" in nothing.stderr
    typo = invoke("check", "--stirct", "one-off job via cron")
    assert typo.exit_code == 3 and "No such option" in typo.stderr
    # a pre-tool hook with a bad option must not answer exit 2, which a client reads as deny
    hook = invoke("check", "--hook", "pre-tool", "--client", "nobody", input="{}")
    assert hook.exit_code == 3 and hook.stdout == ""
    # the same commands' answers keep their codes
    assert invoke("check", "--no-retrieval", "one-off job via cron").exit_code == 2


def test_diff_of_the_working_tree_and_of_a_commit(git_repo):
    (git_repo / "infra").mkdir()
    (git_repo / "infra" / "main.tf").write_text('resource "x" {}\n')
    git(git_repo, "add", "infra/main.tf")
    result = invoke("check", "--no-retrieval", "--diff")
    assert result.exit_code == 2 and "infra/** ~ infra/main.tf" in result.stdout
    git(git_repo, "commit", "-qm", "add infra\n\nReview note: approved by Ana")
    assert invoke("check", "--no-retrieval", "--diff", "HEAD").exit_code == 0  # message counts
    assert invoke("check", "--no-retrieval", "--diff=HEAD~1..HEAD").exit_code == 2


def test_working_tree_diff_judges_files_git_does_not_track_yet(git_repo):
    """Review (twenty-eighth session): `check --diff` on a change that only created a file
    answered "pass: empty proposal" (exit 0) — `git diff HEAD` leaves untracked files out, so a
    new file that breaks a rule passed unseen. They are new files of the working tree."""
    (git_repo / "infra").mkdir()
    (git_repo / "infra" / "main.tf").write_text('resource "x" {}\n')
    (git_repo / ".gitignore").write_text("build/\n")
    (git_repo / "build").mkdir()
    (git_repo / "build" / "out.txt").write_text("one-off: cron job\n")  # ignored: not judged
    result = invoke("check", "--no-retrieval", "--json", "--diff")
    data = json.loads(result.stdout)
    assert result.exit_code == 2 and data["verdict"] == "block", result.output
    assert "infra/main.tf" in result.stdout and "build/out.txt" not in result.stdout
    (git_repo / "infra" / "main.tf").unlink()
    assert invoke("check", "--no-retrieval", "--diff").exit_code == 0  # .gitignore alone
    # a revision's diff is what that commit introduced: untracked files are not part of it
    (git_repo / "infra" / "main.tf").write_text('resource "x" {}\n')
    assert invoke("check", "--no-retrieval", "--diff", "HEAD").exit_code == 0


def test_criteria_test_judges_a_diff_as_check_does(git_repo, rules):
    """`criteria test` took TEXT or --file only: a rule could not be tried on the change it is
    for (review, twenty-seventh session). --diff and --staged read it as `check` does."""
    (git_repo / "infra").mkdir()
    (git_repo / "infra" / "main.tf").write_text('resource "x" {}\n')
    git(git_repo, "add", "infra/main.tf")
    staged = invoke("criteria", "test", rules["infra"], "--staged")
    assert staged.exit_code == 0 and "would answer: block" in staged.stdout, staged.output
    worktree = invoke("criteria", "test", rules["infra"], "--diff", "--json")
    assert json.loads(worktree.stdout)["verdict"] == "block"
    git(git_repo, "commit", "-qm", "add infra\n\nReview note: approved by Ana")
    kept = invoke("criteria", "test", rules["infra"], "--diff=HEAD")
    assert "would answer: pass" in kept.stdout, kept.output
    wrong = invoke("criteria", "test", rules["infra"], "--diff=no-such-rev")
    assert wrong.exit_code == 1 and "not a commit" in wrong.stderr  # an error, as elsewhere
    assert wrong.stderr.count("\n") == 1


def test_git_inputs_outside_git_or_with_a_wrong_revision_say_so(repo, git_repo, monkeypatch):
    """--staged outside a repository, and --diff with a revision git does not know, are one
    line each that names the problem (exit 3), not git's own complaint about an option."""
    for args in (["--staged"], ["--diff"], ["--diff", "HEAD"]):
        done = invoke("check", "--no-retrieval", *args)
        assert done.exit_code in (0, 1, 2), (args, done.stderr)  # in the repository: judged
    outside = repo.parent / "not-a-repo"
    outside.mkdir()
    monkeypatch.chdir(outside)
    assert invoke("init").exit_code == 0
    remember(*CRON)
    staged = invoke("check", "--no-retrieval", "--staged")
    assert staged.exit_code == 3 and "not inside a git repository" in staged.stderr, staged.stderr
    assert "unknown option" not in staged.stderr
    monkeypatch.chdir(git_repo)
    wrong = invoke("check", "--no-retrieval", "--diff=no-such-rev")
    assert wrong.exit_code == 3 and wrong.stderr.count("\n") == 1
    assert "no-such-rev" in wrong.stderr and "not a commit" in wrong.stderr, wrong.stderr


def test_removed_lines_are_not_judged(git_repo):
    (git_repo / "ops.txt").write_text("one-off: cron job\n")
    git(git_repo, "add", "ops.txt")
    git(git_repo, "commit", "-qm", "ops")
    (git_repo / "ops.txt").write_text("one-off: run by hand\n")
    assert invoke("check", "--no-retrieval", "--diff").exit_code == 0


def test_retrieval_failure_degrades_to_rules(rules, repo, tmp_path, monkeypatch):
    # (a file where .index belongs no longer breaks retrieval: it is moved aside; a missing
    # embedding model still does)
    monkeypatch.setenv("LORESTACK_EMBEDDING__MODEL_DIR", str(tmp_path / "no-model-here"))
    monkeypatch.setenv("LORESTACK_EMBEDDING__ALLOW_DOWNLOAD", "false")
    result = invoke("check", "--retrieval", "--json", "Add a cron job for the one-off backfill")
    data = json.loads(result.stdout)
    assert data["verdict"] == "block" and result.exit_code == 2
    assert any("retrieval unavailable" in w for w in data["warnings"])


# ---- criteria test and authoring help -------------------------------------------------------
def test_criteria_test_shows_each_step(rules):
    result = invoke("criteria", "test", rules["cron"], "No cron: run the one-off job by hand")
    assert result.exit_code == 0
    assert "applies: keyword 'one-off'" in result.stdout
    assert "ignored: 'cron' negated by 'no'" in result.stdout
    assert "would answer: pass" in result.stdout
    violated = invoke("criteria", "test", rules["cron"], "one-off job via cron")
    assert "would answer: block" in violated.stdout


def test_criteria_test_on_a_superseded_criterion_says_it_is_skipped(rules):
    new = invoke("supersede", rules["cron"], "No cron for one-off tasks, ever")
    assert new.exit_code == 0
    result = invoke("criteria", "test", rules["cron"], "one-off job via cron")
    assert "superseded by" in result.stdout and "would answer: nothing (skipped)" in result.stdout


def test_remember_says_what_a_criterion_is_missing(repo):
    # a sentence alone is accepted as typed (issue 22): it applies by its words and meaning
    result = invoke("remember", "--type", "criterion", "Stay focused")
    assert result.exit_code == 0 and "understood:" in result.stdout
    bad = invoke("remember", "--type", "criterion", "x", "--keyword", "a", "--forbid", "/(oops/")
    assert bad.exit_code == 1 and "invalid regex /(oops/" in bad.stderr
    vague = invoke("remember", "--type", "criterion", "Mind the API", "--keyword", "api")
    assert vague.exit_code == 0 and "no terms the rules can check" in vague.stdout
    # one word is no rule: nothing says what to do or avoid (review, twenty-seventh session)
    for word in ("ok", "the", "  Redis. "):
        one = invoke("remember", "--type", "criterion", word)
        assert one.exit_code == 1 and "one word" in one.stderr and "Traceback" not in one.output
    assert not list((repo / ".memory" / "criteria").glob("ok*.md"))
    # with terms of its own a one-word title is still a rule
    titled = invoke("remember", "--type", "criterion", "Redis", "--forbid", "redis")
    assert titled.exit_code == 0


def test_unless_exempts(repo):
    cid = remember(
        "--type",
        "criterion",
        "No new cache",
        "--keyword",
        "cache",
        "--forbid",
        "add a cache",
        "--unless",
        "ADR",
        "--verdict",
        "block",
    )
    assert invoke("check", "--no-retrieval", "Add a cache for sessions").exit_code == 2
    assert invoke("check", "--no-retrieval", "Add a cache for sessions (ADR-9)").exit_code == 0
    assert cid


# ---- PreToolUse hook, as Claude Code runs it -------------------------------------------------
def claude_payload(repo, tool, tool_input):
    return json.dumps(
        {
            "session_id": "abc123",
            "transcript_path": str(repo / "t.jsonl"),
            "cwd": str(repo),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": "toolu_01ABC",
        }
    )


def test_pretooluse_hook_denies_with_the_rule(rules, repo):
    payload = claude_payload(
        repo, "Write", {"file_path": str(repo / "infra" / "dns.tf"), "content": 'record "www" {}'}
    )
    done = run_cli(
        "check", "--hook", "pre-tool", "--client", "claude-code", input=payload, cwd=repo
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse" and out["permissionDecision"] == "deny"
    assert rules["infra"] in out["permissionDecisionReason"]
    assert "Nothing under infra/ without a review note" in out["permissionDecisionReason"]


def test_pretooluse_hook_passes_silently_and_warns_as_context(rules, repo):
    ok = run_cli(
        "check",
        "--hook",
        "pre-tool",
        cwd=repo,
        input=claude_payload(repo, "Bash", {"command": "ls -la", "description": "list"}),
    )
    assert ok.returncode == 0 and ok.stdout == ""
    warn = run_cli(
        "check",
        "--hook",
        "pre-tool",
        cwd=repo,
        input=claude_payload(repo, "Bash", {"command": "pip install leftpad"}),
    )
    data = json.loads(warn.stdout)
    assert "permissionDecision" not in data["hookSpecificOutput"]
    assert rules["deps"] in data["hookSpecificOutput"]["additionalContext"]
    strict = run_cli(
        "check",
        "--hook",
        "pre-tool",
        "--strict",
        cwd=repo,
        input=claude_payload(repo, "Bash", {"command": "pip install leftpad"}),
    )
    assert json.loads(strict.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_hook_fails_open_unless_fail_closed(rules, repo):
    broken = run_cli("check", "--hook", "pre-tool", cwd=repo, input="{not json")
    assert broken.returncode == 0 and broken.stdout == ""
    assert "lorestack check failed" in broken.stderr
    # the same log as every other hook's failures
    assert "check --hook pre-tool:" in (repo / ".memory" / ".index" / "hooks.log").read_text()
    closed = run_cli("check", "--hook", "pre-tool", "--fail-closed", cwd=repo, input="{not json")
    assert json.loads(closed.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_a_hook_payload_that_is_not_utf8_is_refused_as_check_dash_refuses_it(rules, repo):
    """In-process it said 'the hook payload on stdin is empty' and exited 0; the thin client
    refused it (exit 1) saying 'nothing was written'. Now both: the one line `check -` gives."""
    payload = claude_payload(repo, "Bash", {"command": "ls NAME"}).encode()
    payload = payload.replace(b"NAME", b"caf\xe9")  # Latin-1, as an old shell may send
    done = invoke("check", "--hook", "pre-tool", "--client", "claude-code", input=payload)
    assert done.exit_code == 1 and done.stdout == "", done.output
    assert done.stderr.count("\n") == 1, done.stderr
    assert "refused: stdin is not valid UTF-8" in done.stderr
    assert "nothing was checked" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("payload", [
    {"tool_name": 5, "tool_input": {"command": "ls"}},
    {"tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": 7},
    {"tool_name": "Bash", "tool_input": {"command": "ls"}, "workspace_roots": "/tmp"},
    {"tool_name": ["Bash"], "tool_input": {"command": "ls"}},
])
def test_a_payload_with_wrong_types_fails_open_with_one_line(rules, repo, payload):
    """A client payload whose fields have the wrong JSON types answers nothing (exit 0) with at
    most one line on stderr (as a payload that is not JSON does), never a multi-line
    validation report or a traceback."""
    done = invoke("check", "--hook", "pre-tool", input=json.dumps(payload))
    assert done.exit_code == 0 and done.stdout == ""
    assert done.stderr.count("\n") <= 1 and "Traceback" not in done.stderr, done.stderr


def test_hook_deadline_fails_open_or_closed(rules, repo):
    """A check that cannot finish in time answers anyway (deadline injected: 0 ms)."""
    payload = claude_payload(repo, "Bash", {"command": "crontab -e"})
    env = {"LORESTACK_GUARDRAIL__HOOK_DEADLINE_MS": "0"}
    opened = run_cli("check", "--hook", "pre-tool", cwd=repo, input=payload, env=env)
    assert opened.returncode == 0 and opened.stdout == ""
    assert "deadline of 0 ms passed" in opened.stderr
    closed = run_cli("check", "--hook", "pre-tool", "--fail-closed", cwd=repo, input=payload,
                     env=env)
    assert json.loads(closed.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    log = (repo / ".memory" / ".index" / "hooks.log").read_text()
    assert "check --hook pre-tool: deadline of 0 ms passed" in log
    commit = run_cli("check", "--hook", "pre-commit", cwd=repo, env=env)
    assert commit.returncode == 0 and "commit allowed: the guardrail fails open" in commit.stderr


def test_other_clients_reply_in_their_own_format(rules, repo):
    cursor = run_cli(
        "check",
        "--hook",
        "pre-tool",
        "--client",
        "cursor",
        cwd=repo,
        input=json.dumps(
            {
                "hook_event_name": "beforeShellExecution",
                "command": "pip install leftpad",
                "cwd": str(repo),
            }
        ),
    )
    data = json.loads(cursor.stdout)
    assert data["permission"] == "ask" and rules["deps"] in data["agent_message"]
    gemini = run_cli(
        "check",
        "--hook",
        "pre-tool",
        "--client",
        "gemini",
        cwd=repo,
        input=json.dumps(
            {
                "hook_event_name": "BeforeTool",
                "tool_name": "write_file",
                "tool_input": {"file_path": "infra/x.tf", "content": "x"},
            }
        ),
    )
    data = json.loads(gemini.stdout)
    assert data["decision"] == "deny" and rules["infra"] in data["reason"]
    codex = run_cli(
        "check",
        "--hook",
        "pre-tool",
        "--client",
        "codex",
        cwd=repo,
        input=json.dumps(
            {
                "hook_event_name": "PreToolUse",
                "tool_name": "apply_patch",
                "tool_input": {
                    "command": [
                        "apply_patch",
                        "*** Begin Patch\n*** Add File: infra/a.tf\n+resource {}\n*** End Patch",
                    ]
                },
            }
        ),
    )
    assert json.loads(codex.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


# ---- pre-commit, in a real repository -----------------------------------------------------
def test_precommit_hook_blocks_a_commit_and_uninstalls_cleanly(git_repo):
    installed = invoke("install", "pre-commit")
    assert installed.exit_code == 0 and "created" in installed.stdout
    assert "unchanged" in invoke("install", "pre-commit").stdout
    hook = git_repo / ".git" / "hooks" / "pre-commit"
    (git_repo / "infra").mkdir()
    (git_repo / "infra" / "main.tf").write_text('resource "x" {}\n')
    git(git_repo, "add", "infra/main.tf")
    blocked = git(git_repo, "commit", "-qm", "infra", check=False)
    assert blocked.returncode != 0
    assert "Nothing under infra/ without a review note" in blocked.stderr
    (git_repo / "infra" / "REVIEW.md").write_text("Review note: approved by Ana\n")
    git(git_repo, "add", "infra/REVIEW.md")
    allowed = git(git_repo, "commit", "-qm", "infra with review", check=False)
    assert allowed.returncode == 0, allowed.stderr
    assert "removed" in invoke("uninstall", "pre-commit").stdout
    assert not hook.exists()


def test_precommit_keeps_an_existing_hook(git_repo):
    hook = git_repo / ".git" / "hooks" / "pre-commit"
    hook.write_text("#!/bin/sh\necho existing-hook-ran\nexit 0\n")
    hook.chmod(0o755)
    result = invoke("install", "pre-commit")
    assert "updated" in result.stdout and "backup" in result.stdout
    text = hook.read_text()
    assert text.index("lorestack guardrail") < text.index("existing-hook-ran")
    invoke("uninstall", "pre-commit")
    assert hook.read_text() == "#!/bin/sh\necho existing-hook-ran\nexit 0\n"


def test_precommit_framework_entry(git_repo):
    import yaml

    config = git_repo / ".pre-commit-config.yaml"
    config.write_text(
        "# my hooks\nrepos:\n  - repo: https://github.com/psf/black\n"
        "    rev: 24.1.0\n    hooks:\n      - id: black\n"
    )
    assert invoke("install", "pre-commit", "--framework").exit_code == 0
    data = yaml.safe_load(config.read_text())
    local = [r for r in data["repos"] if r["repo"] == "local"][0]
    assert local["hooks"][0]["id"] == "lorestack-check"
    assert "check --hook pre-commit --staged" in local["hooks"][0]["entry"]
    assert config.read_text().startswith("# my hooks")  # comments survive
    invoke("uninstall", "pre-commit", "--framework")
    assert yaml.safe_load(config.read_text())["repos"][0]["hooks"][0]["id"] == "black"


def test_precommit_mode_fails_open_outside_a_memory(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    git(outside, "init", "-q")
    done = run_cli("check", "--hook", "pre-commit", cwd=outside)
    assert done.returncode == 0 and "commit allowed" in done.stderr


def test_check_is_a_python_module_command():
    done = subprocess.run(
        [sys.executable, "-m", "lorestack.cli", "check", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "--hook" in done.stdout


def test_a_shell_calls_description_does_not_block_a_harmless_command(repo):
    """Tour finding (Claude Code): the Bash tool's `description`, the agent's prose about the
    command, was judged as if it ran: `terraform plan` described as "Preview the changes before
    terraform apply" was denied by a confirmed block rule against `terraform apply`."""
    made = run_cli("remember", "Never run terraform apply outside CI", "--type", "criterion",
                   "--keyword", "terraform apply", "--forbid", "terraform apply",
                   "--verdict", "block", cwd=repo)
    assert made.returncode == 0, made.stderr
    said = "Preview the changes before terraform apply"
    plan = run_cli("check", "--hook", "pre-tool", "--client", "claude-code", cwd=repo,
                   input=claude_payload(repo, "Bash", {"command": "terraform plan -out p.tfplan",
                                                       "description": said}))
    assert plan.returncode == 0, plan.stderr
    assert "deny" not in plan.stdout, plan.stdout
    apply = run_cli("check", "--hook", "pre-tool", "--client", "claude-code", cwd=repo,
                    input=claude_payload(repo, "Bash", {"command": "terraform apply -auto-approve",
                                                        "description": "Apply the plan"}))
    out = json.loads(apply.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny" and "terraform apply" in out[
        "permissionDecisionReason"]


def test_pre_commit_names_a_broken_environment_variable(git_repo):
    """`check --hook pre-commit` called a bad LORESTACK_* value "a settings file is broken"."""
    (git_repo / "notes.txt").write_text("hello\n")
    git(git_repo, "add", "notes.txt")
    env = {"LORESTACK_LOADER__BUDGET": "lots"}
    done = run_cli("check", "--hook", "pre-commit", cwd=git_repo, env=env)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    told = [line for line in done.stderr.splitlines() if "LORESTACK_LOADER__BUDGET" in line]
    assert len(told) == 1
    assert told[0].startswith("warning: an environment variable is broken: LORESTACK_LOADER__BUDGET")
    assert "settings file" not in told[0]
