"""Paths: gitignore-style globs and path-like words in prose or a shell command.

Globs follow gitignore habits: `*` stays inside one folder, `**` crosses folders, a
trailing `/` means everything below, a glob without `/` (`*.tf`, `.env`) matches at any
depth, and a glob that matches a parent folder matches everything inside it. A glob with a
`/` is anchored at the repository root, so `infra/**` never matches `docs/infra.md`.
Paths are case-sensitive.
"""

from __future__ import annotations

import re
from functools import lru_cache

# path-like tokens in prose: something/with/slashes or name.ext
_PATH_IN_TEXT = re.compile(
    r"(?<![\w@:/.-])(?:\.{0,2}/)?(?:[\w.-]+/)+[\w.*-]*|(?<![\w@/.-])[\w-]+\.[A-Za-z][\w]{0,7}\b"
    r"|(?<![\w@/.-])\.[A-Za-z][\w-]*(?:\.[A-Za-z][\w-]*)*(?![\w/])"  # dotfiles: .env
)


# ---- paths ------------------------------------------------------------------------------
@lru_cache(maxsize=1024)
def _glob_regex(pattern: str) -> tuple[re.Pattern, bool]:
    """(regex, anchored). Unanchored globs (no '/') may match at any depth."""
    pat = pattern.strip()
    pat = pat.removeprefix("./")
    anchored = pat.startswith("/")
    pat = pat.lstrip("/")
    if pat.endswith("/"):
        pat += "**"
    anchored = anchored or "/" in pat.rstrip("/*")
    out, i = [], 0
    while i < len(pat):
        c = pat[i]
        if pat.startswith("/**", i) and i + 3 == len(pat):
            out.append("(?:/.*)?")
            i += 3
        elif pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            close = pat.find("]", i + 1)
            if close == -1:
                out.append(re.escape(c))
                i += 1
            else:
                body = pat[i + 1 : close].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = close + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out)), anchored


def normalise_path(path: str) -> str:
    p = path.strip().strip("'\"`").replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p.rstrip(".,;:)]}'\"`").rstrip("/")


def glob_matches(pattern: str, path: str) -> bool:
    """Does `path` (repo-relative, '/'-separated) fall under the gitignore-style `pattern`?"""
    regex, anchored = _glob_regex(pattern)
    parts = normalise_path(path).split("/")
    if not parts or parts == [""]:
        return False
    starts = [0] if anchored else range(len(parts))
    for s in starts:
        for e in range(len(parts), s, -1):  # the path itself, then its parent folders
            if regex.fullmatch("/".join(parts[s:e])):
                return True
    return False


def paths_in_text(text: str) -> list[str]:
    """Path-like words in prose or a shell command (`infra/main.tf`, `setup.cfg`)."""
    found = []
    for m in _PATH_IN_TEXT.finditer(text):
        candidate = normalise_path(m.group(0))
        if candidate and not candidate.startswith(("http", "www.")) and candidate not in found:
            found.append(candidate)
    return found
