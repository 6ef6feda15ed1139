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
    import click
    from click.testing import CliRunner

    from lorestack.cli.main import cli

    def walk(group, prefix):
        for name in group.list_commands(None):
            command = group.get_command(None, name)
            yield prefix + [name], command
            if isinstance(command, click.Group):
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


def test_a_hook_imports_only_its_own_command_module():
    # the CLI registers its commands lazily: `lorestack hook …` (the in-process hook when no
    # service answers) must not pay for importing every other command's module
    code = (
        "import sys\n"
        "from lorestack.cli.main import cli\n"
        "assert cli.get_command(None, 'hook') is not None\n"
        "print(sorted(m for m in sys.modules if m.startswith('lorestack.cli.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(["lorestack.cli.context_cmds", "lorestack.cli.main",
                                      "lorestack.cli.render"])


def test_the_lazy_command_map_names_every_command_of_every_module():
    import importlib
    import pkgutil

    import lorestack.cli
    from lorestack.cli.main import _COMMAND_MODULES, cli

    defined = {}
    for info in pkgutil.iter_modules(lorestack.cli.__path__):
        if info.name == "__main__":  # runs the CLI when imported
            continue
        module = importlib.import_module(f"lorestack.cli.{info.name}")
        for command in getattr(module, "COMMANDS", []):
            defined[command.name] = info.name
    assert {name: mods[0] for name, mods in _COMMAND_MODULES.items()} == defined
    listed = cli.list_commands(None)
    assert listed == sorted(defined)
    install = cli.get_command(None, "install")
    assert {"cron", "pre-commit", "claude-code"} <= set(install.list_commands(None))


def test_the_application_layer_imports_an_operation_when_it_runs():
    # a hook runs one operation: importing `lorestack.app` must not import every other's module
    code = (
        "import sys, lorestack.app\n"
        "print(sorted(m for m in ('lorestack.app.reading', 'lorestack.app.writing', "
        "'lorestack.app.upkeep', 'lorestack.app.events') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
