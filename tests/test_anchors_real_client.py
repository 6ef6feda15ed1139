"""Memory arrives with the file, in the real Claude Code (npm, offline, fake model server): the
model asks to Read src/users/repo.ts, and the request that follows the tool call carries that
file's anchored caveat; reading another file brings no anchored memory."""

from __future__ import annotations

import subprocess

import pytest

from tests.conftest import run_cli
from tests.fake_model_server import FakeModelServer
from tests.test_anchors import REPO_TS
from tests.test_real_clients import (  # noqa: F401 - client_bin is a fixture
    RUN_TIMEOUT_S,
    claude_env,
    client_bin,
    gemini_env,
    install,
    run_client,
)

pytestmark = [pytest.mark.real_clients, pytest.mark.slow,
              pytest.mark.usefixtures("long_hook_deadlines")]
CAVEAT = "getUserById caches for 60 s; invalidate on role change (codeword WREN-4410)"
HEADER = "lorestack: remembered about "


@pytest.fixture
def anchored_repo(tmp_path):
    repo = tmp_path / "repo"
    (repo / "src" / "users").mkdir(parents=True)
    (repo / "src" / "users" / "repo.ts").write_text(REPO_TS)
    (repo / "src" / "other.ts").write_text("export const other = 1;\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert run_cli("init", cwd=repo).returncode == 0
    done = run_cli("remember", CAVEAT, "--type", "caveat", "--about",
                   "src/users/repo.ts:getUserById", cwd=repo)
    assert done.returncode == 0, done.stderr
    return repo


def _after_tool_call(client_bin, repo, tmp_path, path: str) -> str:  # noqa: F811
    install("claude-code", repo)
    call = {"name": "Read", "input": {"file_path": str(repo / path)}}
    with FakeModelServer(reply="Read it.", max_seconds=RUN_TIMEOUT_S + 30,
                         tool_calls=[call]) as server:
        env = claude_env(client_bin, tmp_path / "home", server)
        run = run_client(["claude", "-p", f"Have a look at {path}", "--allowedTools", "Read"],
                         repo, env)
    assert run.returncode == 0, run.stderr[-2000:]
    requests = server.model_requests()
    assert len(requests) >= 2, [r.path for r in server.requests]
    return requests[-1].body  # the request after the tool call


def test_claude_code_receives_the_files_caveat_with_the_read(client_bin, anchored_repo, tmp_path):  # noqa: F811
    body = _after_tool_call(client_bin, anchored_repo, tmp_path, "src/users/repo.ts")
    assert HEADER + "src/users/repo.ts" in body and "WREN-4410" in body


def test_another_file_brings_no_anchored_memory(client_bin, anchored_repo, tmp_path):  # noqa: F811
    body = _after_tool_call(client_bin, anchored_repo, tmp_path, "src/other.ts")
    assert HEADER not in body


def test_gemini_cli_gets_the_files_caveat_with_the_read_result(client_bin, anchored_repo,  # noqa: F811
                                                              tmp_path):
    """Gemini CLI's BeforeTool cannot add context; its AfterTool appends ours to the result of
    read_file, so the caveat reaches the model with the file itself."""
    import json

    home = tmp_path / "home"
    install("gemini", anchored_repo)
    settings = home / ".gemini" / "settings.json"
    data = json.loads(settings.read_text())
    data.setdefault("security", {}).setdefault("auth", {})["selectedType"] = "gemini-api-key"
    settings.write_text(json.dumps(data, indent=2))
    bodies = []
    for path in ("src/users/repo.ts", "src/other.ts"):
        call = {"name": "read_file", "input": {"file_path": str(anchored_repo / path)}}
        with FakeModelServer(reply="Read it.", max_seconds=RUN_TIMEOUT_S + 30,
                             tool_calls=[call]) as server:
            env = gemini_env(client_bin, home, server)
            run = run_client(["gemini", "-p", f"Have a look at {path}", "--yolo"],
                             anchored_repo, env)
        assert run.returncode == 0, run.stderr[-2000:]
        bodies.append(server.model_requests()[-1].body)
    assert HEADER + "src/users/repo.ts" in bodies[0] and "WREN-4410" in bodies[0]
    assert HEADER not in bodies[1]


def test_codex_gets_the_files_caveat_with_a_shell_read(client_bin, anchored_repo,  # noqa: F811
                                                       tmp_path):
    """Codex reads files through its shell tool; its PreToolUse (tool "Bash") names the file in
    the command, and our answer reaches the model in the request after the call. A command on
    another file brings nothing."""
    from tests.test_real_clients import _codex_provider, client_env

    bodies = []
    for path in ("src/users/repo.ts", "src/other.ts"):
        home = tmp_path / "home"  # where `install` writes (each `codex exec` is a new session)
        call = {"name": "exec_command", "input": {"cmd": f"sed -n 1,40p {path}"}}
        with FakeModelServer(reply="Read it.", max_seconds=RUN_TIMEOUT_S + 30,
                             tool_calls=[call]) as server:
            _codex_provider(home, server.url)  # a new config.toml: trust the hooks again
            install("codex", anchored_repo, "--trust")
            env = client_env(client_bin, home, FAKE_API_KEY="dummy")
            run = run_client(["codex", "exec", "--skip-git-repo-check",
                              "--dangerously-bypass-approvals-and-sandbox",
                              f"Have a look at {path}"], anchored_repo, env)
        assert run.returncode == 0, run.stderr[-2000:]
        requests = server.model_requests()
        assert len(requests) >= 2 and "exec_command" in requests[-1].body, \
            [r.path for r in server.requests]
        bodies.append(requests[-1].body)
    assert HEADER + "src/users/repo.ts" in bodies[0] and "WREN-4410" in bodies[0]
    assert HEADER not in bodies[1]
