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
    (re.compile(rf"^\s*FROM\s+({_NAME})(?!.*\simport\s)", re.I), "container base image {0}"),
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
    # fifteenth session: commands and code forms the tuning batches' silent passes showed
    # (batches 1-13), from general knowledge of what each one does
    (re.compile(r"\bkubectl\s+(apply|set|edit|patch|delete|scale|rollout|run|exec|create)\b(.*)"),
     "change the Kubernetes cluster by hand with kubectl {0} {1}"),
    (re.compile(r"\bhelm\s+(install|upgrade|uninstall)\b(.*)"), "deploy to the cluster by hand with helm {0} {1}"),
    (re.compile(r"\bterraform\s+(apply|destroy|import)\b(.*)"), "terraform {0} of the infrastructure {1}"),
    (re.compile(r"\bgit\s+(?:checkout\s+-b|switch\s+-c|branch)\s+([^\s-]\S*)"), "new git branch named {0}"),
    (re.compile(r"\bgit\s+push\b(.*)"), "push commits to the remote repository {0}"),
    (re.compile(r"\b(?:twine\s+upload|npm\s+publish|poetry\s+publish|gem\s+push)\b(.*)"),
     "publish the package to a package registry {0}"),
    (re.compile(r"\bmvn\s+(.*)"), "Maven build {0}"),
    (re.compile(r"\bchmod\s+(.*)"), "change file permissions {0}"),
    (re.compile(r"\brm\s+-\w*r\w*\s+(.*)"), "delete files and folders recursively {0}"),
    (re.compile(r"\bslack\s+\w+\s+send\b.*?--channel\s+(\S+)(.*)"), "send a chat message to {0}: {1}"),
    (re.compile(r"\b(?:printenv|set\s+-x)\b"), "print the environment variables and commands to the log"),
    (re.compile(r"\b(?:pdb\.set_trace|breakpoint)\(\)|^\s*debugger;"), "debugger breakpoint left in the code"),
    (re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))"), "import Python library {0}{1}"),
    (re.compile(r"\bopen\((.*?),\s*['\"][wa]b?['\"]"), "write a file to the local disk {0}"),
    (re.compile(r"^\s*CREATE\s+TABLE\s+(\w+)", re.I), "new database table {0}"),
    (re.compile(r"^\s*ALTER\s+TABLE\s+(\w+)\s+(.*)", re.I), "change the database table {0}: {1}"),
    (re.compile(r"\bAddField\(\s*['\"](\w+)['\"],\s*['\"](\w+)"), "new database column {1} on {0}"),
    (re.compile(r"^\s*export\s+default\b(.*)"), "default export {0}"),
    (re.compile(r"\$\(['\"]([^'\"]+)['\"]\)"), "jQuery selector {0}"),
    (re.compile(r"^\s*kind:\s*(\w+)"), "Kubernetes {0} manifest"),
    (re.compile(r"@\w+\.(get|post|put|patch|delete)\(\s*['\"]([^'\"]+)"), "HTTP endpoint {0} {1}"),
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


# what a changed file is, by its name, for the kinds of file a rule names as a tool or a
# format (a build file, a notebook, a config format, a migration); never a programming
# language's source file: a rule about Go or shell scripts would then apply to every change
# in that language (measured: "Go library packages return errors …" and "Install scripts
# must never call sudo" each lost a complying look-alike)
_FILE_KINDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"(^|/)pom\.xml$"), "Maven build file"), (re.compile(r"\.tf$"), "Terraform configuration"),
    (re.compile(r"\.ipynb$"), "Jupyter notebook"), (re.compile(r"\.ya?ml$"), "YAML configuration file"),
    (re.compile(r"\.ini$"), "INI configuration file"), (re.compile(r"\.sql$"), "SQL file"),
    (re.compile(r"(^|/)migrations?/"), "database migration"),
    (re.compile(r"(^|/)Dockerfile"), "Dockerfile for a container image"),
]


def path_gloss(path: str) -> str | None:
    """What a changed file is, in words, with its path's names: `legacy/billing/invoice.py`
    is no kind, `services/ledger/pom.xml` "Maven build file: services ledger pom xml"; else
    None."""
    kinds = [k for pattern, k in _FILE_KINDS if pattern.search(path)]
    if not kinds:
        return None
    names = _words(re.sub(r"[/.\-]+", " ", path))
    return " ".join(f"{', '.join(kinds)}: {names}".split())[:200]
