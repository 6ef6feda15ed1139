"""Draft the identity card (`project.md`) from what a repository shows.

What the project calls itself comes from its manifests first (pyproject.toml, package.json,
Cargo.toml, go.mod), then from the README with its markup stripped (badges, HTML banners,
images, links), then from the folder name. Files are listed through git when the folder is a
repository, so whatever `.gitignore` hides (build output, egg-info, caches) stays out of the
card; outside git a walk skips the usual generated folders.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import tomllib

_LANG_BY_EXT = {
    ".py": "Python",
    ".ts": "TypeScript",
    ".tsx": "TypeScript",
    ".js": "JavaScript",
    ".jsx": "JavaScript",
    ".go": "Go",
    ".rs": "Rust",
    ".java": "Java",
    ".kt": "Kotlin",
    ".rb": "Ruby",
    ".php": "PHP",
    ".cs": "C#",
    ".c": "C",
    ".h": "C",
    ".cpp": "C++",
    ".hpp": "C++",
    ".swift": "Swift",
    ".scala": "Scala",
    ".ex": "Elixir",
    ".sh": "Shell",
}
_SKIP_DIRS = {
    ".git",
    ".memory",
    "node_modules",
    ".venv",
    "venv",
    "__pycache__",
    "dist",
    "build",
    "target",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    "htmlcov",
    ".eggs",
    ".nox",
}
_TITLE_MAX = 120
_DESCRIPTION_MAX = 300


# ---- files, as git sees them ----------------------------------------------------------------
def _git_files(repo: Path) -> list[str] | None:
    """Tracked and untracked-but-not-ignored files (git's own view), or None outside git."""
    try:
        done = subprocess.run(
            [
                "git",
                "-C",
                str(repo),
                "ls-files",
                "-z",
                "--cached",
                "--others",
                "--exclude-standard",
            ],
            capture_output=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    return [f for f in done.stdout.decode("utf-8", "replace").split("\0") if f]


def _walk_files(repo: Path, limit: int = 20000) -> list[str]:
    found: list[str] = []
    stack = [repo]
    while stack and len(found) < limit:
        directory = stack.pop()
        try:
            entries = list(directory.iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir() and not entry.is_symlink():
                if entry.name not in _SKIP_DIRS and not entry.name.endswith(".egg-info"):
                    stack.append(entry)
            elif entry.is_file():
                found.append(entry.relative_to(repo).as_posix())
    return found


def repository_files(repo: Path) -> list[str]:
    files = _git_files(repo)
    if files is None:
        return _walk_files(repo)
    return [f for f in files if not f.startswith(".memory/")]


def _languages(files: list[str]) -> list[str]:
    counts: Counter[str] = Counter()
    for name in files:
        suffix = Path(name).suffix
        if suffix in _LANG_BY_EXT:
            counts[_LANG_BY_EXT[suffix]] += 1
    return [lang for lang, _ in counts.most_common(4)]


def _layout(files: list[str]) -> list[str]:
    top: dict[str, bool] = {}
    for name in files:
        head, sep, _ = name.partition("/")
        if head.startswith(".") or head in _SKIP_DIRS:
            continue
        top[head] = top.get(head, False) or bool(sep)
    return sorted(name + ("/" if is_dir else "") for name, is_dir in top.items())[:20]


# ---- manifests ------------------------------------------------------------------------------
def _toml(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return {}


def _manifest(repo: Path) -> tuple[str | None, str | None, dict]:
    """(name, description, pyproject data) from the first manifest that names the project."""
    pyproject = _toml(repo / "pyproject.toml") if (repo / "pyproject.toml").is_file() else {}
    candidates: list[tuple[object, object]] = []
    project = pyproject.get("project") or {}
    poetry = (pyproject.get("tool") or {}).get("poetry") or {}
    candidates += [
        (project.get("name"), project.get("description")),
        (poetry.get("name"), poetry.get("description")),
    ]
    if (repo / "package.json").is_file():
        try:
            package = json.loads((repo / "package.json").read_text("utf-8"))
        except (OSError, ValueError, UnicodeDecodeError):
            package = {}
        if isinstance(package, dict):
            candidates.append((package.get("name"), package.get("description")))
    if (repo / "Cargo.toml").is_file():
        cargo = _toml(repo / "Cargo.toml").get("package") or {}
        candidates.append((cargo.get("name"), cargo.get("description")))
    if (repo / "go.mod").is_file():
        try:
            match = re.search(r"^module\s+(\S+)", (repo / "go.mod").read_text("utf-8"), re.M)
        except (OSError, UnicodeDecodeError):
            match = None
        if match:
            candidates.append((match.group(1).rstrip("/").rsplit("/", 1)[-1], None))
    for name, description in candidates:
        if isinstance(name, str) and name.strip():
            text = description.strip() if isinstance(description, str) else None
            return name.strip(), text or None, pyproject
    return None, None, pyproject


# ---- README ---------------------------------------------------------------------------------
_HTML_TAG = re.compile(r"<[^>]*>")
_MD_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)|\[([^\]]*)\]\[[^\]]*\]")
_RST_DIRECTIVE = re.compile(r"^\s*(\.\.\s|:\w+:)")
_RST_UNDERLINE = re.compile(r"^\s*([=\-~^\"'`#*+])\1{2,}\s*$")


def plain_text(line: str) -> str:
    """A README line without markup: HTML tags, images, badges, link targets, emphasis."""
    text = _MD_IMAGE.sub("", line)
    text = _MD_LINK.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _HTML_TAG.sub("", text)
    text = html.unescape(text)
    text = re.sub(r"`{1,3}|\*{1,2}|(?<!\w)_{1,2}|_{1,2}(?!\w)", "", text)
    text = text.strip().lstrip("#").strip().lstrip(">").strip()
    return re.sub(r"\s+", " ", text)


def _readme(repo: Path) -> tuple[str | None, str | None]:
    """(first heading, first paragraph) of the README, markup stripped."""
    for name in ("README.md", "README.rst", "README.txt", "README", "readme.md"):
        path = repo / name
        if not path.is_file():
            continue
        try:
            text = path.read_text("utf-8", errors="replace")
        except OSError:
            return None, None
        # drop HTML comments and whole HTML blocks' tags (a centred banner, a logo)
        text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
        heading: str | None = None
        paragraph: list[str] = []
        lines = text.splitlines()
        for i, raw in enumerate(lines):
            if _RST_DIRECTIVE.match(raw) or _RST_UNDERLINE.match(raw):
                if paragraph:
                    break
                continue
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            is_heading = raw.lstrip().startswith("#") or bool(_RST_UNDERLINE.match(nxt))
            clean = plain_text(raw)
            if not clean:
                if paragraph:
                    break
                continue
            if is_heading:
                if paragraph:
                    break
                heading = heading or clean
                continue
            if heading is None and not paragraph and raw.lstrip().startswith("<"):
                heading = clean  # `<h1 align="center">Name</h1>`
                continue
            paragraph.append(clean)
        return heading, (" ".join(paragraph) or None)
    return None, None


# ---- tools ----------------------------------------------------------------------------------
def _tools(repo: Path, files: list[str], pyproject: dict) -> tuple[list[str], list[str]]:
    """(tools detected, commands worth knowing) from config files and pyproject tables."""
    tool_tables = pyproject.get("tool") or {}
    names = set(files)

    def has(*paths: str) -> bool:
        return any(p in names or (repo / p).is_file() for p in paths)

    tools: list[str] = []
    commands: list[str] = []
    if has("uv.lock") or "uv" in tool_tables:
        tools.append("uv")
        commands.append("`uv sync`")
    if has("poetry.lock") or "poetry" in tool_tables:
        tools.append("poetry")
    if has("tox.ini") or "tox" in tool_tables:
        tools.append("tox")
        commands.append("`tox`")
    if has("noxfile.py"):
        tools.append("nox")
        commands.append("`nox`")
    if has("ruff.toml", ".ruff.toml") or "ruff" in tool_tables:
        tools.append("ruff")
        commands.append("`ruff check .`")
    if has("mypy.ini", ".mypy.ini") or "mypy" in tool_tables:
        tools.append("mypy")
    if has("pytest.ini") or "pytest" in tool_tables or any(f.startswith("tests/") for f in files):
        tools.append("pytest")
        commands.append("`pytest` (tests)")
    if has(".pre-commit-config.yaml"):
        tools.append("pre-commit")
        commands.append("`pre-commit run --all-files`")
    if has("mkdocs.yml"):
        tools.append("mkdocs")
    if has("docs/conf.py"):
        tools.append("sphinx")
    if has("Dockerfile", "compose.yaml", "docker-compose.yml"):
        tools.append("docker")
    workflows = sorted(
        f for f in files if f.startswith(".github/workflows/") and f.endswith((".yml", ".yaml"))
    )
    if workflows:
        tools.append("GitHub Actions (" + ", ".join(Path(f).stem for f in workflows[:6]) + ")")
    if has(".gitlab-ci.yml"):
        tools.append("GitLab CI")
    return tools, commands


def _commands(repo: Path, pyproject: dict) -> list[str]:
    cmds: list[str] = []
    project = pyproject.get("project") or {}
    for name in project.get("scripts") or {}:
        cmds.append(f"`{name}` (console script)")
    package = repo / "package.json"
    if package.is_file():
        try:
            scripts = json.loads(package.read_text("utf-8")).get("scripts", {})
        except (json.JSONDecodeError, UnicodeDecodeError, AttributeError, OSError):
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
    return cmds


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def draft_identity(repo: Path) -> tuple[str, str]:
    """Return (title, markdown body) for a first `project.md`, for the user to edit."""
    repo = Path(repo)
    files = repository_files(repo) if repo.is_dir() else []
    name, description, pyproject = _manifest(repo)
    heading, paragraph = _readme(repo)
    title = _clip(name or heading or repo.name, _TITLE_MAX)
    description = description or paragraph
    lines = [f"# {title}", ""]
    if description:
        lines += [_clip(description, _DESCRIPTION_MAX), ""]
    lines += ["_Drafted by `lorestack init`; edit freely — it will not be overwritten._", ""]
    langs = _languages(files)
    lines.append(f"- **Languages**: {', '.join(langs) if langs else 'unknown'}")
    tools, tool_commands = _tools(repo, files, pyproject)
    if tools:
        lines.append(f"- **Tooling**: {', '.join(tools)}")
    commands = list(dict.fromkeys(_commands(repo, pyproject) + tool_commands))[:12]
    if commands:
        lines.append(f"- **Commands**: {', '.join(commands)}")
    layout = _layout(files)
    if layout:
        lines.append(f"- **Layout**: {', '.join(layout)}")
    lines += ["", "## Conventions", "", "- (add the rules a new session must know)", ""]
    return title, "\n".join(lines)
