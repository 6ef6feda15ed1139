"""Install the guardrail as a git pre-commit step: a marked block in `.git/hooks/pre-commit`
(respecting core.hooksPath), or a `repo: local` entry in `.pre-commit-config.yaml` for the
pre-commit framework. Idempotent; a hook we did not write is backed up before we touch it;
uninstall removes exactly the block or entry we added.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from lorestack.core import legacy
from lorestack.core.errors import LorestackError
from lorestack.memory_layers.fsutil import write_atomic

BEGIN = "# >>> lorestack guardrail >>>"
END = "# <<< lorestack guardrail <<<"
HOOK_ID = "lorestack-check"
CONFIG_NAME = ".pre-commit-config.yaml"
_BLOCK_RE = re.compile(rf"[ \t]*{re.escape(BEGIN)}.*?{re.escape(END)}[ \t]*\n?", re.DOTALL)


@dataclass
class PrecommitResult:
    path: Path
    action: str  # created | updated | unchanged | removed | absent
    mode: str  # git-hook | framework
    backup: Path | None = None
    note: str = ""
    dry_run: bool = False
    content: str = ""  # the file as written (or as it would be, with dry_run)


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _adopt_legacy(text: str) -> str:
    """TEXT with the markers and hook id the tool wrote under its former name turned into
    today's, so install replaces that block and uninstall removes it."""
    for current in (BEGIN, END, HOOK_ID):
        text = text.replace(legacy.legacy_form(current), current)
    return text


def _git(repo: Path, *args: str) -> str:
    from lorestack.core.git import GitError, git_out

    try:
        return git_out(repo, *args).strip()
    except GitError as exc:
        if "not installed" in str(exc):
            raise LorestackError("git is not installed; the pre-commit hook needs git") from exc
        raise LorestackError(f"{repo} is not inside a git repository ({exc})") from exc


def hook_command(*, strict: bool = False, fail_closed: bool = False, portable: bool = False) -> str:
    """The command a pre-commit step runs. `portable` (a config shared through the repository)
    finds `lorestack` on PATH or in the repository's `.venv/` or `venv/`, so a teammate with a
    virtualenv that is not activated is covered, and says so in one line when it is nowhere;
    otherwise this interpreter's absolute path, so a venv install works without activation."""
    flags = " --strict" if strict else ""
    flags += " --fail-closed" if fail_closed else ""
    args = f"check --hook pre-commit --staged{flags}"
    if not portable:
        return f'"{sys.executable}" -m lorestack.cli {args}'
    script = (
        f"if command -v lorestack >/dev/null 2>&1; then exec lorestack {args}; fi; "
        f'for v in .venv venv; do if [ -x "$v/bin/lorestack" ]; then exec "$v/bin/lorestack" {args}; fi; done; '
        'echo "lorestack-check: lorestack is not on PATH nor in .venv/ or venv/; install it '
        'or activate its virtualenv" >&2; exit 1'
    )
    return f"sh -c {shlex.quote(script)}"


def _hook_path(repo: Path) -> Path:
    hooks = Path(_git(repo, "rev-parse", "--git-path", "hooks"))
    if not hooks.is_absolute():
        hooks = (repo / hooks).resolve()
    return hooks / "pre-commit"


def _block(command: str) -> str:
    return (
        f"{BEGIN}\n# Checks the staged diff against your recorded criteria; remove with "
        f"`lorestack uninstall pre-commit`.\n{command} || exit $?\n{END}\n"
    )


def _write_executable(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, text.encode("utf-8"))
    mode = path.stat().st_mode
    os.chmod(path, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def _backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".lorestack-backup")


def _backup(path: Path) -> Path:
    """Keep the first backup: the file as it was before lorestack touched it (same mode)."""
    backup = _backup_path(path)
    if not backup.exists():
        shutil.copy2(path, backup)
    return backup


def install_git_hook(
    repo_dir: str | os.PathLike,
    *,
    strict: bool = False,
    fail_closed: bool = False,
    dry_run: bool = False,
) -> PrecommitResult:
    repo = Path(repo_dir)
    path = _hook_path(repo)
    block = _block(hook_command(strict=strict, fail_closed=fail_closed))

    def done(action: str, text: str, backup: Path | None = None) -> PrecommitResult:
        if action != "unchanged" and not dry_run:
            if backup is not None:
                backup = _backup(path)
            _write_executable(path, text)
        return PrecommitResult(path, action, "git-hook", backup, dry_run=dry_run, content=text)

    if not path.exists():
        return done("created", "#!/bin/sh\n" + block)
    current = path.read_text("utf-8", errors="replace")
    adopted = _adopt_legacy(current)
    if BEGIN in adopted:
        updated = _BLOCK_RE.sub(lambda _m: block, adopted, count=1)
        return done("unchanged" if updated == current else "updated", updated)
    if "pre-commit.com" in current or "File generated by pre-commit" in current:
        raise LorestackError(
            f"{path} is managed by the pre-commit framework; run "
            "`lorestack install pre-commit --framework` to add lorestack to "
            f"{CONFIG_NAME} instead"
        )
    first = current.splitlines()[0] if current else ""
    if not (first.startswith("#!") and re.search(r"\b(sh|bash|zsh|dash|ksh)\b", first)):
        raise LorestackError(
            f"{path} exists and is not a shell script, so lorestack will not edit it; add this "
            f"line to it yourself: {hook_command(strict=strict, fail_closed=fail_closed)}"
        )
    head, _, rest = current.partition("\n")
    # before any `exec` in the old hook; the hook we did not write is backed up first
    return done("updated", f"{head}\n{block}{rest}", backup=_backup_path(path))


def _drop_backup_if_restored(path: Path, remaining: bytes) -> Path | None:
    """An exact uninstall leaves the file as our backup holds it: the backup has done its job."""
    backup = _backup_path(path)
    if backup.exists() and backup.read_bytes() == remaining:
        backup.unlink()
        return None
    return backup if backup.exists() else None


def uninstall_git_hook(repo_dir: str | os.PathLike, *, dry_run: bool = False) -> PrecommitResult:
    path = _hook_path(Path(repo_dir))
    if not path.exists():
        return PrecommitResult(path, "absent", "git-hook")
    current = _adopt_legacy(path.read_text("utf-8", errors="replace"))
    if BEGIN not in current:
        return PrecommitResult(path, "absent", "git-hook", note="no lorestack block in the hook")
    remaining = _BLOCK_RE.sub("", current)
    if dry_run:  # the hook as it would be left ("" when it would be deleted)
        left = "" if remaining.strip() in ("", "#!/bin/sh") else remaining
        return PrecommitResult(path, "removed", "git-hook", dry_run=True, content=left)
    if remaining.strip() in ("", "#!/bin/sh"):
        path.unlink()
    else:
        _write_executable(path, remaining)
    kept = _drop_backup_if_restored(path, remaining.encode("utf-8"))
    return PrecommitResult(path, "removed", "git-hook", kept)


# ---- pre-commit framework ----------------------------------------------------------------
def _entry_yaml(indent: str, command: str) -> str:
    i = indent
    return (
        f"{i}{BEGIN}\n"
        f"{i}- repo: local\n"
        f"{i}  hooks:\n"
        f"{i}  - id: {HOOK_ID}\n"
        f"{i}    name: lorestack guardrail (recorded criteria)\n"
        f"{i}    entry: {json.dumps(command)}\n"
        f"{i}    language: system\n"
        f"{i}    pass_filenames: false\n"
        f"{i}    always_run: true\n"
        f"{i}    stages: [pre-commit]\n"
        f"{i}{END}\n"
    )


def _has_hook(data) -> bool:
    repos = (data or {}).get("repos") or [] if isinstance(data, dict) else []
    return any(
        h.get("id") == HOOK_ID
        for r in repos
        if isinstance(r, dict)
        for h in (r.get("hooks") or [])
        if isinstance(h, dict)
    )


def install_framework(
    repo_dir: str | os.PathLike,
    *,
    strict: bool = False,
    fail_closed: bool = False,
    dry_run: bool = False,
) -> PrecommitResult:
    top = Path(_git(Path(repo_dir), "rev-parse", "--show-toplevel"))
    path = top / CONFIG_NAME
    command = hook_command(strict=strict, fail_closed=fail_closed, portable=True)
    if not path.exists():
        text = "repos:\n" + _entry_yaml("", command)
        if not dry_run:
            write_atomic(path, text.encode("utf-8"))
        return PrecommitResult(
            path,
            "created",
            "framework",
            note="run `pre-commit install` once to activate it",
            dry_run=dry_run,
            content=text,
        )
    current = path.read_text("utf-8")
    try:
        data = yaml.safe_load(current) or {}
    except yaml.YAMLError as exc:
        raise LorestackError(
            f"{path} is not valid YAML ({str(exc).splitlines()[0]}); fix it first"
        ) from exc
    adopted = _adopt_legacy(current)
    if adopted != current and BEGIN in adopted:  # our block under the former name: replace it
        candidate = _BLOCK_RE.sub(lambda m: _entry_yaml(_indent(m.group(0)), command),
                                  adopted, count=1)
        backup = None
        if not dry_run:
            backup = _backup(path)
            write_atomic(path, candidate.encode("utf-8"))
        return PrecommitResult(path, "updated", "framework", backup, dry_run=dry_run,
                               content=candidate)
    if _has_hook(data):
        return PrecommitResult(path, "unchanged", "framework", dry_run=dry_run, content=current)
    # append to the `repos:` list as text, so the user's comments and layout survive
    item = re.search(r"^(\s*)- repo:", current, re.MULTILINE)
    candidate = current.rstrip("\n") + "\n" + _entry_yaml(item.group(1) if item else "", command)
    last_key = re.findall(r"^([A-Za-z_][\w-]*):", current, re.MULTILINE)
    try:
        ok = last_key and last_key[-1] == "repos" and _has_hook(yaml.safe_load(candidate))
    except yaml.YAMLError:
        ok = False
    if not ok:  # unusual layout: rewrite through YAML (comments are lost, backup kept)
        data.setdefault("repos", []).append(
            {
                "repo": "local",
                "hooks": [
                    {
                        "id": HOOK_ID,
                        "name": "lorestack guardrail (recorded criteria)",
                        "entry": command,
                        "language": "system",
                        "pass_filenames": False,
                        "always_run": True,
                        "stages": ["pre-commit"],
                    }
                ],
            }
        )
        candidate = yaml.safe_dump(data, sort_keys=False)
    backup = None
    if not dry_run:
        backup = _backup(path)
        write_atomic(path, candidate.encode("utf-8"))
    return PrecommitResult(
        path,
        "updated",
        "framework",
        backup,
        note="" if ok else "rewrote the file through YAML; comments were not kept",
        dry_run=dry_run,
        content=candidate,
    )


def uninstall_framework(repo_dir: str | os.PathLike, *, dry_run: bool = False) -> PrecommitResult:
    top = Path(_git(Path(repo_dir), "rev-parse", "--show-toplevel"))
    path = top / CONFIG_NAME
    if not path.exists():
        return PrecommitResult(path, "absent", "framework")
    current = _adopt_legacy(path.read_text("utf-8"))
    if BEGIN in current:
        remaining = _BLOCK_RE.sub("", current)
    else:
        data = yaml.safe_load(current) or {}
        if not _has_hook(data):
            return PrecommitResult(path, "absent", "framework")
        repos = []
        for repo in data.get("repos") or []:
            hooks = [h for h in (repo.get("hooks") or []) if h.get("id") != HOOK_ID]
            if hooks or repo.get("repo") != "local":
                repos.append({**repo, "hooks": hooks})
        data["repos"] = repos
        remaining = yaml.safe_dump(data, sort_keys=False)
    empty = yaml.safe_load(remaining) in (None, {"repos": None}, {"repos": []})
    if dry_run:
        return PrecommitResult(path, "removed", "framework", dry_run=True,
                               content="" if empty else remaining)
    if empty:
        path.unlink()
    else:
        write_atomic(path, remaining.encode("utf-8"))
    kept = _drop_backup_if_restored(path, remaining.encode("utf-8"))
    return PrecommitResult(path, "removed", "framework", kept)
