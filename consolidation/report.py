"""What a run did, as counts and as a diff of `.memory/` a person can review (and commit)."""

from __future__ import annotations

import difflib
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from lorestack.core.errors import InvalidItem


@dataclass
class SkippedCluster:
    key: str
    events: list[str]
    reason: str
    final: bool


@dataclass
class ConsolidationReport:
    run: str
    dry_run: bool = False
    method: str = "extractive"
    model: str | None = None
    resumed: bool = False
    events_considered: int = 0
    windows: int = 0
    clusters: int = 0
    added: list[str] = field(default_factory=list)
    proposed: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)
    superseded: list[dict] = field(default_factory=list)
    archived_items: list[str] = field(default_factory=list)
    archived_days: list[str] = field(default_factory=list)
    skipped: list[SkippedCluster] = field(default_factory=list)
    deferred_events: int = 0  # of the windows after a stop
    waiting_events: int = 0  # every considered event still not consolidated after the run
    given_up: list[dict] = field(default_factory=list)  # given_up.given_up_rows
    retried: int = 0  # events put back in the queue by --retry-dropped
    stopped: str = ""
    model_failed: bool = False  # stopped because the model could not be called: exit 1
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    steps: list[str] = field(default_factory=list)
    diff: str = ""
    commit: str | None = None
    notes: list[str] = field(default_factory=list)
    checkpoints: list[str] = field(default_factory=list)  # durable points passed, in order

    @property
    def changed(self) -> bool:
        return bool(self.diff.strip())

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def snapshot(root: Path) -> dict[str, str]:
    """Every markdown file of a memory root (not the derived `.index/`), by relative path."""
    out: dict[str, str] = {}
    if not root.is_dir():
        return out
    from lorestack.memory_layers.safefiles import (
        FolderScan,
        read_memory_file,
        real_root,
        scan_folder,
    )

    root_real = real_root(root)
    found = FolderScan()
    for dirpath, dirnames, _files in os.walk(root):  # os.walk never follows folder links
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        scan_folder(dirpath, root_real, found)
    for entry in sorted(found.entries, key=lambda e: e.path):
        rel = Path(entry.path).relative_to(root)
        try:
            data = read_memory_file(entry.path, root).data
        except (InvalidItem, OSError):
            continue
        out[rel.as_posix()] = data.decode("utf-8", errors="replace")
    return out


def render_diff(before: dict[str, str], after: dict[str, str]) -> str:
    """Unified diff; a file moved into archive/ shows as a rename plus what changed in it."""
    removed = sorted(set(before) - set(after))
    added = sorted(set(after) - set(before))
    chunks: list[str] = []
    renamed_to: dict[str, str] = {}
    for old in removed:
        name = old.split("/")[-1]
        folder = old.rsplit("/", 1)[0] if "/" in old else ""
        for new in added:
            if new in renamed_to.values():
                continue
            if new.startswith("archive/") and new.endswith("/" + name) and (
                    not folder or new == f"archive/{folder}/{name}" or new.split("/")[-2] == folder):
                renamed_to[old] = new
                break

    def diff(a: str, b: str, old_name: str, new_name: str) -> str:
        return "".join(difflib.unified_diff(
            a.splitlines(keepends=True), b.splitlines(keepends=True),
            fromfile=old_name, tofile=new_name))

    for path in sorted(set(before) & set(after)):
        if before[path] != after[path]:
            chunks.append(diff(before[path], after[path], f"a/{path}", f"b/{path}"))
    for old, new in sorted(renamed_to.items()):
        body = diff(before[old], after[new], f"a/{old}", f"b/{new}")
        chunks.append(f"rename {old} → {new}\n" + body)
    for path in removed:
        if path not in renamed_to:
            chunks.append(diff(before[path], "", f"a/{path}", "/dev/null"))
    for path in added:
        if path not in renamed_to.values():
            chunks.append(diff("", after[path], "/dev/null", f"b/{path}"))
    return "\n".join(c if c.endswith("\n") else c + "\n" for c in chunks if c)


def git_commit(repo_dir: Path, memory_dir: Path, message: str) -> tuple[str | None, str]:
    """Commit only `.memory/` (tracked memory files); (sha or None, note)."""
    from lorestack.core.git import GitError, git_run

    def git(*args: str) -> subprocess.CompletedProcess:
        return git_run(repo_dir, *args, timeout=120)

    try:
        inside = git("rev-parse", "--is-inside-work-tree")
        if inside.returncode != 0:
            return None, f"{repo_dir} is not a git repository; nothing committed"
        rel = memory_dir.relative_to(repo_dir).as_posix() if memory_dir.is_relative_to(repo_dir) else str(memory_dir)
        add = git("add", "-A", "--", rel)
        if add.returncode != 0:
            return None, f"git add failed: {add.stderr.strip()[:200]}"
        if git("diff", "--cached", "--quiet", "--", rel).returncode == 0:
            return None, "no memory changes to commit"
        done = git("commit", "-q", "-m", message, "--", rel)
        if done.returncode != 0:
            return None, f"git commit failed: {done.stderr.strip()[:200]}"
        return git("rev-parse", "HEAD").stdout.strip(), "committed"
    except GitError as exc:
        return None, f"{exc}; nothing committed"


def commit_message(report: ConsolidationReport) -> str:
    """The git commit message of a run: what it did, in counts."""
    return (f"lorestack consolidate {report.run}: +{len(report.added)} added, "
            f"{len(report.proposed)} proposed, {len(report.merged)} merged, "
            f"{len(report.superseded)} superseded, "
            f"{len(report.archived_items) + len(report.archived_days)} archived")
