"""A recommended clause that names what it replaces: "add new fields instead of renaming or
removing existing ones", "use a feature flag rather than a long-lived branch" (issue 22,
twenty-ninth session).

meaning.split_acts read such a clause whole as the recommended way, so a proposal doing the
replaced thing ("Rename the `user_name` field …") read close to the recommended way — it
shares the clause's words — and was passed as taking it. The words after "instead of" /
"rather than" name the thing the rule rules out, not the way it recommends: the clause is
cut there; the part before is the recommended way, the part after is one more act the rule
forbids.
"""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

_CUT = re.compile(r"(?i)\s*,?\s*\b(?:instead\s+of|rather\s+than|in\s+place\s+of)\b\s*")


def cut_instead(clause: str) -> tuple[str, str]:
    """(the recommended way, what it replaces) of a recommended clause; ('clause', '') when
    it names nothing it replaces or either side is under two words."""
    if not ON:
        return clause, ""
    parts = _CUT.split(clause, maxsplit=1)
    if len(parts) < 2:
        return clause, ""
    way, replaced = parts[0].strip(" ,."), parts[1].strip(" ,.")
    if len(way.split()) < 2 or len(replaced.split()) < 1:
        return clause, ""
    return way, replaced
