"""A value is no code word of its own (thirty-first session, fix31).

code_heads.py makes each word of a forbidden phrase that the sentence writes as code a forbidden
term too ("Never use `eval()` on request data": eval). For a key and its value — "No privileged
containers (privileged: true)" — that made 'true' a forbidden term: once confirmed, every
`check=True`, `"strict": true` or `enabled: true` in any change blocked (five look-alikes of other
criteria in one review). A value (true, false, yes, no, on, off, null, none, 0, 1) says nothing
without its key; the key-value pair stays the term."""

from __future__ import annotations

ON = True  # the switch tests and tests.stage_audit turn off

_VALUES = frozenset("true false yes no on off null none nil 0 1".split())


def is_value(word: str) -> bool:
    """Is `word` a bare value that is no code word of its own?"""
    return ON and word.lower().strip("'\"`") in _VALUES
