"""Where a "before / after / when …" clause makes a rule apply (thirtieth session, fix30).

A rule's trigger clause names where it applies: "… when touching migrations" applies where
migrations are named. But in "Anything bigger needs a note in #finops before it is created"
or "Each schema change needs a review before it is merged" the clause's subject is a pronoun
for the rule's own subject: what is left of it is a verb ('created', 'merged'), and as a
keyword that verb made the rule apply to every proposal that creates or merges anything (and,
confirmed, block it for the note it lacks: review29's size rule blocked nine proposals of other
criteria). (The reading may have put the last place named for the pronoun: "… t3/t4g instances … before it
is created" reads "before t3/t4g is created"; a passive whose subject is only such a place is the
same clause.) Such a clause says *when* for the subject; it names no place of its own, so it adds
no keyword: the rule applies where its subject occurs, as the rest of the draft says."""

from __future__ import annotations

ON = True  # the switch tests and tests.stage_audit turn off

_PRONOUNS = frozenset("it they he she we you".split())
# the passive's verb: what comes after it ('created') is the act, not a thing
_COPULAS = frozenset("is are was were be been gets get".split())


def trigger_keyword(trigger: list[str], content) -> str:
    """The keyword a trigger clause adds ('' for none); `content` is sentence_words._content.
    A pronoun subject ("before they ship"), or a passive whose subject is a pronoun or a
    place the reading put for one ("before it is created"), adds none."""
    if not trigger:
        return ""
    if ON:
        if trigger[0] in _PRONOUNS:
            return ""
        cut = next((i for i, w in enumerate(trigger) if w in _COPULAS), None)
        if cut is not None and all(w in _PRONOUNS or "/" in w for w in trigger[:cut]):
            return ""
    return content(trigger)[0]
