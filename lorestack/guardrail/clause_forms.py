"""Forms of a prohibition the clause reader (sentences.py) did not read as one (thirty-fifth
session, issue 22: drafting never turns a function word into a term; tuning cases in
tests/guardrail_tuning_batch27.py and tests/test_guardrail_clause_forms35.py).

- **A forbidden act with a negated condition** ("Do not merge PRs you have not reviewed",
  "Never merge a pull request that has not been approved", "Don't close bug reports nobody
  has tried to reproduce"): the object was forbidden alone ('prs'), or with the clause's
  words ('pull request not been approved maintainer'). The clause is a condition no word of a
  proposal shows broken; what is forbidden is the act on the object (`merge & prs`, or the
  object with the act's gate, `removed:branches`), unless the word that says the condition
  was met is said ('reviewed'; "not reviewed", "nobody reviewed" still count as the act, as
  every exemption's negation does). Where the object is nothing of its own ("code whose
  license …": 'code' names no thing), the clause is read as before.
- **A file named as an example** ("platform headers such as windows.h"): it was dropped as a
  path; it is forbidden as the word it is.
"""

from __future__ import annotations

import copy

from lorestack.guardrail.subject_scope import scope_by_subject

# "keep X free of Y" read as "no Y in X" was tried and removed (thirty-sixth session): X was
# not read as a place, so confirmed drafts blocked Y outside X (3 wrong blocks on batch27),
# and as a guess the forbidden-act gate passed 2 violations drafting nothing had asked about
# (docs/guardrail-log.md, thirty-sixth session)
CONDITION = True  # the switches tests and tests.stage_audit turn off
SUCH_FILE = True

# where a condition clause starts after the object: its own subject, a relative pronoun, or
# "nobody" (its own negation)
_CLAUSE_STARTS = frozenset("you we they i someone somebody that which who whose nobody".split())
_NEGATED = frozenset("not n't never didn't don't doesn't aren't isn't haven't hasn't weren't "
                     "wasn't won't cannot can't nobody".split())


def condition_start(after: list[str]) -> int | None:
    """Where a negated condition clause begins in the words after a prohibition's cue
    ("merge PRs | you have not reviewed"), else None. Not at the verb or the first word of its
    object."""
    if not CONDITION:
        return None
    for i, w in enumerate(after[2:], 2):
        if w in _CLAUSE_STARTS and (w == "nobody" or _NEGATED & set(after[i + 1:])):
            return i
    return None


def conditioned_scope(reading, subject: list[str], read, cue: str, after: list[str],
                      items: list[str]) -> None:
    """Read a prohibition clause as scope_by_subject does; when its object is followed by a
    negated condition, read only what comes before it and make what that forbade the
    rule's keywords instead (see the module docstring)."""
    from lorestack.guardrail.sentence_words import _GENERIC_VERBS, add_term
    from lorestack.guardrail.terms import gate_of

    cut = condition_start(after)
    if cut is None:
        scope_by_subject(reading, subject, read, cue, after, items)
        return
    trial = copy.deepcopy(reading)
    read(trial, cue, after[:cut], items)
    if trial.draft.forbid == reading.draft.forbid:  # "code whose license …": no object of
        scope_by_subject(reading, subject, read, cue, after, items)  # its own; as before
        return
    d = reading.draft
    forbid, forbidden, steps = list(d.forbid), list(reading.forbidden), len(d.steps)
    scope_by_subject(reading, subject, read, cue, after[:cut], items)
    moved = [f for f in d.forbid if f not in forbid]
    d.forbid, reading.forbidden = forbid, forbidden
    d.steps[steps:] = [s for s in d.steps[steps:] if ": forbids " not in s]
    verb = after[0] if after and after[0] not in _GENERIC_VERBS else ""
    kept = condition_kept(after[cut:])
    for f in moved:
        form = f if gate_of(f)[0] or not verb or "&" in f else f"{verb} & {f}"
        if form != f:
            d.scopes.pop(gate_of(f)[1], None)
        add_term(d.forbid, form)
        if kept:
            add_term(d.unless, kept)
    if moved:
        d.steps.append(f"'{' '.join(after[cut:])}': a condition; forbids "
                       f"{', '.join(d.forbid[len(forbid):])}"
                       + (f" unless '{kept}' is said" if kept else ""))


_AUX = frozenset("have has had been be is are was were did do does otherwise yet ever even "
                 "already".split())


def condition_kept(clause: list[str]) -> str:
    """The word that says a condition clause was met ("you have not *reviewed*", "nobody has
    tried to *reproduce*"), or ''."""
    from lorestack.guardrail.sentence_words import meaningful

    at = next((i for i, w in enumerate(clause) if w in _NEGATED), None)
    if at is None:
        return ""
    rest = clause[at + 1:]
    while rest and (rest[0] in _AUX or rest[0] in _NEGATED):
        rest = rest[1:]
    if len(rest) > 2 and rest[0] in ("tried", "bothered", "managed") and rest[1] == "to":
        rest = rest[2:]
    return rest[0] if rest and meaningful(rest[0]) else ""


def such_file(item: str) -> str:
    """A file a list names as an example ("platform headers such as windows.h", "(e.g.
    moment.js)"): forbidden as the word it is (`#include <windows.h>`); '' for anything else (thirty-fifth
    session: the item was dropped as a path, and the rule forbade 'platform headers' only)."""
    import re

    return item if SUCH_FILE and re.fullmatch(r"[\w-]+\.[a-z0-9]{1,4}", item) else ""
