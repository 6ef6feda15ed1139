"""A value is no code word of its own (thirty-first session, fix31).

code_heads.py makes each word of a forbidden phrase that the sentence writes as code a forbidden
term too ("Never use `eval()` on request data": eval). For a key and its value — "No privileged
containers (privileged: true)" — that made 'true' a forbidden term: once confirmed, every
`check=True`, `"strict": true` or `enabled: true` in any change blocked (five look-alikes of other
criteria in one review). A value (true, false, yes, no, on, off, null, none, 0, 1) says nothing
without its key: it is forbidden with the key the sentence writes before it, any spacing, `:` or
`=` between (`privileged: true`, `privileged=True`, `"privileged": true`), which also finds the YAML line the plain pair
term did not."""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

_VALUES = frozenset("true false yes no on off null none nil 0 1".split())


def is_value(word: str) -> bool:
    """Is `word` a bare value that is no code word of its own?"""
    return ON and word.lower().strip("'\"`") in _VALUES


def with_key(words: list[str], value: str) -> list[str]:
    """The key-value regex for `value` and the word before it in `words` ("privileged:",
    "true"), or [] where no key stands before it."""
    i = words.index(value)
    key = words[i - 1].rstrip(":=").lower() if i > 0 else ""
    if not (ON and re.fullmatch(r"[a-z_][\w.-]*", key)):
        return []
    return [rf"/\b{re.escape(key)}[\"']?\s*[:=]\s*[\"']?{re.escape(value.lower())}\b/"]


def keyed(words: list[str], heads: list[str]) -> list[str]:
    """`heads` (code_heads.py) with each bare value among them forbidden with its key instead."""
    out: list[str] = []
    for h in heads:
        bare = re.sub(r"^/(?:\(\?-i:)?\\b|\\b\)?/$", "", h)
        out.extend(with_key(words, bare) if is_value(bare) and bare in words else [h])
    return out
