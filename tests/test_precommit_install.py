"""`install pre-commit`: a shared framework entry that finds lorestack in a virtualenv, a
--dry-run that shows the content, modes kept, and no backup left after an exact uninstall."""

from __future__ import annotations

import os
import shlex
import stat
import subprocess

import yaml
from click.testing import CliRunner

from lorestack.cli.main import cli

ORIGINAL_CONFIG = "# my hooks\nrepos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n      - id: black\n"


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)


def _git_repo(repo):
    git(repo, "init", "-q")
    return repo


def test_framework_entry_finds_lorestack_in_the_repository_venv(repo):
    _git_repo(repo)
    (repo / ".pre-commit-config.yaml").write_text(ORIGINAL_CONFIG)
    assert invoke("install", "pre-commit", "--framework").exit_code == 0
    data = yaml.safe_load((repo / ".pre-commit-config.yaml").read_text())
    hook = [r for r in data["repos"] if r["repo"] == "local"][0]["hooks"][0]
    argv = shlex.split(hook["entry"])  # what pre-commit executes (language: system)
    assert "/work/" not in hook["entry"] and str(repo) not in hook["entry"]

    bare = {"PATH": "/usr/bin:/bin"}  # lorestack not on PATH, the venv not activated
    missing = subprocess.run(argv, cwd=repo, capture_output=True, text=True, env=bare)
    assert missing.returncode == 1
    assert "lorestack is not on PATH nor in .venv/" in missing.stderr

    venv_bin = repo / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    fake = venv_bin / "lorestack"
    fake.write_text('#!/bin/sh\necho "venv lorestack: $*"\n')
    fake.chmod(0o755)
    found = subprocess.run(argv, cwd=repo, capture_output=True, text=True, env=bare)
    assert found.returncode == 0, found.stderr
    assert found.stdout.strip() == "venv lorestack: check --hook pre-commit --staged"

    # exact uninstall: the original text back, and no backup left in the repository
    assert invoke("uninstall", "pre-commit", "--framework").exit_code == 0
    assert (repo / ".pre-commit-config.yaml").read_text() == ORIGINAL_CONFIG
    assert not list(repo.glob("*.lorestack-backup"))


def test_dry_run_shows_content_and_writes_nothing(repo):
    _git_repo(repo)
    dry = invoke("install", "pre-commit", "--framework", "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "would write" in dry.output and "id: lorestack-check" in dry.output
    assert not (repo / ".pre-commit-config.yaml").exists()
    dry = invoke("install", "pre-commit", "--dry-run")
    assert "check --hook pre-commit --staged" in dry.output
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()


def test_git_hook_keeps_its_mode_and_backup_goes_on_exact_uninstall(repo):
    _git_repo(repo)
    hook = repo / ".git" / "hooks" / "pre-commit"
    original = "#!/bin/sh\necho existing-hook-ran\n"
    hook.write_text(original)
    hook.chmod(0o755)
    assert invoke("install", "pre-commit").exit_code == 0
    assert stat.S_IMODE(hook.stat().st_mode) == 0o755
    backup = hook.with_name("pre-commit.lorestack-backup")
    assert backup.read_text() == original
    invoke("install", "pre-commit", "--strict")  # a second change keeps the first backup
    assert backup.read_text() == original
    invoke("uninstall", "pre-commit")
    assert hook.read_text() == original and stat.S_IMODE(hook.stat().st_mode) == 0o755
    assert not backup.exists()
    assert os.access(hook, os.X_OK)
