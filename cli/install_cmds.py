"""`memstrata install …` / `memstrata uninstall …`: client hooks, cron, pre-commit.

Each integration adds its own subcommands to these two groups from its own module.
"""

from __future__ import annotations

import click


@click.group()
def install():
    """Install memstrata into a client, cron or git hooks (idempotent, with backups)."""


@click.group()
def uninstall():
    """Remove exactly what `memstrata install` added."""


COMMANDS = [install, uninstall]
