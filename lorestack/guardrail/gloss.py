"""Code said in words, for the sentence model: a criterion is written in words ("public
functions need a docstring", "commit messages …", "container base images …") and a
change shows code (`def retry(fn):`, `git commit -m '…'`, `FROM python:3.12`), which
all-MiniLM-L6-v2 reads as noise (cosine 0.00-0.20 to the rule it breaks). A line that has
one of these common forms also gets a gloss — what the line is, in the words a rule would
use, with the line's own names — compared as one more proposal unit. It only widens where
a criterion applies by meaning; it never makes a term, so it never decides a violation.
"""

from __future__ import annotations

import re

_NAME = r"[\w.\-/:@]+"
# (pattern, gloss template): the template's {0}, {1} … are the pattern's groups
_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^\s*(?:async\s+)?def\s+(\w+)\s*\((.*)"), "new function {0} ({1}"),
    (re.compile(r"^\s*(?:export\s+)?(?:async\s+)?function\s+(\w+)\s*\((.*)"), "new function {0} ({1}"),
    (re.compile(r"^\s*class\s+(\w+)"), "new class {0}"),
    (re.compile(rf"^\s*FROM\s+({_NAME})", re.I), "container base image {0}"),
    (re.compile(r"^\s*(ENV|ARG)\s+(\w+)", re.I), "container image build setting {1}"),
    (re.compile(r"^\s*RUN\s+(.*)"), "container image build step: {0}"),
    (re.compile(r"\bgit\s+commit\b.*?-\w*m\s+['\"]([^'\"]*)"), "commit message: {0}"),
    (re.compile(r"\bgit\s+tag\b(.*)"), "create release tag {0}"),
    (re.compile(r"\bgit\s+merge\s+(.*)"), "merge branch {0}"),
    (re.compile(r"\bgit\s+rebase\s+(.*)"), "rebase branch onto {0}"),
    (re.compile(r"\bgh\s+pr\s+create\b(.*)"), "open a pull request {0}"),
    (re.compile(r"\bgh\s+pr\s+merge\b(.*)"), "merge a pull request {0}"),
    (re.compile(r"\b(?:npm|yarn|pnpm)\s+(?:install|add|i)\s+(.*)"), "add JavaScript dependency {0}"),
    (re.compile(r"\b(?:pip|uv pip|poetry)\s+(?:install|add)\s+(.*)"), "add Python dependency {0}"),
    (re.compile(r"\bssh\s+(\S+)\s*(.*)"), "remote shell on server {0}: {1}"),
    (re.compile(r"\b(?:psql|mysql)\b.*?(?:-c|-e)\s+['\"]([^'\"]*)"), "run SQL on the database: {0}"),
    (re.compile(r"\bpg_dump\b(.*)"), "dump the database {0}"),
    (re.compile(r"\b(?:logger|logging|log)\.(?:debug|info|warning|warn|error|exception)\((.*)"),
     "write to the logs: {0}"),
    (re.compile(r"^\s*-?\s*alert:\s*(\w+)"), "monitoring alert {0}"),
    (re.compile(r"^\s*image:\s*(\S+)"), "service container image {0}"),
    (re.compile(r"^\s*version\s*[=:]\s*['\"]?([\w.\-]+)"), "package version number {0}"),
    (re.compile(r"^\s*#+\s*\[?v?(\d+\.\d+(?:\.\d+)?)\]?"), "release notes section of version {0}"),
    (re.compile(r"['\"]\s*%\s*[\w(]|['\"]\.format\("), "string formatting with % or str.format"),
    (re.compile(r"^\s*import\s+\w+\s+from\s+['\"]([^'\"]+)"), "import JavaScript library {0}"),
    (re.compile(r"#\s*type:\s*ignore\b(.*)"), "type checker ignore comment {0}"),
]
_IDENT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|_+")


def _words(text: str) -> str:
    """Identifiers as words: `cache_ttl_seconds` -> "cache ttl seconds"."""
    return " ".join(_IDENT.sub(" ", text).split())


def gloss(line: str) -> str | None:
    """What `line` is, in words, if it has a common code or command form; else None."""
    for pattern, template in _FORMS:
        m = pattern.search(line)
        if m:
            said = template.format(*(_words(g or "").strip() for g in m.groups()))
            return " ".join(said.split())[:200]
    return None
