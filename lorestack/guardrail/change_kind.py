"""Rules about a PROPERTY of a change: "Breaking changes only go into a major release",
"No risky deploys on Fridays", "Architectural changes need a design record", "Every
user-visible change needs a changelog entry". The property is no word a change contains,
and the sentence model reads "rename the timeout parameter" far from "breaking changes".
This reader knows a few signs of each property — a rename or a removal, a raised
`requires-python` (breaking); a migration, a schema or infrastructure change, a rewrite
switched on for everyone (risky); a message bus or a new service (architectural); a changed
default or a new command-line option (user-visible) — and where the rule names one and the
proposal shows it, the rule applies: "applies, undecided" (never a block), or kept when
the rule wants something and the proposal has it (`docs/adr/…` for the design record).

It only turns "nothing applied" into "applies"; it never passes what another reader
flagged. Written for the sixth tuning batch's misses (tests/guardrail_tuning_batch6.py)
from general knowledge; measured switched off in docs/guardrail-log.md.
"""

from __future__ import annotations

import re
from functools import lru_cache

ENABLED = True

# (property, words of a rule that name it, signs of it in a proposal, what says it is not)
_KINDS: tuple[tuple[str, frozenset[str], str, str], ...] = (
    (
        "breaking",
        frozenset({"breaking", "backwards", "backward", "incompatible", "compatibility"}),
        # a rename or a removal of something others call, or no longer doing something
        r"\b(?:renam|remov|drop|delet)\w*\b[^.;\n]{0,60}?\b(?:parameter|argument|function|method"
        r"|class|endpoint|field|column|option|setting|flag|alias|variable|api|attribute|support"
        r"|python|helper|module|command)s?\b"
        r"|\bno\s+longer\b|\bstop(?:s|ped)?\s+(?:reading|supporting|accepting|returning)\b"
        r"|\bRenameField\b|\bRemoveField\b|\brequires-python\b|\bpython_requires\b",
        # what it is about is private, or it goes into a major release
        r"\b(?:private|internal|unused|major)\b|\b\d+\.0\.0\b",
    ),
    (
        "risky",
        frozenset({"risky", "risk", "dangerous"}),
        r"\b(?:migrations?|schema|partition\w*|terraform|infrastructure|resiz\w+|alter\s+table"
        r"|rewritten|rewrite|every\s+customer|all\s+customers|kubectl|helm)\b",
        "",
    ),
    (
        "architectural",
        frozenset({"architectural", "architecture"}),
        r"\b(?:kafka\w*|event\s+bus|message\s+(?:bus|queue|broker)|rabbitmq|microservices?"
        r"|new\s+service|grpc|graphql|monolith)\b",
        "",
    ),
    (
        "user-visible",
        frozenset({"user-visible", "user-facing", "visible"}),
        r"\bclick\.option\(|\badd_argument\(|\bdefault\s*=|\bthe\s+default\b|\bdefault\s+output\b",
        "",
    ),
)


EXTRA = True
# written after the first measurement (fifth session): an upgrade users must act on is a
# breaking change, a changed default is user-visible, a rename or a move is refactoring
_EXTRA: tuple[tuple[str, frozenset[str], str, str], ...] = (
    ("breaking", frozenset({"upgrade", "upgrading"}), _KINDS[0][2], _KINDS[0][3]),
    ("user-visible", frozenset({"default"}), _KINDS[3][2], ""),
    (
        "refactoring",
        frozenset({"refactoring", "refactor", "refactors"}),
        r"\b(?:renam\w*|restructur\w*|reorganis\w*|reorganiz\w*|mov(?:e|es|ed|ing)\s+(?:the\s+)?"
        r"(?:helpers?|modules?|files?|code))\b",
        "",
    ),
)


def _all_kinds() -> tuple[tuple[str, frozenset[str], str, str], ...]:
    return _KINDS + _EXTRA if EXTRA else _KINDS


@lru_cache(maxsize=1024)
def _named(sentence: str, extra: bool) -> tuple[int, ...]:
    words = set(re.findall(r"[a-z][a-z-]*", sentence.lower()))
    kinds = _KINDS + _EXTRA if extra else _KINDS
    return tuple(i for i, (_, names, _, _) in enumerate(kinds) if names & words)


def kinds_named(sentence: str) -> tuple[int, ...]:
    """Indexes into the known kinds of the properties the sentence's words name."""
    return _named(sentence, EXTRA)


def shows(sentence: str, text: str) -> tuple[str, str] | None:
    """(property, the line that shows it) when the rule names a property the proposal
    shows; None otherwise (or when switched off)."""
    if not ENABLED:
        return None
    kinds = _all_kinds()
    for i in kinds_named(sentence):
        name, _, signs, veto = kinds[i]
        m = re.search(signs, text, re.I)
        if m is None or (veto and re.search(veto, text, re.I)):
            continue
        line = text[text.rfind("\n", 0, m.start()) + 1 :].split("\n", 1)[0].strip()
        return name, line
    return None
