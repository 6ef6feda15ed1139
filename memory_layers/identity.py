"""Draft the identity card (`project.md`) from what a repository shows."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import tomllib

_LANG_BY_EXT = {
    ".py": "Python", ".ts": "TypeScript", ".tsx": "TypeScript", ".js": "JavaScript",
    ".jsx": "JavaScript", ".go": "Go", ".rs": "Rust", ".java": "Java", ".kt": "Kotlin",
    ".rb": "Ruby", ".php": "PHP", ".cs": "C#", ".c": "C", ".h": "C", ".cpp": "C++",
    ".hpp": "C++", ".swift": "Swift", ".scala": "Scala", ".ex": "Elixir", ".sh": "Shell",
}
_SKIP_DIRS = {".git", ".memory", "node_modules", ".venv", "venv", "__pycache__", "dist",
              "build", "target", ".tox", ".mypy_cache", ".pytest_cache"}


def _languages(repo: Path, limit: int = 4000) -> list[str]:
    counts: Counter[str] = Counter()
    seen = 0
    stack = [repo]
    while stack and seen < limit:
        directory = stack.pop()
        try:
            entries = list(directory.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.is_symlink():
                continue  # a link may loop or lead out of the repository
            if entry.is_dir():
                if entry.name not in _SKIP_DIRS and not entry.name.startswith("."):
                    stack.append(entry)
            elif entry.suffix in _LANG_BY_EXT:
                counts[_LANG_BY_EXT[entry.suffix]] += 1
                seen += 1
    return [lang for lang, _ in counts.most_common(4)]


def _commands(repo: Path) -> list[str]:
    cmds: list[str] = []
    pyproject = repo / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(pyproject.read_text("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            data = {}
        project = data.get("project", {})
        for name in (project.get("scripts") or {}):
            cmds.append(f"`{name}` (console script)")
        if "pytest" in json.dumps(data) or (repo / "tests").is_dir():
            cmds.append("`pytest` (tests)")
    package = repo / "package.json"
    if package.is_file():
        try:
            scripts = json.loads(package.read_text("utf-8")).get("scripts", {})
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
            scripts = {}
        cmds.extend(f"`npm run {name}`" for name in list(scripts)[:8])
    for name, prefix in (("Makefile", "make"), ("justfile", "just"), ("Justfile", "just")):
        path = repo / name
        if path.is_file():
            try:
                text = path.read_text("utf-8", errors="replace")
            except OSError:
                continue
            targets = re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", text, re.M)
            cmds.extend(f"`{prefix} {t}`" for t in dict.fromkeys(targets) if t != ".PHONY")
    return cmds[:12]


def _readme_title(repo: Path) -> str | None:
    for name in ("README.md", "README.rst", "README.txt", "README"):
        path = repo / name
        if path.is_file():
            try:
                for line in path.read_text("utf-8", errors="replace").splitlines():
                    stripped = line.strip().lstrip("#").strip()
                    if stripped:
                        return stripped[:120]
            except OSError:
                return None
    return None


def draft_identity(repo: Path) -> tuple[str, str]:
    """Return (title, markdown body) for a first `project.md`, for the user to edit."""
    title = _readme_title(repo) or repo.name
    langs = _languages(repo)
    layout = sorted(
        p.name + ("/" if p.is_dir() else "")
        for p in repo.iterdir()
        if not p.name.startswith(".") and p.name not in _SKIP_DIRS
    )[:20] if repo.is_dir() else []
    lines = [f"# {title}", "", "_Drafted by `memstrata init`; edit freely — it will not be overwritten._", ""]
    lines.append(f"- **Languages**: {', '.join(langs) if langs else 'unknown'}")
    commands = _commands(repo)
    if commands:
        lines.append(f"- **Commands**: {', '.join(commands)}")
    if layout:
        lines.append(f"- **Layout**: {', '.join(layout)}")
    lines += ["", "## Conventions", "", "- (add the rules a new session must know)", ""]
    return title, "\n".join(lines)
