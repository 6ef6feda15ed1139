"""The CLI (and so every hook) starts without the heavy libraries."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("chromadb", "litellm", "llama_index", "onnxruntime", "torch", "transformers", "sklearn", "mcp")


def test_importing_the_cli_is_light():
    code = (
        "import sys, lorestack.cli.main\n"
        f"print([m for m in sys.modules if m.split('.')[0] in {HEAVY!r}])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_command_has_help():
    from click.testing import CliRunner

    from lorestack.cli.main import cli

    def walk(group, prefix):
        for name, command in group.commands.items():
            yield prefix + [name], command
            if hasattr(command, "commands"):
                yield from walk(command, prefix + [name])

    for path, command in walk(cli, []):
        assert (command.help or "").strip(), f"`lorestack {' '.join(path)}` has no help text"
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, path
        for param in command.params:
            if param.param_type_name == "option":
                assert (param.help or "").strip(), f"`lorestack {' '.join(path)}` --{param.name} has no help"


def test_the_thin_hook_path_imports_no_typing_logging_nor_pathlib():
    # what a hook answered by the service imports (lorestack.launcher's thin path); without
    # `site` (an editable install's finder imports pathlib itself), the package put on the path
    from pathlib import Path

    import lorestack

    top = str(Path(lorestack.__file__).resolve().parents[1])
    code = (
        f"import sys; sys.path.insert(0, {top!r})\n"
        "import lorestack.launcher, lorestack.core.legacy, lorestack.integrations.service.client\n"
        "print([m for m in ('typing', 'logging', 'pathlib') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
