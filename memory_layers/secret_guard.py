"""Secret guard: credentials never reach a memory file, an index, a session or an LLM prompt.

One detector for every path that leaves the process (writes, indexing, rendered context,
hooks, MCP, LLM prompts): the rule table in `secret_rules` (documented provider token
shapes + context rules for keywords, URLs, headers and command lines) and an entropy test
for unanchored random tokens. It is pure `re` with a cheap pre-filter, so a hook can afford
it without a resident process.

Redaction works on spans: the whole matched token is replaced, once, even when rules
overlap, so no tail of a key and no half-rewritten marker survives.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from lorestack.core.errors import SecretDetected
from lorestack.memory_layers.secret_context import ALL_RULES
from lorestack.memory_layers.secret_rules import (
    TWILIO_SID,
    TWILIO_TOKEN,
    TWILIO_WORDS,
)
from lorestack.memory_layers.secret_wrapped import wrapped_tokens

# bump when the rules change what is found: indexes and cached context built by an older
# detector are rebuilt from the files
DETECTOR_VERSION = 4


@dataclass(frozen=True)
class Finding:
    kind: str
    value: str
    start: int = -1
    end: int = -1


_HINTS = frozenset(h for rule in ALL_RULES for h in rule.hints)
# which hints are looked for in the lowered text and which as written, decided once (deciding
# it per text, 189 hints each, was most of the scan: 10k items listed are 30k texts)
_LOWER_HINTS = tuple(sorted(h for h in _HINTS if h == h.lower()))
_CASED_HINTS = tuple(sorted(h for h in _HINTS if h != h.lower()))
_UNHINTED = frozenset(i for i, rule in enumerate(ALL_RULES) if not rule.hints)
_RULES_BY_HINT: dict[str, frozenset[int]] = {
    h: frozenset(i for i, rule in enumerate(ALL_RULES) if h in rule.hints) for h in _HINTS}


def _rules_for(text: str) -> list:
    """The rules whose hints `text` holds (or that have none), in ALL_RULES order."""
    lower = text.lower()
    chosen = set(_UNHINTED)
    for hint in filter(lower.__contains__, _LOWER_HINTS):  # the look-ups run in C
        chosen |= _RULES_BY_HINT[hint]
    for hint in filter(text.__contains__, _CASED_HINTS):
        chosen |= _RULES_BY_HINT[hint]
    return [ALL_RULES[i] for i in sorted(chosen)]
_TOKEN = re.compile(r"[A-Za-z0-9+/_\-=]{20,}")
_TOKEN_CHAR = re.compile(r"[A-Za-z0-9_\-]")
# digests, public keys and content addresses look random but are not secrets
_BENIGN_BEFORE = re.compile(
    r"(?:sha(?:1|224|256|384|512)[-:]|md5[-:]|h1:|base64,|ssh-(?:rsa|dss|ed25519)\s+|"
    r"ecdsa-sha2-nistp\d+\s+|sk-ssh-ed25519@openssh\.com\s+|integrity[\"']?\s*[:=]\s*[\"']?)$",
    re.IGNORECASE,
)
_PUBLIC_BLOCK = re.compile(
    r"-----BEGIN (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK|PGP SIGNATURE|"
    r"SSH SIGNATURE|CERTIFICATE REQUEST|X509 CRL)-----[\s\S]*?(?:-----END [A-Z0-9 ]+-----|\Z)"
)
_IPFS = re.compile(r"Qm[1-9A-HJ-NP-Za-km-z]{44}")
_MARKER = re.compile(r"\[REDACTED:[^\]]*\]")
_SEGMENT = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")
_DIGEST_PREFIX = re.compile(r"(?i)^(?:sha(?:1|224|256|384|512)|md5)-")
# object ids that payment/SaaS APIs print in logs and dashboards: identifiers, not keys
_OBJECT_ID = re.compile(
    r"^(?:cus|pi|pm|ch|in|ii|sub|si|evt|price|prod|acct|req|txn|seti|po|re|tr|src|card|ba|"
    r"file|cs|py|le|ipi|plink|cn|dp|du|or|sku|tok|txr)_[A-Za-z0-9]{8,32}$"
)


def _entropy(text: str) -> float:
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def looks_random(token: str, threshold: float = 4.2) -> bool:
    """An unquoted token that reads like a generated key rather than a word or a digest.

    Identifiers (camelCase, snake_case, kebab-case) are made of word-length chunks with
    vowels; a generated key switches between letters, capitals and digits every one or two
    characters. Hex strings (commit SHAs, checksums, UUIDs) are left alone: hex keys are
    caught by their provider shape or by the keyword that names them.
    """
    core = token.strip("=")
    if len(core) < 20:
        return False
    if _DIGEST_PREFIX.match(core) or _OBJECT_ID.match(core):
        return False
    parts = [p for p in re.split(r"[-_/.]", core) if p]
    if len(parts) >= 3 and len(core) / len(parts) < 10:
        return False  # names built of short parts: Qwen3-Coder-480B-A35B-Instruct, feature/x-y
    if re.fullmatch(r"[0-9a-f\-]+|[0-9A-F\-]+", core):
        return False
    if _IPFS.fullmatch(core) or core.startswith(("AAAAB3NzaC", "AAAAC3NzaC", "AAAAE2VjZHNh")):
        return False
    has_lower = bool(re.search(r"[a-z]", core))
    has_upper = bool(re.search(r"[A-Z]", core))
    has_digit = bool(re.search(r"[0-9]", core))
    if not (has_lower or has_upper) or not (has_digit or (has_lower and has_upper)):
        return False
    if _entropy(core) < min(threshold, math.log2(len(core)) - 0.9):
        return False
    segments = _SEGMENT.findall(core)
    mean_segment = sum(map(len, segments)) / max(1, len(segments))
    letters = [c for c in core if c.isalpha()]
    vowels = sum(c in "aeiouAEIOU" for c in letters) / max(1, len(letters))
    single_case = not (has_lower and has_upper)
    if single_case:
        # base32/base36 keys: long, digits spread through, few vowels; judged on the longest
        # piece, since names like pod-name-5d9f8c7b6-x2k4p join words and short hashes
        core = max(re.split(r"[-_/+]", core), key=len)
        segments = _SEGMENT.findall(core)
        mean_segment = sum(map(len, segments)) / max(1, len(segments))
        letters = [c for c in core if c.isalpha()]
        vowels = sum(c in "aeiouAEIOU" for c in letters) / max(1, len(letters))
        digits = sum(c.isdigit() for c in core) / len(core)
        return len(core) >= 28 and 0.15 <= digits <= 0.7 and vowels < 0.3 and mean_segment < 2.6
    if has_digit:
        return mean_segment < 3.2 or (vowels < 0.25 and mean_segment < 4.5)
    return mean_segment < 2.2 and vowels < 0.3


def _in_url(text: str, start: int) -> bool:
    word_start = (
        max(text.rfind(" ", 0, start), text.rfind("\n", 0, start), text.rfind("\t", 0, start)) + 1
    )
    scheme = text.find("://", word_start, start + 3)
    return scheme != -1 and scheme < start + 3


_USER_PASS = re.compile(r"[\w.\-@]{1,64}:[!-~]{3,128}")


def _is_basic_credentials(token: str) -> bool:
    """base64 of `user:password`, the value of an HTTP Basic header, wherever it is written."""
    if len(token) % 4 or not re.fullmatch(r"[A-Za-z0-9+/]+={0,2}", token):
        return False
    try:
        decoded = base64.b64decode(token, validate=True).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False
    return bool(_USER_PASS.fullmatch(decoded))


def _public_ranges(text: str) -> list[tuple[int, int]]:
    if "-----BEGIN" not in text:
        return []
    return [m.span() for m in _PUBLIC_BLOCK.finditer(text)]


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    if text[end:end + 1] == "@":
        return start, end  # a URL's userinfo: what stands before its `@` is all password
    while end > start and text[end - 1] in ".,;:)]}!?":
        end -= 1
    return start, end


def _matches(rule, text: str):
    """Matches that pass the rule's check. A rejected match resumes one character later, so
    "private key passphrase as 'x'" is tried again from "passphrase" rather than skipped."""
    pos = 0
    while pos <= len(text):
        match = rule.pattern.search(text, pos)
        if match is None:
            return
        if rule.check is None or rule.check(match):
            yield match
            pos = max(match.end(), match.start() + 1)
        else:
            pos = match.start() + 1


def find_secrets(text: str, entropy_threshold: float = 4.2) -> list[Finding]:
    """Every credential-looking span in `text` (kind, value, start, end)."""
    findings: list[Finding] = []
    if not text:
        return findings
    for rule in _rules_for(text):
        for match in _matches(rule, text):
            start, end = _trim(text, *match.span(rule.group))
            if end <= start or _MARKER.fullmatch(text[start:end]):
                continue
            findings.append(Finding(rule.kind, text[start:end], start, end))
    # a token a line break splits (its first line alone may match a provider rule too)
    for kind, start, end in wrapped_tokens(text):
        findings.append(Finding(kind, text[start:end], start, end))
    if TWILIO_SID.search(text) or TWILIO_WORDS.search(text):
        for match in TWILIO_TOKEN.finditer(text):
            near = text[max(0, match.start() - 160) : match.end() + 160]
            if TWILIO_SID.search(near.replace(match.group(0), "")) or TWILIO_WORDS.search(near):
                findings.append(Finding("twilio auth token", match.group(0), *match.span()))
    public = _public_ranges(text)
    for match in _TOKEN.finditer(text):
        start, end = match.span()
        if any(a <= start < b for a, b in public):
            continue
        if _in_url(text, start):
            continue  # hosts, paths and document ids of a URL; URL credentials have own rules
        if _BENIGN_BEFORE.search(text[max(0, start - 40) : start]):
            continue
        if looks_random(match.group(0), entropy_threshold):
            findings.append(Finding("high-entropy string", match.group(0), start, end))
        elif _is_basic_credentials(match.group(0)):
            findings.append(Finding("basic auth credentials", match.group(0), start, end))
    return findings


def _spans(text: str, findings: list[Finding]) -> list[tuple[int, int, str]]:
    """Merged spans, each widened to the whole token it sits in."""
    raw = []
    for order, f in enumerate(findings):
        start, end = f.start, f.end
        if start < 0:  # a finding built by hand: every occurrence of its value
            for m in re.finditer(re.escape(f.value), text):
                raw.append((m.start(), m.end(), order, f.kind))
            continue
        while start > 0 and _TOKEN_CHAR.match(text[start - 1]):
            start -= 1
        while end < len(text) and (_TOKEN_CHAR.match(text[end]) or text[end] == "="):
            end += 1
        raw.append((start, end, order, f.kind))
    # provider rules come first in `findings`: on equal spans their name wins
    raw.sort(key=lambda r: (r[0], -r[1], r[2]))
    merged: list[tuple[int, int, str]] = []
    for start, end, _, kind in raw:
        if merged and start <= merged[-1][1]:
            last = merged[-1]
            merged[-1] = (last[0], max(last[1], end), last[2])
        else:
            merged.append((start, end, kind))
    return merged


def redact(text: str, findings: list[Finding]) -> str:
    out, pos = [], 0
    for start, end, kind in _spans(text, findings):
        out.append(text[pos:start])
        out.append(f"[REDACTED:{kind}]")
        pos = end
    out.append(text[pos:])
    return "".join(out)


def redact_all(text: str, entropy_threshold: float = 4.2) -> tuple[str, list[str]]:
    """(text with every secret replaced, kinds found). Runs until nothing more is found."""
    kinds: set[str] = set()
    for _ in range(3):
        findings = find_secrets(text, entropy_threshold)
        if not findings:
            break
        kinds.update(f.kind for f in findings)
        text = redact(text, findings)
    return text, sorted(kinds)


def guard_text(
    text: str, *, redact_secrets: bool = False, where: str = "input", entropy_threshold: float = 4.2
) -> str:
    """Return `text` unchanged if clean, redacted if asked, else raise SecretDetected."""
    if not text:
        return text
    findings = find_secrets(text, entropy_threshold)
    if not findings:
        return text
    if redact_secrets:
        return redact_all(text, entropy_threshold)[0]
    raise SecretDetected([f.kind for f in findings], where)


def has_secret(text: str, entropy_threshold: float = 4.2) -> bool:
    return bool(text) and bool(find_secrets(text, entropy_threshold))


def redact_for_reading(text: str, entropy_threshold: float = 4.2) -> tuple[str, list[str]]:
    """(text with secrets replaced, kinds found) for what is indexed or shown to a session.

    Write paths refuse secrets, but a memory file edited by hand can still hold one; the file
    is the user's and stays untouched, while indexes and session context get the redacted text.
    The same detector as the write paths: what `search` hides, `context` hides too.
    """
    if not text:
        return text, []
    if len(text) > 4096:  # keep the memo small: at most ~4096 blocks of a few kB
        return redact_all(text, entropy_threshold)
    clean, kinds = _redact_cached(text, entropy_threshold)
    return clean, list(kinds)


@lru_cache(maxsize=4096)
def _redact_cached(text: str, entropy_threshold: float) -> tuple[str, tuple[str, ...]]:
    # the same blocks are rendered on every prompt; a resident process redacts each once
    clean, kinds = redact_all(text, entropy_threshold)
    return clean, tuple(kinds)


def redact_tree(value: Any, entropy_threshold: float = 4.2) -> tuple[Any, bool]:
    """`value` (text, or lists and dicts of them: an item's fields) with each text redacted
    for reading, and whether anything was found. Other values are kept as they are."""
    found = False

    def clean(v: Any) -> Any:
        nonlocal found
        if isinstance(v, str):
            text, kinds = redact_for_reading(v, entropy_threshold)
            found = found or bool(kinds)
            return text
        if isinstance(v, list | tuple):
            return type(v)(clean(x) for x in v)
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        return v

    return clean(value), found
