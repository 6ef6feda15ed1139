"""Migration from the tool's former name (this module is the one place that spells it).

The product was first published under a name that belongs to another project on the package
index. What a user of the old name left behind is carried over here, once each:

- the global folder `~/.<old>/` moves to `~/.lorestack/` (never merged over an existing one);
- `<OLD>_*` environment variables are read as `LORESTACK_*`, with a deprecation warning;
- hook, cron and pre-commit entries that call the old command are recognised by the
  installers (see `names()`), so `lorestack install` replaces them and `uninstall` removes them.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # `typing` itself costs every hook process its import: not read here

if TYPE_CHECKING:  # the launcher imports this module on every hook: stdlib basics only
    from collections.abc import MutableMapping
    from pathlib import Path
    from typing import TextIO

LEGACY_NAME = "memstrata"
NAME = "lorestack"
LEGACY_ENV_PREFIX = LEGACY_NAME.upper() + "_"
ENV_PREFIX = NAME.upper() + "_"
HOME_NOTICE = ".legacy-home-notice"  # in the new home: the "left in place" notice was given

_env_warned = False


def names() -> tuple[str, str]:
    """The command names an installed entry of ours may call: the current one first."""
    return NAME, LEGACY_NAME


def legacy_form(text: str) -> str:
    """TEXT as the old name wrote it (markers, ids, backup suffixes)."""
    return text.replace(NAME, LEGACY_NAME)


def modernise(text: str) -> str:
    """TEXT with every spelling of the old name turned into the current one."""
    return (text.replace(LEGACY_NAME, NAME).replace(LEGACY_NAME.upper(), NAME.upper())
            .replace(LEGACY_NAME.capitalize(), NAME.capitalize()))


def adopt_legacy_environment(environ: MutableMapping[str, str] | None = None,
                             stderr: TextIO | None = None) -> list[str]:
    """Read `<OLD>_X` as `LORESTACK_X` (a `LORESTACK_X` that is set wins) and warn once per
    process on stderr. Returns the old names that were seen."""
    global _env_warned
    env = os.environ if environ is None else environ
    old = sorted(k for k in env if k.startswith(LEGACY_ENV_PREFIX))
    for key in old:
        env.setdefault(ENV_PREFIX + key[len(LEGACY_ENV_PREFIX):], env[key])
    if old and not _env_warned:
        _env_warned = True
        shown = ", ".join(old[:3]) + (f" (+{len(old) - 3} more)" if len(old) > 3 else "")
        verb = "is" if len(old) == 1 else "are"
        print(f"lorestack: {shown} {verb} deprecated: rename {'it' if len(old) == 1 else 'them'} "
              f"to {ENV_PREFIX}… "
              "(the old prefix is read for one more release)", file=stderr or sys.stderr)
    return old


def migrate_legacy_home(home: Path | None = None, environ: MutableMapping[str, str] | None = None,
                        stderr: TextIO | None = None) -> str:
    """Move `~/.<old>` to `~/.lorestack` once. Returns what happened: "moved", "kept-both"
    (both exist: the old one is left alone, said once), or "" (nothing to do).

    Skipped when `LORESTACK_HOME` names the home explicitly."""
    from pathlib import Path

    env = os.environ if environ is None else environ
    if env.get(ENV_PREFIX + "HOME"):
        return ""
    base = Path.home() if home is None else home
    old, new = base / f".{LEGACY_NAME}", base / f".{NAME}"
    if not old.is_dir() or old.is_symlink():
        return ""
    out = stderr or sys.stderr
    if not new.exists():
        try:
            os.replace(old, new)
        except OSError as exc:
            if not old.is_dir():  # another process of ours moved it a moment ago: it says so
                return ""
            if not new.exists():
                print(f"lorestack: could not move {old} to {new} ({exc.strerror}); "
                      "move it by hand", file=out)
                return ""
        else:
            print(f"lorestack: moved {old} to {new} (the tool was renamed from {LEGACY_NAME})",
                  file=out)
            return "moved"
    if not old.is_dir():  # `new` is the old home, moved by a process started with this one
        return ""
    if _first_to_say(new / HOME_NOTICE, str(old)):
        print(f"lorestack: {old} was left as it is because {new} exists already; merge what "
              "you need by hand, then remove the old folder", file=out)
    return "kept-both"


def _first_to_say(marker: Path, text: str) -> bool:
    """Create `marker` if no process has (one atomic create: of processes started at once,
    exactly one says the notice); True also when it cannot be written (said each time)."""
    try:
        fd = os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    except OSError:
        return True
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text + "\n")
    return True


def migrate(stderr: TextIO | None = None) -> None:
    """Everything a process of the new name does once at its start (two cheap looks when there
    is nothing to migrate: hooks run this on every prompt)."""
    if any(k.startswith(LEGACY_ENV_PREFIX) for k in os.environ):
        adopt_legacy_environment(stderr=stderr)
    if os.path.isdir(os.path.expanduser(f"~/.{LEGACY_NAME}")):
        try:
            migrate_legacy_home(stderr=stderr)
        except OSError:
            pass  # an unreadable home never stops a command (hooks above all)
