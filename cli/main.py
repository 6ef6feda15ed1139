"""`lorestack` command line. Thin: parse, call one library function, render."""

from __future__ import annotations

import errno
import sys
from pathlib import Path

import click

from lorestack.core.errors import LorestackError


def quiet_closed_pipe() -> None:
    """The reader went away (`lorestack show ID | head -1`): end as a shell tool does, with no
    message and the SIGPIPE status; stdout is pointed at /dev/null so the interpreter's final
    flush cannot complain either."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    sys.exit(141)


# which module defines each command (the first) and which add subcommands to it (the rest):
# a command's module is imported when the command is run or listed, so a hook imports the
# hook's module only, not every command's (the eager registration was ~0.13 s of a cold hook)
_COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("init", "remember", "log", "list", "show", "forget", "done", "supersede"),
                    ("memory_cmds",)),
    **dict.fromkeys(("install", "uninstall"),
                    ("install_cmds", "consolidate_cmds", "precommit_cmds")),
    "bench": ("bench_cmds",),
    **dict.fromkeys(("search", "reindex", "doctor"), ("index_cmds",)),
    **dict.fromkeys(("context", "hook", "mcp"), ("context_cmds",)),
    "check": ("check_cmds",),
    "criteria": ("criteria_cmds",),
    **dict.fromkeys(("extract", "consolidate", "review"), ("consolidate_cmds",)),
    "config": ("config_cmds",),
    **dict.fromkeys(("edit", "restore", "export", "import-memory"), ("upkeep_cmds",)),
    "ui": ("ui_cmds",),
    "import": ("import_cmds",),
    "serve": ("service_cmds",),
    "anchors": ("anchor_cmds",),
}


class LorestackGroup(click.Group):
    """Turns domain errors into one clear line on stderr; a traceback would be a bug.
    Commands are registered lazily (`_COMMAND_MODULES`)."""

    def list_commands(self, ctx):
        return sorted({*self.commands, *_COMMAND_MODULES})

    def get_command(self, ctx, cmd_name):
        command = self.commands.get(cmd_name)
        if command is None and cmd_name in _COMMAND_MODULES:
            command = _load_command(cmd_name)
            self.add_command(command)
        return command

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except LorestackError as exc:
            click.echo(f"Error: {exc}", err=True)
            sys.exit(exc.exit_code)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            sys.exit(130)
        except BrokenPipeError:
            quiet_closed_pipe()
        except Exception as exc:  # noqa: BLE001 - last line of defence for users
            click.echo(unexpected_line(exc), err=True)
            sys.exit(1)


# what the system refused and what the user can do about it (not a bug in lorestack)
_OS_REFUSALS = {
    errno.EROFS: "lorestack must write there; use a writable copy",
    errno.EACCES: "check its permissions",
    errno.EPERM: "check its permissions (and attributes such as chattr +i)",
    errno.ENOSPC: "the disk is full; free some space",
    errno.EDQUOT: "the disk quota is used up; free some space",
    errno.ENOENT: "check the path (its folder must exist)",
    errno.ENOTDIR: "check the path (a part of it is a file, not a folder)",
    errno.EISDIR: "it is a folder; name a file",
    errno.ENAMETOOLONG: "use a shorter name",
}


# a missing or misnamed path is as often lorestack's own fault (its index, a lock, a temp
# file, a program it runs) as the user's: those keep the request to report it
_OWN_PATH_FAULTS = (errno.ENOENT, errno.ENOTDIR, errno.EISDIR)
# ... but a read-only file system or a full disk is the machine's state wherever it is met,
# e.g. the lock under `.index/` that every write of a read-only `.memory` takes first
_NEVER_OURS = (errno.EROFS, errno.ENOSPC, errno.EDQUOT)


def unexpected_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.errno in (errno.EEXIST, errno.ENOTDIR) and exc.filename:
        blocker = _file_in_the_way(str(exc.filename))
        if blocker is not None and _LAYOUT & set(Path(blocker).parts):
            # e.g. `.memory/facts` made a file by hand: the user's to fix, not a bug
            return (f"Error: {blocker} is a file where lorestack needs a folder; move it aside "
                    "(or rename it) and re-run")
    if isinstance(exc, OSError) and exc.errno in _OS_REFUSALS:
        where = f" {_shown_path(str(exc.filename))}" if exc.filename else ""
        line = f"Error: cannot use{where}: {exc.strerror or exc}; {_OS_REFUSALS[exc.errno]}"
        own = not exc.filename or ".index" in str(exc.filename).replace("\\", "/").split("/")
        if exc.errno in _OWN_PATH_FAULTS or (own and exc.errno not in _NEVER_OURS):
            line += " (if you did not name this path, this is a bug in lorestack; please report it)"
        return line
    return (f"Error: unexpected {type(exc).__name__}: {exc} "
            "(this is a bug in lorestack; please report it)")


def _shown_path(path: str, most: int = 160) -> str:
    """A path as the error line shows it: a name of thousands of characters (a paste gone
    wrong) is cut in the middle, so the line stays one line a terminal can show."""
    if len(path) <= most:
        return path
    return f"{path[:most // 2]}…{path[-most // 2:]} ({len(path):,} characters)"


_LAYOUT = {".memory", ".lorestack"}  # the folders lorestack lays out (a memory, the home)


def _file_in_the_way(path: str) -> str | None:
    """The file standing where a folder must be: the path itself or the nearest existing
    parent, when that is not a folder."""
    for candidate in (Path(path), *Path(path).parents):
        if candidate.is_dir():
            return None
        if candidate.exists() or candidate.is_symlink():
            return str(candidate)
    return None


@click.group(cls=LorestackGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="lorestack")
@click.option("--root", envvar="LORESTACK_ROOT", type=click.Path(file_okay=False),
              help="Project memory folder (or the repository holding .memory/). "
                   "Default: walk up from the current directory.")
@click.pass_context
def cli(ctx: click.Context, root: str | None) -> None:
    """lorestack: layered memory for AI coding assistants.

    Project facts, decisions, caveats, your criteria and a journal of what happened live as
    markdown under .memory/ (the truth); a hybrid index makes them recallable and a loader
    hands a session what it needs under a token budget.
    """
    from lorestack.core.logs import attach_stderr

    attach_stderr()  # library warnings as `warning: …` lines on stderr, never on stdout
    ctx.ensure_object(dict)
    ctx.obj["root"] = root


def open_memory(ctx: click.Context, require_project: bool = True, **overrides):
    from lorestack.memory_layers.memory import Memory

    root = ctx.find_root().obj.get("root") if ctx.find_root().obj else None
    return Memory.open(root, require_project=require_project, **overrides)


def caller_for(ctx: click.Context, **flags):
    """This command's caller for the application layer: the --root it was given, settings
    flags (`section.key` → value); environment and folder are the process's."""
    from lorestack.app.models import Caller

    root = ctx.find_root().obj.get("root") if ctx.find_root().obj else None
    return Caller(root=root, flags={k: v for k, v in flags.items() if v is not None})


def settings_for(ctx: click.Context, **overrides):
    """The composition root for commands that may run outside a project: every config layer."""
    from lorestack.core.settings import resolve_settings

    root = ctx.find_root().obj.get("root") if ctx.find_root().obj else None
    return resolve_settings(None, root, **overrides)


def _load_command(name: str) -> click.Command:
    import importlib

    first, *others = _COMMAND_MODULES[name]
    module = importlib.import_module(f"lorestack.cli.{first}")
    for other in others:  # they attach subcommands to the group when imported
        importlib.import_module(f"lorestack.cli.{other}")
    return next(c for c in module.COMMANDS if c.name == name)
