"""Prose that writes a rule down or enforces it does not break it: "Explain in the deploy
guide why production never runs the latest tag", "Document in SECURITY.md that certificate
verification is never turned off", "Add a lint rule that fails on .only( in test files".
Such a proposal names what the rule is about, often its very words, and so applied by
meaning or met a forbidden term; it asked "applies, undecided" (twenty-third session: five
look-alikes of batches 9, 19 and 20, tests.lookalike_buckets).

Read only where the whole proposal is that one act: a verb of writing down (explain,
document, note, describe) with a "that / why / how" clause stating a rule (never, nobody,
no, not, every, always, only, must), or adding a check that fails on, rejects or flags
something. Anything more ("…; then set verify=False", "… and turn it off") is read as before.
"""

from __future__ import annotations

import re

ENABLED = True

_WRITES = re.compile(
    r"(?i)^(?:please\s+)?(?:explain|document|note|describe|write\s+down|spell\s+out)\b"
    r"[^;]*?\b(?:that|why|how)\s+(?P<rule>.+)$"
)
_RULE_WORDS = re.compile(
    r"(?i)\b(?:never|nobody|no\s+one|nothing|not|no|none|every|always|only|must)\b|n't\b"
)
_ENFORCES = re.compile(
    r"(?i)^(?:please\s+)?add\s+(?:an?|one)\s+(?:[\w-]+\s+){0,2}?(?:lint\s+rule|rule|check|"
    r"test|hook|ci\s+step|step)\s+that\s+(?:fails|rejects|flags|catches|blocks|forbids|"
    r"errors|warns)\b"
)
# a second act after the first: the proposal does more than write the rule down
_MORE = re.compile(r"(?i);|&&|\bthen\b|\.\s+\S|\band\s+(?:then\s+)?(?:turn|set|switch|disable|"
                   r"add|remove|run|push|commit|deploy|merge|use|call|drop|skip)\b")


def written_down(text: str) -> str:
    """The act by which a proposal only writes a rule down or adds a check enforcing it
    ("Explain in the deploy guide why"), else ''."""
    said = " ".join(text.split()).rstrip(".")
    if not ENABLED or not said or "\n" in text.strip() or _MORE.search(said):
        return ""
    m = _WRITES.match(said)
    if m and _RULE_WORDS.search(m.group("rule")):
        return said[: m.start("rule")].strip()
    m = _ENFORCES.match(said)
    return m.group(0) if m else ""
