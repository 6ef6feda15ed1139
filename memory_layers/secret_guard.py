"""Secret guard: credentials never reach a memory file, an index or an LLM prompt.

detect-secrets supplies the vendor-specific detectors (AWS, GitHub, GitLab, Slack, Stripe,
JWT, private keys, basic-auth URLs, quoted keyword assignments, ...). Its entropy plugins
flag every ordinary word when used line by line, so they are left out; a few project rules
cover what the library misses in prose: `.env`-style lines, connection strings, modern API
key shapes and unquoted random-looking tokens.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from memstrata.core.errors import SecretDetected

_SKIPPED_PLUGINS = {"Base64 High Entropy String", "Hex High Entropy String", "Public IP (ipv4)"}

_SECRET_NAME = r"(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|auth|credential|session[_-]?key|signing[_-]?key)"

_RULES: list[tuple[str, re.Pattern[str], int]] = [
    # (kind, pattern, group holding the secret value)
    ("env assignment", re.compile(
        rf"(?i)\b(?P<key>[A-Z0-9_]*{_SECRET_NAME}[A-Z0-9_]*)\s*(?P<sep>[:=])\s*['\"]?([^\s'\"`]{{6,}})"), 3),
    ("connection string", re.compile(
        r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@]+:([^\s@/]{3,})@[^\s]+"), 1),
    ("api key", re.compile(r"\b(sk-(?:proj-|ant-|live-)?[A-Za-z0-9_\-]{20,})"), 1),
    ("api key", re.compile(r"\b(AIza[0-9A-Za-z_\-]{35})\b"), 1),
    ("github token", re.compile(r"\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})"), 1),
    ("slack token", re.compile(r"\b(xox[abposr]-[A-Za-z0-9-]{10,})"), 1),
    ("stripe key", re.compile(r"\b((?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,})"), 1),
    ("aws key", re.compile(r"\b((?:AKIA|ASIA)[0-9A-Z]{16})\b"), 1),
    ("jwt", re.compile(r"\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"), 1),
    ("private key", re.compile(r"(-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$))"), 1),
]

_TOKEN = re.compile(r"[A-Za-z0-9+/_\-=]{24,}")


_PLACEHOLDERS = {"true", "false", "none", "null", "required", "optional", "changeme"}


def _prose_not_assignment(match: re.Match, value: str) -> bool:
    """`auth: waiting for review` is prose; `DB_PASSWORD: hunter2x` and `password=x` are not.

    A colon after a plain word is how people write notes, so there the value must look like
    a credential (digits, symbols, inner capitals) unless the key is written like an env
    variable or is literally a password field.
    """
    if value.lower() in _PLACEHOLDERS:
        return True
    if match.group("sep") == "=":
        return False
    key = match.group("key")
    if "_" in key or key.isupper() or key.lower() in {"password", "passwd", "pwd", "passphrase"}:
        return False
    looks_random = re.search(r"[0-9]|[^A-Za-z]|.[A-Z]", value)
    return not looks_random


@dataclass(frozen=True)
class Finding:
    kind: str
    value: str


def _entropy(text: str) -> float:
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_random(token: str, threshold: float) -> bool:
    """Unquoted high-entropy token: mixed classes, long, not a path, word or hex digest."""
    core = token.strip("=")
    if len(core) < 24 or "/" in core and core.count("/") > 2:
        return False
    if re.fullmatch(r"[0-9a-f]+", core) or re.fullmatch(r"[0-9A-F]+", core):
        return False  # commit SHAs and content hashes are not credentials
    if re.fullmatch(r"[a-z_\-]+|[A-Z_\-]+", core):
        return False  # long identifiers in one case
    classes = sum(bool(re.search(p, core)) for p in (r"[a-z]", r"[A-Z]", r"[0-9]"))
    if classes < 3:
        return False
    if _entropy(core) < min(threshold, math.log2(len(core)) - 0.45):
        return False
    # identifiers made of words (camelCase, snake_case) read like language: many vowels and
    # few switches between letter case / digits; random tokens have neither
    letters = [c for c in core if c.isalpha()]
    vowels = sum(c in "aeiouAEIOU" for c in letters) / max(1, len(letters))
    kinds = ["u" if c.isupper() else "l" if c.islower() else "d" if c.isdigit() else "o" for c in core]
    switches = sum(a != b for a, b in zip(kinds, kinds[1:])) / max(1, len(core) - 1)
    return vowels < 0.28 or switches > 0.55


@lru_cache(maxsize=1)
def _plugins():
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    return [
        cls() for kind, cls in get_mapping_from_secret_type_to_class().items()
        if kind not in _SKIPPED_PLUGINS
    ]


# Every rule above needs one of these: a long token, a URL with credentials, a key block or a
# secret-ish word. Text without any (most prose) skips the per-line plugin scan.
_CANDIDATE = re.compile(
    r"[A-Za-z0-9+/_\-=.:]{14,}|://|BEGIN|(?i:pass|pwd|secret|token|key|auth|credential|xox)")


def find_secrets(text: str, entropy_threshold: float = 4.2, *,
                 vendor_plugins: bool = True) -> list[Finding]:
    """Every credential-looking span in `text`.

    `vendor_plugins=False` skips detect-secrets (about 80 ms to import) and keeps the project
    rules and the entropy test, for hot paths such as rendering a session's context.
    """
    findings: list[Finding] = []
    if not text or not _CANDIDATE.search(text):
        return findings
    for kind, pattern, group in _RULES:
        for match in pattern.finditer(text):
            value = match.group(group)
            if kind == "env assignment" and _prose_not_assignment(match, value):
                continue
            findings.append(Finding(kind, value))
    plugins = _plugins() if vendor_plugins else ()
    for line_no, line in enumerate(text.splitlines(), 1):
        for plugin in plugins:
            for secret in plugin.analyze_line(filename="memory.md", line=line, line_number=line_no):
                if secret.secret_value:
                    findings.append(Finding(secret.type.lower(), secret.secret_value))
        for match in _TOKEN.finditer(line):
            if _looks_random(match.group(0), entropy_threshold):
                findings.append(Finding("high-entropy string", match.group(0)))
    return findings


def redact(text: str, findings: list[Finding]) -> str:
    for finding in sorted(findings, key=lambda f: -len(f.value)):
        if finding.value and finding.value in text:
            text = text.replace(finding.value, f"[REDACTED:{finding.kind}]")
    return text


def guard_text(text: str, *, redact_secrets: bool = False, where: str = "input",
               entropy_threshold: float = 4.2) -> str:
    """Return `text` unchanged if clean, redacted if asked, else raise SecretDetected."""
    if not text:
        return text
    findings = find_secrets(text, entropy_threshold)
    if not findings:
        return text
    if redact_secrets:
        cleaned = redact(text, findings)
        # a redaction can reveal nothing new, but check the result once more
        leftover = find_secrets(cleaned, entropy_threshold)
        return redact(cleaned, leftover) if leftover else cleaned
    raise SecretDetected([f.kind for f in findings], where)


def has_secret(text: str, entropy_threshold: float = 4.2) -> bool:
    return bool(text) and bool(find_secrets(text, entropy_threshold))


def redact_for_reading(text: str, entropy_threshold: float = 4.2, *,
                       vendor_plugins: bool = True) -> tuple[str, list[str]]:
    """(text with secrets replaced, kinds found) for what is indexed or shown to a session.

    Write paths refuse secrets, but a memory file edited by hand can still hold one; the file
    is the user's and stays untouched, while indexes and session context get the redacted text.
    """
    findings = find_secrets(text, entropy_threshold, vendor_plugins=vendor_plugins)
    if not findings:
        return text, []
    return redact(text, findings), sorted({f.kind for f in findings})
