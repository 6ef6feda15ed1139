"""Prose that moves something over to the rule's own way: "Move the last RabbitMQ consumer
onto Kafka and shut the old RabbitMQ box down" under "Kafka is our one message broker; we
don't run a second queueing system next to it", "Replace the billing service's last requests
call with httpx and drop requests" under "Python services use httpx as their HTTP client;
please don't add a second HTTP library". The rule applied through the thing moved away from
(RabbitMQ is a queue) and nothing it forbids occurs, so the guess asked (twenty-seventh
session: bucket B3 of tests.lookalike_buckets). taken_away.py keeps a proposal that takes
away a word the prohibition names; this one keeps a proposal whose every act replaces, moves,
converts or switches something to what the rule states as its way, or removes something.

Kept only where the rule forbids something and requires nothing, every clause is such an act
(a second act — "and set up RabbitMQ for the mailers" — keeps the old answer), what each
replacement brings names a word of the rule's stated or recommended clauses that its
prohibition does not name, and brings neither a word of the prohibition nor the word the rule
applied through unless that word is the rule's way ("onto RabbitMQ as the message broker"
stays open). A removal of the rule's own way keeps the old answer.
"""

from __future__ import annotations

import re

from lorestack.guardrail.meaning import split_acts, stated_clauses
from lorestack.guardrail.taken_away import _CLAUSES, _FUNCTION, _LEAD, _TAKES_AWAY, _words
from lorestack.guardrail.terms import gate_of, stem

ENABLED = True

# a verb whose object goes over to what follows to / with / onto / into / for / by
_MOVES = re.compile(r"(?:replac|migrat|convert|port|mov|switch|swap)\w*")
_BRINGS = frozenset("to with onto into for by".split())
# a verb that only takes away or shuts down (taken_away's, and these)
_REMOVES = re.compile(r"(?:shut|decommission|retir|deprecat)\w*")
# words that name no way of their own ("our one message broker", "the last call")
_GENERIC = _FUNCTION | frozenset(
    "one two first last old same own another more less just also it its all every each "
    "whole rest part through via go goes gone".split()
)


def _stems(text: str) -> set[str]:
    return {stem(w) for w in _words(text) if w not in _GENERIC}


def _bad(sentence: str, forbid: list[str]) -> set[str]:
    """The stems of what the rule forbids: its terms (no regex) and its prohibition's
    clauses."""
    out: set[str] = set()
    for entry in forbid:
        for alt in entry.split("|"):
            bare = gate_of(alt.strip())[1]
            if not bare.startswith("/"):
                out |= _stems(bare.removeprefix("path:").replace("&", " "))
    acts, _ = split_acts(sentence)
    return out | {s for a in acts for s in _stems(a)}


def moved_to_way(sentence: str, forbid: list[str], require: list[str], through: list[str],
                 text: str) -> str:
    """The word of the rule's way that prose moves things over to, when its every act moves,
    replaces or removes and each replacement brings the rule's way ('' otherwise).
    `through`: the words the rule applied through."""
    if not ENABLED or not forbid or require:
        return ""
    bad = _bad(sentence, forbid)
    _, recommended = split_acts(sentence)
    way = {s for c in stated_clauses(sentence) + recommended for s in _stems(c)} - bad
    if not way:
        return ""
    applied = {s for t in through for s in _stems(t)}
    found, moving = "", False
    for clause in _CLAUSES.split(text):
        words = _words(clause or "")
        while words and words[0] in _LEAD:
            words.pop(0)
        if not words:
            continue
        if moving and words[0] in _BRINGS:  # "Move X out of Y and into a header"
            words = ["move", *words]
        verb, rest = words[0], words[1:]
        moving = bool(_MOVES.fullmatch(verb))
        if moving and any(w in _BRINGS for w in rest):
            at = next(i for i, w in enumerate(rest) if w in _BRINGS)
            brought = {stem(w) for w in rest[at + 1:] if w not in _GENERIC}
            if brought & bad or (brought & applied) - way or not brought & way:
                return ""
            found = found or sorted(brought & way)[0]
        elif _MOVES.fullmatch(verb) or _TAKES_AWAY.fullmatch(verb) or _REMOVES.fullmatch(verb):
            if {stem(w) for w in rest} & way:  # it takes the rule's own way away
                return ""
        else:
            return ""  # another act
    return found
