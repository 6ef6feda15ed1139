"""`lorestack config show|get|set|path`: the effective settings and where each came from."""

from __future__ import annotations

from pathlib import Path

import click

from lorestack.cli.render import emit_json, table


def _roots(ctx: click.Context) -> tuple[Path | None, Path]:
    from lorestack.core.settings import resolve_roots

    obj = ctx.find_root().obj or {}
    return resolve_roots(None, obj.get("root"))


@click.group()
def config():
    """See and change settings (defaults < ~/.lorestack/config.toml < .memory/config.toml < env)."""


@config.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
@click.pass_context
def config_show(ctx, as_json):
    """Every effective setting, its value and where it came from."""
    from lorestack.core.config_keys import unknown_keys
    from lorestack.core.settings import explain_settings

    project, home = _roots(ctx)
    rows = explain_settings(project, home)
    for line in unknown_keys(project, home):
        click.echo(f"warning: {line}", err=True)
    if as_json:
        emit_json([{"key": k, "value": v, "source": src} for k, v, src in rows])
        return
    click.echo(table([[k, repr(v) if isinstance(v, str) else str(v), src] for k, v, src in rows],
                     ["setting", "value", "from"]))


@config.command("get")
@click.argument("key")
@click.option("--json", "as_json", is_flag=True, help="Print the value and its source as JSON.")
@click.pass_context
def config_get(ctx, key, as_json):
    """The effective value of KEY (section.key, e.g. loader.budget)."""
    from lorestack.core.settings import explain_settings, setting_type

    setting_type(key)  # unknown keys: one clear line naming the known ones
    project, home = _roots(ctx)
    value, source = next((v, src) for k, v, src in explain_settings(project, home) if k == key)
    if as_json:
        emit_json({"key": key, "value": value, "source": source})
    else:
        click.echo(value)
        click.echo(f"(from {source})", err=True)


@config.command("set", context_settings={"ignore_unknown_options": True})  # `-5` is a value
@click.argument("key")
@click.argument("value")
@click.option("--global", "global_", is_flag=True,
              help="Write ~/.lorestack/config.toml instead of the project's .memory/config.toml.")
@click.option("--json", "as_json", is_flag=True, help="Print what was written as JSON.")
@click.pass_context
def config_set(ctx, key, value, global_, as_json):
    """Set KEY to VALUE in the project's (or with --global the user's) config.toml.

    The value is checked against the setting's type first; other lines and comments in the
    file are kept. A value that looks like a secret is refused for the project's file, which
    is committed with .memory/ (use an environment variable or --global).
    """
    from lorestack.app.setting_checks import check_setting_value
    from lorestack.core.errors import MemoryRootNotFound
    from lorestack.memory_layers.config_file import write_setting

    project, home = _roots(ctx)
    if not global_ and project is None:
        raise MemoryRootNotFound(
            "no project memory here: run `lorestack init`, or use --global for ~/.lorestack")
    path = (home if global_ else project) / "config.toml"  # type: ignore[operator]
    screen = None
    if not global_:  # the project's file is committed with .memory/; the user's is not
        from lorestack.memory_layers.secret_guard import find_secrets

        def screen(raw: str) -> list[str]:
            return sorted({f.kind for f in find_secrets(raw)})

    written = write_setting(path, key, value, screen, check=check_setting_value)
    if as_json:
        emit_json({"key": key, "value": written, "file": str(path)})
    else:
        click.echo(f"{key} = {written!r} written to {path}")


@config.command("path")
@click.option("--json", "as_json", is_flag=True, help="Print the files as JSON.")
@click.pass_context
def config_path(ctx, as_json):
    """The config files lorestack reads, lowest layer first, and whether each exists."""
    from lorestack.core.settings import config_files

    project, home = _roots(ctx)
    files = config_files(project, home)
    if as_json:
        emit_json([{"layer": name, "path": str(p), "exists": p.exists()} for name, p in files])
        return
    for name, p in files:
        click.echo(f"{name}\t{p}\t{'exists' if p.exists() else 'absent'}")


COMMANDS = [config]
