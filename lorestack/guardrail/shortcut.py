"""Prose that trades a rule for convenience: "Keep the invoice total as a double …, that is
good enough", "Use my GitHub token in the release workflow until the bot account is set up",
"Read the uploads with lxml.etree.parse, it is faster", "… the access request can be filed
next week". A proposal that breaks a rule says why the shortcut is fine (it is quicker,
easier, temporary, or put off); one that keeps the rule has no shortcut to argue for.

It is read only where the forbidden-act gate (judging._unlike_forbidden) would let a prose
proposal pass: the proposal applied by meaning (it is about the rule's subject) and reads far
from the words of what the rule forbids, which the sentence model cannot tell from a
look-alike (twenty-first session). Such a proposal stays "applies, undecided" (never a
block). Never for a diff or a tool call: a code comment's "until 2.7" argues nothing.
Measured on the tuning batches (docs/guardrail.md, twenty-second session): of the prose
cases, 67 of 473 violations and 2 of 365 look-alikes carry one of these phrases.
"""

from __future__ import annotations

import re

ENABLED = True

# put off, temporary, quicker or easier, good enough, or a risk accepted
_SHORTCUT = re.compile(
    r"\b(?:for\s+now|until|later|next\s+(?:week|sprint|release|quarter|month)|temporar(?:y|ily)"
    r"|for\s+the\s+time\s+being|in\s+the\s+meantime|can\s+(?:wait|stay|come)"
    r"|quick(?:ly)?|faster|easier|simpler|good\s+enough|is\s+fine|is\s+slow|in\s+one\s+go"
    r"|(?:don't|doesn't|do\s+not|does\s+not)\s+have\s+to|without\s+(?:waiting|writing|asking)"
    r"|anyway|whatever|forever|in\s+case|nobody\s+(?:needs|will))\b",
    re.I,
)


def shortcut(text: str) -> str:
    """The phrase by which prose argues for a shortcut, else ''."""
    if not ENABLED:
        return ""
    m = _SHORTCUT.search(text)
    return m.group(0) if m else ""
