"""The README is true: every command is in it, and its set-up commands run."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from lorestack.cli.main import cli
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")


def _setup_blocks() -> list[str]:
    section = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.*?)```", section, re.S)


def test_every_command_is_documented():
    for name in cli.list_commands(None):
        command = cli.get_command(None, name)
        assert f"lorestack {name}" in README, f"`lorestack {name}` is missing from README.md"
        for sub in getattr(command, "commands", {}):
            assert re.search(rf"lorestack {name}[^\n]*\b{re.escape(sub)}\b", README), \
                f"`lorestack {name} {sub}` is missing from README.md"


def test_exactly_two_setup_commands_and_ci_runs_the_test_one():
    blocks = [b.strip() for b in _setup_blocks()]
    assert len(blocks) == 2 and all("\n" not in b for b in blocks)
    install, test = blocks
    # a user's set-up: the tool installed on its own, then `init` in their project
    assert ("pipx install lorestack" in install or "uv tool install lorestack" in install)
    assert "lorestack init" in install
    assert test in (ROOT / ".ci" / "run").read_text("utf-8")


def test_setup_command_runs_its_lorestack_steps(isolated):
    (isolated / "README.md").write_text("# Widget Service\n")
    install = _setup_blocks()[0]
    steps = [s.strip() for s in install.split("&&")
             if s.strip().startswith("lorestack ")]
    assert steps, "the set-up command runs no lorestack step"
    output = ""
    for step in steps:
        args = shlex.split(step)[1:]
        result = run_cli(*args, cwd=isolated)
        assert result.returncode == 0, (step, result.stderr)
        assert "Traceback" not in result.stderr
        output += result.stdout
    assert "Widget Service" in output  # the context shows the drafted identity card


def test_everyday_use_commands_do_what_their_comments_say(repo):
    """Each line of the README's everyday block runs; a line whose comment names an exit code
    (`# block, exit 2`) exits with it — a reader copies these lines to learn the tool."""
    from click.testing import CliRunner

    section = README.split("## Everyday use", 1)[1].split("\n## ", 1)[0]
    block = re.findall(r"```bash\n(.*?)```", section, re.S)[0]
    ran = 0
    for line in block.strip().splitlines():
        command, _, comment = line.partition("#")
        expected = re.search(r"exit (\d)", comment)
        result = CliRunner().invoke(cli, shlex.split(command)[1:])
        assert result.exception is None or isinstance(result.exception, SystemExit), line
        want = int(expected[1]) if expected else 0
        assert result.exit_code == want, (line, result.output)
        ran += 1
    assert ran >= 5


def test_guardrail_doc_names_hook_set_ups_that_exist(isolated):
    """Trial finding: docs/guardrail.md offered `install claude-code --guardrail (and --client
    codex|cursor|gemini)`; install has no --client. Each client's way in the doc must work."""
    from lorestack.core import clients as registry

    doc = (ROOT / "docs" / "guardrail.md").read_text("utf-8")
    hooks = " ".join(doc.split("## Hooks", 1)[1].split("\n## ", 1)[0].split())
    for spec in registry.CLIENT_SPECS.values():
        if spec.guardrail_install:
            assert f"`lorestack install {spec.name} --guardrail`" in hooks
            proc = run_cli("install", spec.name, "--guardrail", "--dry-run", cwd=isolated)
            assert proc.returncode == 0, proc.stderr
        else:  # install refuses --guardrail for it: the doc gives the command and the event
            proc = run_cli("install", spec.name, "--guardrail", "--dry-run", cwd=isolated)
            assert proc.returncode != 0
            assert f"--client {spec.name}`" in hooks and f"`{spec.pre_tool_event}`" in hooks
    for install in re.findall(r"`lorestack install ([^`]+)`", hooks):
        for flag in re.findall(r"--[a-z-]+", install):
            assert flag in run_cli("install", install.split()[0], "--help").stdout, install
    assert "(and `--client" not in hooks
