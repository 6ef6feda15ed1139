"""Where a "before / after / when …" clause makes a rule apply (thirtieth session, fix30).

A rule's trigger clause names where it applies: "… when touching migrations" applies where
migrations are named. But in "Anything bigger needs a note in #finops before it is created"
the clause's subject is a pronoun for the rule's own subject and what is left of it is a
generic verb of making ('created'); as a keyword that verb made the rule apply to every proposal
that creates anything (and,
confirmed, block it for the note it lacks: review29's size rule blocked nine proposals of other
criteria). (The reading may have put the last place named for the pronoun: "… t3/t4g instances … before it
is created" reads "before t3/t4g is created"; a passive whose subject is only such a place is the
same clause.) A verb that names an act of its own ("before it is merged", "before they ship") stays: it is the
act the requirement is tied to (a first version dropped those too, and two violations of
tuning-all's review_required — "Merge my own PR now …" — went from block to asked). Such a clause
with a generic verb says *when* for the subject; it names no place of its own, so it adds
no keyword: the rule applies where its subject occurs, as the rest of the draft says."""

from __future__ import annotations

from lorestack.guardrail.sentence_words import _GENERIC_VERBS, _INTRODUCE
from lorestack.guardrail.words import stem

ON = True  # the switch tests and tests.stage_audit turn off

_PRONOUNS = frozenset("it they he she we you".split())
# the passive's verb: what comes after it ('created') is the act, not a thing
_COPULAS = frozenset("is are was were be been gets get".split())
# verbs of making or doing: alone they name no act of their own (issue 22: no function word as a term)
_GENERIC = frozenset(stem(v) for v in _GENERIC_VERBS | _INTRODUCE | {"build", "built", "made", "done"})


def trigger_keyword(trigger: list[str], content) -> str:
    """The keyword a trigger clause adds ('' for none); `content` is sentence_words._content.
    A clause whose subject is a pronoun (or a place the reading put for one) and whose verb is
    a generic verb of making or doing ("before it is created", "once they are added") adds
    none; a verb that names an act ("before they are merged", "before it ships") is kept."""
    if not trigger:
        return ""
    if ON:
        cut = next((i for i, w in enumerate(trigger) if w in _COPULAS), 1 if trigger[0] in _PRONOUNS else None)
        rest = [w for w in trigger[cut:] if w not in _COPULAS] if cut is not None else []
        if (cut is not None and all(w in _PRONOUNS or "/" in w for w in trigger[:cut])
                and len(rest) == 1 and stem(rest[0]) in _GENERIC):
            return ""
    return content(trigger)[0]
