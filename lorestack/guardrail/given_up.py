"""A change that takes away what the rule asks for (issue 22, twenty-fourth session).

"Only firmware signed with the release key may be flashed" and a diff whose removed lines
held `sign_image(image_path, key=RELEASE_KEY)` while its added lines upload the image
unsigned; "Rate-limit counters are kept in Redis" and `storage_uri=REDIS_URL` replaced by
`"memory://"`; "Every HTML page declares its language with a lang attribute" and `<html
lang=…>` becoming `<html>`. The added lines alone read far from the rule; what the change
removes is where it meets it. Two words of what the rule states positively (its stated
clauses, its required terms, its recommended way) that the removed or replaced text has and
the new text no longer has make a pass "applies, undecided" (never a block, never a pass).
"""

from __future__ import annotations

import re

from lorestack.guardrail.meaning import stated_clauses
from lorestack.guardrail.rules import RuleOutcome
from lorestack.guardrail.terms import gate_of
from lorestack.guardrail.words import _identifier_parts, stem
from lorestack.memory_layers.models import CriterionSpec

ENABLED = True
# one word is often a value changed in place (`LOG_LEVEL: info` -> `warning` under "log at
# info or above"); two words of what the rule asks for gone say it is taken away
GONE_AT_LEAST = 2
# words of a rule's positive statement that say nothing of what it asks for
_PLAIN = frozenset(
    "every each only must should need needs have has with from into that this their there "
    "they them when where which what while also then than more most less least other others "
    "same kept keep keeps goes make made does done used uses using before after always".split()
)


def _stems(text: str) -> set[str]:
    out = set()
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text):
        for _, part in _identifier_parts(word):
            if len(part) >= 4 and part.lower() not in _PLAIN:
                out.add(stem(part))
    return out


def asked_for(sentence: str, spec: CriterionSpec) -> set[str]:
    """The stems of what a rule states positively: its stated clauses, required terms and
    recommended ways (never a regex or a path)."""
    said = list(stated_clauses(sentence))
    said += [gate_of(t)[1] for t in [*spec.require, *spec.alternatives]
             if not gate_of(t)[1].startswith(("/", "path:"))]
    return _stems(" ".join(said))


def given_up(sentence: str, spec: CriterionSpec, removed: str, added: str) -> str:
    """The removed line holding words of what the rule asks for that the added text no
    longer has (GONE_AT_LEAST of them over all removed lines), else ''."""
    if not ENABLED or not removed.strip():
        return ""
    gone = (asked_for(sentence, spec) & _stems(removed)) - _stems(added)
    if len(gone) < GONE_AT_LEAST:
        return ""
    for line in removed.splitlines():
        if _stems(line) & gone:
            return line.strip()
    return ""


def open_given_up(outcome: RuleOutcome, sentence: str, spec: CriterionSpec, removed: str,
                  added: str) -> RuleOutcome:
    """A pass by a change that takes away what the rule asks for becomes "applies,
    undecided", quoting the removed line (a pass that took the recommended way stays one)."""
    if outcome.status not in ("satisfied", "not_applicable") or outcome.exempted_by:
        return outcome
    line = given_up(sentence, spec, removed, added)
    if line:
        outcome.status, outcome.quote = "undecided", line[:120]
        outcome.reason = (f"applies, undecided: the change takes away '{line[:80]}', which "
                          "holds what the rule asks for: judge whether it breaks the rule")
    return outcome
