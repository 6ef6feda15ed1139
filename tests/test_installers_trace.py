"""Installers leave no trace: file modes, the user's JSON layout, the first backup, an exact
uninstall restoring the original bytes, and project-scope entries that work on any machine."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path

from click.testing import CliRunner

from lorestack.cli.main import cli

# laid out the way people write it by hand: 4-space indent, a compact array, unicode kept
HAND_WRITTEN = """{
    "model": "opus",
    "permissions": {"allow": ["Bash(npm run lint)", "Read(~/.zshrc)"], "deny": []},
    "env": { "GREETING": "grüß dich" },
    "hooks": {
        "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
    }
}
"""


def _run(*args):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def _settings(home: Path) -> Path:
    target = home / ".claude" / "settings.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


def test_mode_and_layout_are_kept_and_uninstall_restores_the_bytes(isolated):
    target = _settings(Path.home())
    target.write_text(HAND_WRITTEN, "utf-8")
    target.chmod(0o644)

    _run("install", "claude-code")
    after = target.read_text("utf-8")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    # members we do not own keep their exact text; the indentation stays four spaces
    assert (
        '    "permissions": {"allow": ["Bash(npm run lint)", "Read(~/.zshrc)"], "deny": []},'
        in after
    )
    assert '    "env": { "GREETING": "grüß dich" },' in after
    assert '\n        "SessionStart": [' in after
    backup = target.with_name("settings.json.lorestack-backup")
    assert backup.read_text("utf-8") == HAND_WRITTEN
    assert stat.S_IMODE(backup.stat().st_mode) == 0o644

    # a second install with a moved command must not overwrite the first backup
    from lorestack.integrations.installers import install

    install("claude-code", command="/elsewhere/bin/lorestack")
    assert backup.read_text("utf-8") == HAND_WRITTEN

    _run("uninstall", "claude-code")
    assert target.read_text("utf-8") == HAND_WRITTEN  # byte for byte
    assert not backup.exists()
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


def test_backup_is_kept_when_the_user_changed_something_in_between(isolated):
    target = _settings(Path.home())
    target.write_text(HAND_WRITTEN, "utf-8")
    _run("install", "claude-code")
    data = json.loads(target.read_text("utf-8"))
    data["model"] = "sonnet"  # the user's own change after our install
    target.write_text(json.dumps(data, indent=4, ensure_ascii=False) + "\n", "utf-8")
    _run("uninstall", "claude-code")
    backup = target.with_name("settings.json.lorestack-backup")
    assert backup.exists()  # not an exact uninstall: the original stays available
    assert json.loads(target.read_text("utf-8"))["model"] == "sonnet"
    assert "lorestack" not in target.read_text("utf-8")


def test_dry_run_prints_content_and_new_file_gets_umask_mode(isolated):
    out = _run("install", "codex", "--dry-run").output
    assert '"SessionStart"' in out and "hook session-start --client codex" in out
    assert not (Path.home() / ".codex").exists()
    old = os.umask(0o022)
    try:
        path = json.loads(_run("install", "codex", "--json").output)["path"]
    finally:
        os.umask(old)
    assert stat.S_IMODE(Path(path).stat().st_mode) == 0o644
    _run("uninstall", "codex")
    assert not Path(path).exists() and not Path(path).parent.exists()  # no trace left


def test_project_scope_uses_path_command_and_says_when_missing(isolated):
    _run("install", "claude-code", "--scope", "project")
    target = isolated / ".claude" / "settings.json"
    text = target.read_text("utf-8")
    assert str(Path(os.sys.executable).parent) not in text  # nothing machine-specific
    command = json.loads(text)["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    # on a teammate's machine without lorestack: one clear line on stderr, non-blocking exit 1
    empty_bin = isolated / "empty-bin"
    empty_bin.mkdir()
    done = subprocess.run(
        ["/bin/sh", "-c", command], capture_output=True, text=True, env={"PATH": str(empty_bin)}
    )
    assert done.returncode == 1
    assert "`lorestack` command is not on PATH" in done.stderr
    # with lorestack on PATH the hook runs it with our arguments
    fake = empty_bin / "lorestack"
    fake.write_text('#!/bin/sh\necho "ran: $*"\n')
    fake.chmod(0o755)
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        capture_output=True,
        text=True,
        env={"PATH": f"{empty_bin}:/usr/bin:/bin"},
    )
    assert done.stdout.strip() == "ran: hook session-start --client claude-code"
    # installing again recognises the entries; uninstall removes them and the file we created
    assert not json.loads(_run("install", "claude-code", "--scope", "project", "--json").output)[
        "changed"
    ]
    _run("uninstall", "claude-code", "--scope", "project")
    assert not target.exists()
    assert not list(isolated.rglob("*.lorestack-backup"))


def test_render_json_changes_only_what_differs():
    from lorestack.integrations.installers import render_json

    original = '{\n\t"model": "x",\n\t"hooks": {"A": 1},\n\t"env": {"a": [1, 2]}\n}\n'
    data = json.loads(original)
    without = {"model": "x", "env": {"a": [1, 2]}}
    assert render_json(original, data, without) == '{\n\t"model": "x",\n\t"env": {"a": [1, 2]}\n}\n'
    added = {**data, "new": [1]}
    text = render_json(original, data, added)
    assert text.startswith('{\n\t"model": "x",\n\t"hooks": {"A": 1},') and json.loads(text) == added
    assert render_json('{"a":1}', {"a": 1}, {"a": 1, "b": 2}) == '{"a":1,"b":2}\n'
