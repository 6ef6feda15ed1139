"""A proposal that only takes away what a rule forbids keeps the rule: "Remove the last jQuery
call from the admin pages" under "We will not use jQuery in new frontend code", "Replace the
float price field with an integer number of cents" under "Never use floats for money", "Stop
writing the access token to localStorage" under "Auth tokens are never kept in localStorage".
The fourteenth session read this for a category's members (members.py); this reads it for the
words of the rule's own prohibition, for a guessed reading that left the proposal "applies,
undecided" (sixteenth session).

It never keeps a proposal where the rule forbids taking something away itself ("never delete a
version", "no renaming or dropping columns", "never switch off CSRF protection"), where a
forbidden word also occurs outside what is taken away ("Remove the YAML loader and add an INI
file"), or where the rule names nothing it forbids ("Session cookies are always set with
HttpOnly": dropping HttpOnly is what breaks it). What is removed ends where a reason or a
replacement begins ("because", "in favour of", "before", "so that"); what a replacement
brings ("with a double", "to eu-west-2") is added, and keeps the rule only where the rule
itself names it as its way (review of the sixteenth session: each let a violation pass).
"""

from __future__ import annotations

import re

from lorestack.guardrail.meaning import split_acts, stated_clauses
from lorestack.guardrail.sentence_words import CLAUSE_MARKS
from lorestack.guardrail.terms import stem

ENABLED = True

# a verb that takes its object away; "stop" takes the whole act that follows it
_TAKES_AWAY = re.compile(
    r"(?:remov|delet|retir|replac|migrat)(?:e|es|ed|ing)|(?:uninstall|convert|port)(?:s|ed|ing)?"
    r"|mov(?:e|es|ed|ing)|(?:drop|stop|strip)(?:s|ped|ping)?"
)
# where the object of such a verb ends: what it is taken from, moved to or replaced with
_OBJECT_ENDS = frozenset(
    "from in on at to into onto with by for under inside across out off within as because "
    "since before after so instead rather favour favor until unless when while".split()
)
# where the object of "stop" ends: a reason, a replacement or a time, never a place
_STOP_ENDS = frozenset(
    "because since before after so for instead rather favour favor until unless when while "
    "during".split()
)
# a verb whose object is replaced by what follows with / to / by: that is added
_REPLACES = re.compile(r"(?:replac|migrat|convert|port|mov|switch)\w*")
_ADDS = frozenset("with to into onto by".split())
_LEAD = frozenset("please also then now just first and so".split())
# a rule that forbids taking something away: removing is the forbidden act, not a way out
_REMOVAL_ACT = re.compile(
    r"(?i)\b(?:remov|delet|drop|disabl|skip|truncat|yank|unpublish|rewrit|revok|bypass|silenc"
    r"|strip|renam|deprecat|downgrad|turn\w*\s+(?:\w+\s+)?off|switch\w*\s+(?:\w+\s+)?off"
    r"|stop|replac|migrat|convert|retir|uninstall|mov(?:e|es|ed|ing)\b|port(?:s|ed|ing)?\b)"
)
# a proposal's clauses; a dot or a mark inside a word is code ("settings.ini", "!important")
_CLAUSES = re.compile(
    CLAUSE_MARKS + r"|\.(?:\s+|$)|\n+|,\s+|\s+(?:and|but|so|then|while|&&|\|\|)\s+"
)
_FUNCTION = frozenset(
    "the a an and or of to in on at for with by from is are be been it its this that these "
    "those their them they our we you your any every each all only not no never don't dont "
    "nothing nobody none use uses used using new code instead such as other will can may must "
    "should would there here into onto out up".split()
)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9][a-z0-9_']*", text.lower())


def forbidden_stems(sentence: str) -> set[str]:
    """The stems the rule's prohibition names and its stated clauses do not (its subject
    words, "tests" of "Python tests are written for pytest; no new unittest-style test
    classes", are no forbidden thing); empty when it forbids nothing or forbids a removal."""
    acts, _ = split_acts(sentence)
    if not acts or any(_REMOVAL_ACT.search(a) for a in acts):
        return set()
    stated = {stem(w) for c in stated_clauses(sentence) for w in _words(c)}
    return {
        stem(w) for a in acts for w in _words(a)
        if len(w) >= 3 and w not in _FUNCTION and stem(w) not in stated
    }


def _split(text: str) -> tuple[set[str], set[str], list[set[str]]]:
    """(stems taken away, stems said anywhere else, what each replacement adds) of a
    proposal's clauses."""
    taken: set[str] = set()
    other: set[str] = set()
    added: list[set[str]] = []
    for clause in _CLAUSES.split(text):
        words = _words(clause)
        while words and words[0] in _LEAD:
            words.pop(0)
        if not words or not _TAKES_AWAY.fullmatch(words[0]):
            other.update(stem(w) for w in words)
            continue
        verb, rest = words[0], words[1:]
        ends = _STOP_ENDS if verb.startswith("stop") else _OBJECT_ENDS
        end = next((i for i, w in enumerate(rest) if w in ends), len(rest))
        taken.update(stem(w) for w in rest[:end])
        other.update(stem(w) for w in rest[end:])
        if _REPLACES.fullmatch(verb):
            brought = [i for i, w in enumerate(rest) if i >= end and w in _ADDS]
            if brought:
                added.append({
                    stem(w) for w in rest[brought[0] + 1:] if w not in _FUNCTION
                })
    return taken, other, added


def only_taken_away(sentence: str, text: str, *, judge_added: bool = True) -> str | None:
    """The forbidden word a proposal takes away, when it names the rule's forbidden words
    only as what it removes, replaces, ports or stops; else None. `judge_added=False` (a
    confirmed rule's block turned into a question, never a pass): what a replacement brings
    need not be the rule's own way ("Replace eval(x) with ast.literal_eval(x)" under "Do not
    use eval": the forbidden word only goes away; review of the twenty-second session); there
    a proposal that only moves things over to the rule's way (toward_way.py) is named too."""
    if not ENABLED:
        return None
    if not judge_added:  # a confirmed rule's block: a move over to its way asks too
        from lorestack.guardrail.toward_way import moved_to_way  # (it imports from here)

        moved = moved_to_way(sentence, split_acts(sentence)[0], [], [], text)
        if moved:
            return moved
    forbidden = forbidden_stems(sentence)
    if not forbidden:
        return None
    taken, other, added = _split(text)
    if forbidden & other:
        return None
    # what a replacement brings is judged too: kept only where the rule names it as its way
    _, recommended = split_acts(sentence)
    way = {stem(w) for c in stated_clauses(sentence) + recommended for w in _words(c)}
    if judge_added and any(not (a & way) for a in added if a):
        return None
    hit = sorted(forbidden & taken)
    return hit[0] if hit else None
