"""`lorestack install …` / `lorestack uninstall …`: client hooks, cron, pre-commit.

Each integration adds its own subcommands to these two groups from its own module; the client
hook installers (claude-code, codex, cursor, gemini) live here.
"""

from __future__ import annotations

from pathlib import Path

import click

from lorestack.cli.render import emit_json
from lorestack.core.clients import CLIENT_SPECS, CLIENTS


@click.group()
def install():
    """Install lorestack into a client, cron or git hooks (idempotent, with backups)."""


@click.group()
def uninstall():
    """Remove exactly what `lorestack install` added."""


def _project_dir(ctx: click.Context) -> Path:
    """The repository holding .memory/ (walking up), else the current directory."""
    from lorestack.core.errors import MemoryRootNotFound
    from lorestack.core.paths import find_project_root

    root = ctx.find_root().obj.get("root") if ctx.find_root().obj else None
    try:
        return find_project_root(None, root).parent
    except MemoryRootNotFound:
        return Path.cwd()


def _render(result, as_json: bool, verb: str) -> None:
    if as_json:
        emit_json(result)
        return
    if result.dry_run:
        click.echo(f"would write {result.path}:" if result.changed else f"{result.path}: nothing to change")
        if result.changed:
            click.echo(result.content, nl=False)
    elif not result.changed:
        click.echo(f"{result.path}: already {verb}; nothing changed")
    else:
        parts = [f"{label} {', '.join(dict.fromkeys(events))}" for label, events in
                 (("added", result.added), ("updated", result.updated), ("removed", result.removed))
                 if events]
        click.echo(f"{result.path}: {'; '.join(parts)}")
        if result.backup:
            click.echo(f"backup of the previous file: {result.backup}")
    for note in result.notes:
        click.echo(note if note.startswith("  ") else f"note: {note}", err=True)


def _client_install(client: str) -> click.Command:
    spec = CLIENT_SPECS[client]
    guardrail_opt = [click.option(
        "--guardrail", is_flag=True,
        help="Also add a PreToolUse hook running `lorestack check` on edits and shell commands.")
    ] if spec.guardrail_install else []
    trust_opt = [click.option(
        "--trust", is_flag=True,
        help=f"Also record in {spec.title}'s config that you trust lorestack's hooks (as its "
             "/hooks review would); without it the client skips them until you trust them.")
    ] if spec.hooks_need_trust else []

    @click.pass_context
    def command(ctx, scope: str, dry_run: bool, as_json: bool, guardrail: bool = False,
                trust: bool = False):
        from lorestack.cli.main import settings_for
        from lorestack.integrations import installers

        timeout = settings_for(ctx).hooks.client_timeout_s
        result = installers.install(client, scope, project_dir=_project_dir(ctx), dry_run=dry_run,
                                    guardrail=guardrail, timeout_s=timeout)
        if trust and not dry_run:
            trusted = installers.trust_hooks(client, result.path)
            result.notes.append(
                f"recorded trust for {len(trusted)} hook(s) in {installers.codex_home() / 'config.toml'}"
                if trusted else "the hooks were already trusted")
        result.notes.extend(installers.trust_instructions(client, result))
        _render(result, as_json, "installed")

    for decorate in [*guardrail_opt, *trust_opt,
                     click.option("--json", "as_json", is_flag=True, help="Print the result as JSON."),
                     click.option("--dry-run", is_flag=True, help="Show the file that would be written; change nothing."),
                     click.option("--scope", type=click.Choice(["user", "project"]), default="user",
                                  show_default=True,
                                  help="user: your home settings; project: this repository's settings.")]:
        command = decorate(command)
    return click.command(
        client, help=f"Add lorestack's session hooks to {client}'s settings (idempotent, keeps a backup)."
    )(command)


def _client_uninstall(client: str) -> click.Command:
    @click.option("--scope", type=click.Choice(["user", "project"]), default="user", show_default=True,
                  help="Which settings file to clean: user or project.")
    @click.option("--dry-run", is_flag=True, help="Show the file that would be written; change nothing.")
    @click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
    @click.pass_context
    def command(ctx, scope: str, dry_run: bool, as_json: bool):
        from lorestack.integrations import installers

        path = installers.settings_path(client, scope, _project_dir(ctx))
        trusted = installers.hook_trust(client, path) if path.is_file() else []
        result = installers.uninstall(client, scope, project_dir=_project_dir(ctx), dry_run=dry_run)
        if trusted and not dry_run:
            gone = installers.forget_trust(client, trusted)
            if gone:
                result.notes.append(f"removed the trust of {gone} hook(s) from "
                                    f"{installers.codex_home() / 'config.toml'}")
        _render(result, as_json, "uninstalled")

    return click.command(
        client, help=f"Remove exactly the hooks `lorestack install {client}` added."
    )(command)


for _client in CLIENTS:
    install.add_command(_client_install(_client))
    uninstall.add_command(_client_uninstall(_client))

COMMANDS = [install, uninstall]
