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
# the clause hung on the statement ("… when nobody else is working on it", "… since its cert is
# not valid"): its rule words do not make the statement a rule
_HUNG = re.compile(r"(?i)(?:,\s*|\s)(?:when|whenever|since|because|as\s+long\s+as|if|unless|"
                   r"while|until|except|even\s+when|even\s+if)\b.*$")
# the statement says the act is allowed ("is fine", "no longer need"): the opposite of a rule
_ALLOWED = re.compile(
    r"(?i)\b(?:is|are|'s|'re|be|seems?)\s+(?:fine|ok|okay|allowed|acceptable|permitted|safe|"
    r"harmless)\b|\bno\s+longer\s+(?:needs?|required|necessary|have\s+to|has\s+to|must)\b|"
    r"\b(?:do|does)(?:n't|\s+not)\s+(?:need|have)\s+to\b|\bneed\s+not\b|\bnot\s+(?:needed|required)\b|"
    r"\b(?:never|nobody|no\s+one|no\s+longer)\s+(?:needs?|has|have)\s+to\b"
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
    if m and _states_rule(m.group("rule")):
        return said[: m.start("rule")].strip()
    m = _ENFORCES.match(said)
    return m.group(0) if m else ""


def _states_rule(clause: str) -> bool:
    """Does the written clause state a rule, not the act it forbids? Its own words, before any
    clause hung on it, carry a rule word, and it does not say the act is allowed: "how to
    disable TLS certificate verification when the proxy is not trusted", "force-pushing to
    main is fine when nobody else is working on it" and "small pull requests no longer need a
    review" write down the opposite of a rule (review of the twenty-third session)."""
    own = _HUNG.sub("", clause)
    return bool(_RULE_WORDS.search(own)) and not _ALLOWED.search(clause)
