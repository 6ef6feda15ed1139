"""Every call to git, in one place: how it is run, bounded and reported.

`git_out` raises `GitError` with one clear line (git missing, too slow, or git's own first
line of complaint); callers that only want a hint (the session-start query) use
`git_try`, which never raises and answers "" instead.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from lorestack.core.errors import LorestackError


class GitError(LorestackError):
    """git is missing, too slow, or refused the command."""


def git_run(repo: Path, *args: str, timeout: float = 30) -> subprocess.CompletedProcess:
    """Run `git -C repo ARGS` (text, utf-8, no stdin); GitError only when git cannot run."""
    try:
        return subprocess.run(
            ["git", "-C", str(repo), *args], capture_output=True, text=True, encoding="utf-8",
            errors="replace", timeout=timeout, stdin=subprocess.DEVNULL, check=False,
        )
    except FileNotFoundError as exc:
        raise GitError("git is not installed") from exc
    except subprocess.TimeoutExpired as exc:
        raise GitError(f"git {' '.join(args[:2])} took longer than {timeout:g} s") from exc


def git_out(repo: Path, *args: str, timeout: float = 30) -> str:
    """git's stdout; GitError naming the command and git's first line when it fails."""
    done = git_run(repo, *args, timeout=timeout)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["failed"])[0]
        raise GitError(f"git {' '.join(args[:3])}: {first}")
    return done.stdout


def git_try(repo: Path, *args: str, timeout: float = 30) -> str:
    """git's stdout stripped, or "" on any failure (for hints that may be absent)."""
    try:
        done = git_run(repo, *args, timeout=timeout)
    except (GitError, OSError):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def git_ok(repo: Path, *args: str, timeout: float = 30) -> bool:
    """Whether the command succeeds (False also when git is missing or too slow)."""
    try:
        return git_run(repo, *args, timeout=timeout).returncode == 0
    except (GitError, OSError):
        return False
