"""Installers on copies of real-looking client settings: idempotent, others kept, uninstall exact."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli

CLAUDE_SETTINGS = {
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "model": "opus",
    "permissions": {"allow": ["Bash(npm run lint)", "Read(~/.zshrc)"], "deny": ["Read(./.env)"]},
    "env": {"CLAUDE_CODE_ENABLE_TELEMETRY": "0"},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "~/.claude/hooks/block-rm.sh", "timeout": 5}]}],
        "SessionStart": [{"matcher": "startup", "hooks": [
            {"type": "command", "command": "cat ~/notes/today.md"}]}],
    },
    "statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},
}
CODEX_HOOKS = {"hooks": {"Stop": [{"hooks": [
    {"type": "command", "command": "python3 ~/.codex/hooks/notify.py", "timeout": 30}]}]}}
CURSOR_HOOKS = {"version": 1, "hooks": {"afterFileEdit": [{"command": "./hooks/format.sh"}],
                                        "sessionStart": [{"command": "./hooks/banner.sh"}]}}
GEMINI_SETTINGS = {
    "theme": "GitHub", "selectedAuthType": "oauth-personal",
    "mcpServers": {"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]}},
    "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
        {"name": "audit", "type": "command", "command": "./audit.sh", "timeout": 5000}]}]},
}
ORIGINALS = {
    "claude-code": (".claude/settings.json", CLAUDE_SETTINGS),
    "codex": (".codex/hooks.json", CODEX_HOOKS),
    "cursor": (".cursor/hooks.json", CURSOR_HOOKS),
    "gemini": (".gemini/settings.json", GEMINI_SETTINGS),
}


def _run(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


@pytest.mark.parametrize("client", sorted(ORIGINALS))
def test_install_is_idempotent_keeps_settings_and_uninstalls_exactly(isolated, client):
    from pathlib import Path

    rel, original = ORIGINALS[client]
    target = Path.home() / rel
    target.parent.mkdir(parents=True)
    target.write_text(json.dumps(original, indent=4))

    out = json.loads(_run("install", client, "--json").output)
    assert out["changed"] and out["added"]
    once = target.read_text()
    data = json.loads(once)
    for key, value in original.items():  # every other setting survives
        if key != "hooks":
            assert data[key] == value
    for event, groups in original.get("hooks", {}).items():
        for group in groups:
            assert group in data["hooks"][event]
    commands = json.dumps(data["hooks"])
    assert f"hook session-start --client {client}" in commands
    assert "lorestack" in commands
    backup = target.with_name(target.name + ".lorestack-backup")
    assert json.loads(backup.read_text()) == original

    # twice: nothing changes, byte for byte
    again = json.loads(_run("install", client, "--json").output)
    assert not again["changed"]
    assert target.read_text() == once

    out = json.loads(_run("uninstall", client, "--json").output)
    assert out["removed"]
    assert json.loads(target.read_text()) == original
    assert not json.loads(_run("uninstall", client, "--json").output)["changed"]


def test_claude_code_events_and_guardrail(isolated):
    from pathlib import Path

    _run("install", "claude-code", "--scope", "project", "--guardrail")
    target = isolated / ".claude" / "settings.json"
    hooks = json.loads(target.read_text())["hooks"]
    assert set(hooks) == {"SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd", "PreToolUse"}
    start = hooks["SessionStart"][0]["hooks"][0]
    assert start["type"] == "command" and start["timeout"] == 10
    assert start["command"].startswith("if command -v lorestack")  # shared file: PATH command
    anchored, guard = hooks["PreToolUse"]  # the file's memory, then the guardrail
    assert anchored["matcher"] == "Read|Edit|Write|MultiEdit"
    assert "lorestack hook pre-tool --client claude-code;" in anchored["hooks"][0]["command"]
    assert "Edit" in guard["matcher"] and "lorestack check --hook pre-tool --client claude-code;" in (
        guard["hooks"][0]["command"])
    user = json.loads(_run("install", "claude-code", "--json").output)
    user_start = json.loads(Path(user["path"]).read_text())["hooks"]["SessionStart"][0]["hooks"][0]
    assert Path(user_start["command"].split()[0]).is_absolute()  # user scope: works outside the venv
    # the project file held nothing else: uninstall removes the file we created
    _run("uninstall", "claude-code", "--scope", "project")
    assert not target.exists()
    _run("uninstall", "claude-code")
    assert not (Path.home() / ".claude" / "settings.json").exists()


def test_moved_install_is_updated_in_place_not_duplicated(isolated):
    from lorestack.integrations.installers import install

    install("codex", command="/old/venv/bin/lorestack")
    result = install("codex", command="/new/venv/bin/lorestack")
    data = json.loads(result.path.read_text())
    starts = [h["command"] for g in data["hooks"]["SessionStart"] for h in g["hooks"]]
    assert starts == ["/new/venv/bin/lorestack hook session-start --client codex"]
    assert "SessionStart" in result.updated and not result.added


def test_dry_run_writes_nothing_and_invalid_json_is_refused(isolated):
    from pathlib import Path

    result = _run("install", "gemini", "--dry-run")
    assert "BeforeAgent" in result.output
    assert not (Path.home() / ".gemini" / "settings.json").exists()

    bad = Path.home() / ".cursor" / "hooks.json"
    bad.parent.mkdir(parents=True)
    bad.write_text("{ not json")
    result = CliRunner().invoke(cli, ["install", "cursor"])
    assert result.exit_code == 1
    assert "not valid JSON" in result.output and "Traceback" not in result.output
    assert bad.read_text() == "{ not json"


def test_gemini_and_cursor_formats(isolated):
    from lorestack.integrations.installers import install

    gemini = json.loads(install("gemini").path.read_text())
    handler = gemini["hooks"]["SessionStart"][0]["hooks"][0]
    assert handler["name"] == "lorestack-sessionstart" and handler["timeout"] == 10000
    assert set(gemini["hooks"]) == {"SessionStart", "BeforeAgent", "PreCompress", "SessionEnd",
                                    "AfterTool"}
    assert gemini["hooks"]["AfterTool"][0]["matcher"] == "read_file|write_file|replace"
    cursor = json.loads(install("cursor").path.read_text())
    assert cursor["version"] == 1
    assert cursor["hooks"]["sessionStart"] == [
        {"command": cursor["hooks"]["sessionStart"][0]["command"]}]
    assert set(cursor["hooks"]) == {"sessionStart", "preCompact", "sessionEnd"}
