"""The hook command's fast start: `PYTHON -S …/lorestack/thin.py hook prompt --client C`.

`lorestack install` writes hook commands in this form. Without `site` the interpreter starts
in about a third of the time (no site-packages scan, no `.pth` files), and the thin path needs
nothing from site-packages: the launcher, the service client and its protocol are standard
library only. So this file puts the folder that holds the `lorestack` package on `sys.path` by
hand and runs the launcher. That folder is site-packages for a regular install (pip, pipx, uv
tool) and the checkout for an editable one; either way `lorestack/` itself is in it.

Whenever the answer needs more than the thin path (no service, another version, any command
the service does not take), the launcher starts this same file again *with* `site` — the
whole install, an editable install's finder included — handing on the stdin it already read
and why the service did not answer (`launcher.restart_with_site`). Run with `site` (as that
second start is), this file is the ordinary `lorestack` console entry.
"""

import os
import sys


def _package_parent() -> str:
    """The folder that holds this `lorestack` package."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run() -> None:
    # sys.path[0] is this package's own folder (a script's folder): its module names must not
    # shadow top-level ones, so it goes either way
    if sys.flags.no_site:
        sys.path[0] = _package_parent()
        from lorestack import launcher

        launcher.SITE_COMMAND = [sys.executable, os.path.abspath(__file__)]
    else:
        del sys.path[0]
        from lorestack import launcher
    sys.exit(launcher.main())


if __name__ == "__main__":
    _run()
