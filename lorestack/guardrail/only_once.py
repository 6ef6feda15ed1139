""""Only A once B", "A only after B" (issue 22, twenty-sixth session): the rule limits an act
(A) to a condition (B). It does not want A — every proposal doing A met that "requirement"
(`DROP INDEX …` kept "Only drop an index once pg_stat_user_indexes has shown zero scans on it
for 30 days", and `git tag v6.0.0` "… is only tagged after the rc has been out for a week"),
and a look-alike that only looked at the statistics answered that 'drop' was missing. Where A
happens, B must be there: the act is the rule's scope (a keyword), and what B names as code or
(`pg_stat_user_indexes`, `@deprecated`) is required (a file it names, `HISTORY.md`, was
read so before: sentence_obligations._only_after). The condition
word itself ("after", "once") is never a term. A condition said only in words ("after CI is
green", "once the smoke tests pass") names nothing a proposal shows: nothing is drafted from the
clause and the rule applies by meaning. Where the act follows "only" and the condition is such
a state ("a final version is only tagged after the rc has been out for a week") the clause is
read as before (the act required): drafting nothing there was measured on the tuning sets —
rc_first's two violations became "applies, undecided" and its two look-alikes too (only a person
can tell "nine days" from "a week"); the act as a keyword alone was tried as well: a criterion
with a keyword and no term is read as a scope the user chose, which switches meaning off.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lorestack.guardrail.sentence_clauses import as_written
from lorestack.guardrail.sentence_words import (
    _GENERIC_VERBS,
    _MODALS,
    _SCOPE_PREPS,
    _content,
    _is_path,
    meaningful,
)
from lorestack.guardrail.sentence_words import add_term as _add

if TYPE_CHECKING:
    from lorestack.guardrail.sentences import _Reading

ON = True  # tests and tests/stage_audit.py switch the reading off
_CONDITION = frozenset(("after", "once", "when", "whenever"))
_FAR = frozenset(("once", "after"))
_REACH = 10
_WHERE = _SCOPE_PREPS | {"over", "onto"}
_BREAK = frozenset(("and", "or", "but", "unless", "except", "if", "until", "before"))
_BE = frozenset(("is", "are", "was", "were", "be", "been", "gets", "get", "made", "done"))


def _code_name(sentence: str, word: str) -> str:
    """`word` as the sentence spells it when that is a name in code: an underscore, a dot
    inside, `@` before it, or camelCase (`pg_stat_user_indexes`, `@deprecated`)."""
    w = word.strip(".,()'\"`")
    if not w or not re.search(r"[a-z]", w, re.I):
        return ""
    if "_" in w.strip("_") or re.search(r"\w\.\w", w):
        return as_written(sentence, w)
    m = re.search(rf"(@?)({re.escape(w)})\b", sentence, re.I)
    if m and (m.group(1) or re.search(r"[a-z][A-Z]", m.group(2))):
        return m.group(1) + m.group(2)
    return ""


def only_once(r: _Reading, before: list[str], after: list[str]) -> bool:
    """Read "[subject] only <act> once|after|when <condition>" (True), or leave the clause to
    the obligation reader (False: no condition word within the act's first words)."""
    if not ON:
        return False
    # "once" / "after" further in: the act may take more words ("Only rotate the webhook
    # signing key once …", "Only cut DNS over to the new cluster once …": fix28)
    cut = next((i for i, w in enumerate(after[:_REACH]) if w in _CONDITION
                and (i < 5 or w in _FAR and not _BREAK & set(after[:i]))), None)
    if cut is None or (after[:cut] and after[0] in _SCOPE_PREPS):
        return False  # "runs only in Atlantis after …": a place, read as before
    condition = after[cut + 1 :]
    if after[:cut]:  # "Only drop an index once …", "… is only tagged after …"
        head = after[:cut]  # the act without where it goes ("cut DNS over to the new …")
        cut_at = next((i for i, w in enumerate(head) if i and w in _WHERE), len(head))
        act = _content(head[:cut_at])[0]
        if len(act.split()) < 2:  # "deploy to production": the place is part of the act
            act = _content(head)[0]
    elif any(w in _BE for w in before):  # "A GraphQL field is removed only after …"
        act = before[-1] if before[-1] not in _BE | _GENERIC_VERBS else ""  # the act: its verb
    else:  # "Merge to main only after CI is green": the words before the cue
        act = _content([w for w in before if w not in _MODALS])[0]
    files = [w for w in condition if _is_path(w) and "." in w.rsplit("/", 1)[-1]]
    if files:
        return False  # "… only cut after HISTORY.md has an entry": read as before
    if not act or not meaningful(act):
        return False
    wanted = [n for n in (_code_name(r.sentence, w) for w in condition) if n]
    if wanted and len(act.split()) > 1:  # the act and its thing: B wanted where A happens,
        _add(r.draft.keywords, act)  # read as "A, unless B" — a requirement read by meaning
        _add(r.draft.forbid, act)  # would also bind where A is not done (`giftMessage: String`
        r.forbidden.append(act)  # under "… removed only after … @deprecated …")
        r.exemptions.append(wanted[0])
        r.draft.steps.append(f"'only … {after[cut]} {wanted[0]}': '{act}' only with '{wanted[0]}'")
    elif after[:cut]:  # "… is only tagged after the rc has been out for a week": as before
        return False  # (the act required; dropping it cost two look-alikes for two violations)
    else:  # "Deploy only once the smoke tests pass": the condition word was the term ('once')
        r.draft.steps.append(f"'only {after[cut]} …': a condition said in words, not a term")
    return True
