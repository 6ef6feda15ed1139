"""`lorestack install pre-commit` and `lorestack uninstall pre-commit`: put `lorestack check
--hook pre-commit` in (or take it out of) the repository's git hook or pre-commit config."""

from __future__ import annotations

import click

from lorestack.cli.check_cmds import _repo_dir
from lorestack.cli.install_cmds import install, uninstall
from lorestack.cli.main import open_memory
from lorestack.cli.render import emit_json


def _precommit_result(result, as_json: bool) -> None:
    if as_json:
        emit_json(result)
        return
    click.echo(f"{result.action}: {result.path} ({result.mode})")
    if result.backup:
        click.echo(f"backup of the previous file: {result.backup}")
    if result.note:
        click.echo(result.note)


@click.command(name="pre-commit")
@click.option(
    "--framework",
    is_flag=True,
    help="Add an entry to .pre-commit-config.yaml (pre-commit framework) instead of "
    "writing .git/hooks/pre-commit.",
)
@click.option("--strict", is_flag=True, help="Fail the commit on warn too, not only on block.")
@click.option("--fail-closed", is_flag=True, help="Fail the commit when the check itself errors.")
@click.option("--dry-run", is_flag=True, help="Show the file that would be written; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def install_pre_commit(ctx, framework, strict, fail_closed, dry_run, as_json):
    """Check the staged diff against your criteria before every commit (block stops it)."""
    from lorestack.guardrail import precommit

    mem = open_memory(ctx)
    do = precommit.install_framework if framework else precommit.install_git_hook
    result = do(_repo_dir(mem), strict=strict, fail_closed=fail_closed, dry_run=dry_run)
    if dry_run and not as_json:
        verb = "nothing to change in" if result.action == "unchanged" else "would write"
        click.echo(f"{verb} {result.path} ({result.mode})")
        if result.action != "unchanged":
            click.echo(result.content, nl=not result.content.endswith("\n"))
        return
    _precommit_result(result, as_json)


@click.command(name="pre-commit")
@click.option("--framework", is_flag=True, help="Remove the .pre-commit-config.yaml entry instead.")
@click.option("--dry-run", is_flag=True, help="Show the file as it would be left; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.pass_context
def uninstall_pre_commit(ctx, framework, dry_run, as_json):
    """Remove the lorestack block from the pre-commit hook (or the framework entry)."""
    from lorestack.guardrail import precommit

    mem = open_memory(ctx)
    do = precommit.uninstall_framework if framework else precommit.uninstall_git_hook
    result = do(_repo_dir(mem), dry_run=dry_run)
    if result.dry_run and not as_json:
        gone = "" if result.content else " (nothing else in it: it would be deleted)"
        click.echo(f"would remove lorestack from {result.path} ({result.mode}){gone}")
        if result.content:
            click.echo(result.content, nl=not result.content.endswith("\n"))
        return
    _precommit_result(result, as_json)


install.add_command(install_pre_commit)
uninstall.add_command(uninstall_pre_commit)

COMMANDS: list = []
