"""A rule against going without a thing ("Don't skip CI", "Never skip the security scan",
"Never bypass the pre-commit hooks"): the draft forbids the thing, and the reader takes the
going-without verb said before it as what makes it a violation (act_scope.forbidden_verb_said:
"Skip the security scan" is the thing under the act). Confirmed, the same draft blocked the
thing met *kept*: "Make CI faster by caching node_modules", "Add a CI job that runs the unit
tests", `npm test -- --ci`, "Take database backups before each migration" — the opposite of
the act (twenty-ninth session, fix29). Where every verb the sentence forbids on the thing is
one of going without, the thing occurs only affirmed (no cue such as 'without', 'skip', 'no'
before it) and the proposal says no act of going without or taking away anywhere, the answer
is "applies, undecided" (a person judges), never a block and never a pass."""

from __future__ import annotations

import re

from lorestack.guardrail.terms import PreparedText, find_term

ON = True
# the acts of going without a thing, or of taking it away, in any form a proposal says them
_WITHOUT_SAID = re.compile(
    r"(?i)(?:\|\|\s*true\b|\b(?:skip\w*|bypass\w*|circumvent\w*|omit\w*|disabl\w*|deactivat\w*|"
    r"(?:turn|switch|shut)\w*\s+(?:\w+\s+){0,3}?off|comment\w*\s+(?:\w+\s+){0,3}?out|"
    r"remov\w*|delet\w*|drop\w*|without|no-verify|if:\s*false))")


def kept_not_skipped(outcome, sentence: str, prepared: PreparedText, confirmed: bool):
    """A confirmed violation of a going-without rule where the thing is only kept: undecided."""
    from lorestack.guardrail.act_scope import _BYPASSING, _thing, act_verbs

    if not (ON and confirmed and outcome.status == "violated" and outcome.forbid_hit):
        return outcome
    bare = _thing(outcome.forbid_hit)
    verbs = act_verbs(sentence, bare)
    if not verbs or not all(_BYPASSING.fullmatch(v) for v in verbs):
        return outcome
    hits = find_term(prepared, bare)
    if not hits or any(h.negated_by for h in hits) or _WITHOUT_SAID.search(prepared.text):
        return outcome
    outcome.status = "undecided"
    outcome.reason = (f"applies, undecided: '{bare}' occurs, but nothing goes without it "
                      f"({', '.join(verbs)} is what the rule forbids): judge whether it breaks "
                      "the rule")
    return outcome


__all__ = ["kept_not_skipped"]
