"""The files a shell command names, for clients whose agent reads and edits through a shell.

Codex runs every file read and edit as a shell command (`exec_command`; its PreToolUse hook
sees it as tool "Bash" with `{"command": "cat src/users/repo.ts"}`), so the pre-tool event
finds the file in the command: each word that is an existing file inside the repository, and
the files an `apply_patch` body updates or adds. Words that are not files (`-n`, `1,80p`,
patterns) fall out at the existence check, which is one `stat` per word.
"""

from __future__ import annotations

import re
import shlex
from itertools import islice
from pathlib import Path

PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add) File: (.+)$", re.MULTILINE)
MAX_FILES = 3  # a command naming more files is a search or a bulk edit, not a look at one file
MAX_WORDS = 200


def files_in_command(command: str, cwd: Path, repo: Path) -> list[str]:
    """Repository-relative paths of the existing files `command` names, in order, at most
    MAX_FILES (relative words are read from `cwd`, where the command runs)."""
    # each name once, the first MAX_WORDS only: a patch naming one file 25,000 times, or a
    # 1 MiB command split whole before its first words were kept, outlasted the deadline
    words = list(dict.fromkeys(m.strip() for m in PATCH_FILE.findall(command)))[:MAX_WORDS]
    lexer = shlex.shlex(command, posix=True)  # as shlex.split, read only as far as needed
    lexer.whitespace_split, lexer.commenters = True, ""
    try:
        named = list(islice(lexer, MAX_WORDS))
    except ValueError:  # an unbalanced quote: the plain words still name files
        named = command.split(maxsplit=MAX_WORDS)[:MAX_WORDS]
    words += named
    root = repo.resolve()
    found: list[str] = []
    for word in words:
        word = word.lstrip("<>")  # `< file`, `>file` redirections
        if not word or word.startswith("-") or len(word) > 400 or "\n" in word:
            continue
        path = Path(word) if Path(word).is_absolute() else cwd / word
        try:
            resolved = path.resolve()
            rel = resolved.relative_to(root).as_posix()
        except (OSError, ValueError):
            continue  # outside the repository
        if rel in found or rel.startswith(".git/") or not resolved.is_file():
            continue
        found.append(rel)
        if len(found) > MAX_FILES:
            return []
    return found
