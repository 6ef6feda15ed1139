"""The Claude Code plugin: `/plugin marketplace add` + `/plugin install lorestack` give the same
hooks `lorestack install claude-code --scope project` writes, and with the real Claude Code
(npm, offline, fake model server) session-start context and prompt recall arrive through it.

The plugin's files are committed (`.claude-plugin/marketplace.json`, `plugin/`); the first test
keeps its hooks equal to the installer's, so the two ways of installing cannot drift apart."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from lorestack.integrations import installers
from tests.fake_model_server import FakeModelServer
from tests.test_real_clients import (  # noqa: F401 - client_bin and service_on are fixtures
    PROMPT,
    RUN_TIMEOUT_S,
    _log_text,
    assert_both_facts_reached_the_model,
    assert_served_by_the_service,
    claude_env,
    client_bin,
    make_project,
    run_client,
    service_on,
    start_and_warm,
)

REPO = Path(__file__).resolve().parents[1]
PLUGIN = REPO / "plugin"


def test_the_plugin_hooks_are_the_installers_project_hooks(isolated):
    result = installers.install("claude-code", "project", project_dir=isolated, dry_run=True)
    expected = json.loads(result.content)["hooks"]
    shipped = json.loads((PLUGIN / "hooks" / "hooks.json").read_text())
    assert shipped["hooks"] == expected, (
        "plugin/hooks/hooks.json differs from `lorestack install claude-code --scope project`; "
        "write the installer's hooks into it")
    manifest = json.loads((PLUGIN / ".claude-plugin" / "plugin.json").read_text())
    market = json.loads((REPO / ".claude-plugin" / "marketplace.json").read_text())
    entry = next(p for p in market["plugins"] if p["name"] == manifest["name"] == "lorestack")
    assert (REPO / entry["source"]).resolve() == PLUGIN
    import tomllib

    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert manifest["version"] == entry["version"] == version
    mcp = json.loads((PLUGIN / ".mcp.json").read_text())["mcpServers"]["lorestack"]
    assert [mcp["command"], *mcp["args"]] == ["lorestack", "mcp"]


@pytest.mark.real_clients
@pytest.mark.slow
def test_claude_code_receives_memory_through_the_plugin(client_bin, service_on, tmp_path):  # noqa: F811
    repo = make_project(tmp_path / "repo", shipped_deadlines=True)
    before = start_and_warm(repo)
    log_before = _log_text(repo)
    home = tmp_path / "home"
    with FakeModelServer(reply="Noted.", max_seconds=RUN_TIMEOUT_S + 30) as server:
        env = claude_env(client_bin, home, server)
        # the plugin's hooks call `lorestack` from PATH, as they do on a user's machine
        env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
        for argv in (["claude", "plugin", "marketplace", "add", str(REPO)],
                     ["claude", "plugin", "install", "lorestack@lorestack"]):
            done = run_client(argv, repo, env)
            assert done.returncode == 0, (argv, done.stdout[-1000:], done.stderr[-1000:])
        assert not (repo / ".claude").exists()  # nothing came from our own installer
        run = run_client(["claude", "-p", PROMPT], repo, env)
    assert_both_facts_reached_the_model(server, run, repo)
    assert "Noted." in run.stdout
    assert_served_by_the_service(repo, before, log_before)
