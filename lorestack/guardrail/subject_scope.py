"""A prohibition whose subject names one thing in code: the act is forbidden to that thing
(thirty-first session, fix31).

"The /healthz liveness endpoint must not call the database or other services" was drafted
`forbid: database | services`: once confirmed, every proposal naming a database or a service
blocked — the /readyz check the sentence prescribes, a migration, a Redis cache. What the rule
forbids is that *this* endpoint calls them; the subject before "must not" (a route, a path, a
dotted name the sentence writes as code) is where the act is forbidden, the way "on a <div>" or
"in a URL" is (act_scope.py). The draft keeps the forbidden objects and gives them the subject's
name and modifiers as scope — its written-as-code words and the words before its head noun
(/healthz, liveness; not 'endpoint', the kind of thing) — so a confirmed rule met without them
answers "applies, undecided", never a block; `remember` shows "together with one of /healthz,
liveness". A subject written in words only ("Services must not call …") is left as it was: a
change does not spell it."""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off


def subject_words(subject: list[str], sentence: str) -> tuple[str, ...]:
    """The scope words of a subject that names a thing in code ("the /healthz liveness
    endpoint": /healthz, liveness), else ()."""
    from lorestack.guardrail.sentence_words import _DETERMINERS, _SCOPE_PREPS, _STOP, _is_path

    words = [w.strip(".,;'\"`") for w in subject]
    words = [w for w in words if w and w not in _DETERMINERS | _STOP | _SCOPE_PREPS]
    if not ON or not 2 <= len(words) <= 5:
        return ()
    # a file or a folder ("in package.json", "under core/") is where the change lives, shown by
    # its path, not by its lines: no scope word here
    files = [w for w in words if w.endswith("/") or (re.search(r"\.[a-z0-9]{1,5}$", w)
                                                     and not w.startswith("/"))]
    if files:
        return ()
    coded = [w for w in words if _is_path(w) or re.search(r"\w[./:]\w", w)]
    if not coded:
        return ()
    return tuple(dict.fromkeys([*coded, *(w for w in words[:-1] if w not in coded)]))


def scope_by_subject(reading, subject: list[str], read, *args) -> None:
    """Read the clause (`read(reading, *args)`), then give the forbidden terms it added the subject's words as
    scope, where the reading named none ("The /healthz … endpoint must not call …")."""
    from lorestack.guardrail.terms import gate_of

    draft = reading.draft
    before = list(draft.forbid)
    read(reading, *args)
    words = subject_words(subject, reading.sentence)
    if not words:
        return
    for f in draft.forbid:
        bare = gate_of(f)[1]
        if f not in before and not draft.scopes.get(bare):
            draft.scopes[bare] = words
