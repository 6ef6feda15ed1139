"""Prose that says what a change leaves out: "Merge the Parquet exporter now and write its
tests next sprint", "no test needed, it is a one-line change", "the docs page can catch up
later". The thing left out is a word of the rule ("New features must come with tests"), and
the same clause of the proposal puts it off or goes without it. Neither the rule's words
(they occur, and nothing forbidden does) nor the sentence model (the proposal reads like
the rule's subject, not like a breach) catch it.

It only answers for a guessed reading that let the proposal pass, and only ever says
"applies, undecided" (never kept, never a block). Written for the tuning batches' misses
(batches 6 and 7); measured switched off in docs/guardrail-log.md.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lorestack.guardrail.sentence_needs import needs, shown_pair
from lorestack.guardrail.words import stem

ENABLED = True
ONLY_ONCE = True  # the condition of "Only A once B" as wanted (tests switch it off)
NEAR = 4  # words either side of the cue

# a clause that puts something off or goes without it
_DEFER = re.compile(
    r"\b(?:later|next\s+(?:sprint|week|release|quarter)|follow[- ]?up|afterwards|to\s+follow"
    r"|catch\s+up|can\s+wait|for\s+now|no\s+(?:\w+\s+)?needed|not\s+needed|no\s+need|without\s+(?:a|an|any|the)"
    r"|skip(?:ping|s)?|tbd|to\s+be\s+decided|leave\s+(?:\w+\s+){1,3}(?:off|out)"
    r"|left\s+(?:off|out)|regardless\s+of|irrespective\s+of|tomorrow|without\s+waiting"
    r"|(?:nobody|no\s+one)\s+(?:has|have)|(?:not|n't)\s+(?:\w+\s+)?yet)\b",
    re.I,
)
# words that name no thing a rule wants ("changes", "merge", "pull request", "every")
_GENERIC = frozenset(
    "every each all any some must should never always only with without that this these those "
    "from into onto they their there what when where which while before after first need needs "
    "needed make keep have has been being change changes changed code merge merged merging pull "
    "request requests same update updates updated added adding new work them then than also "
    "just your our ours it its the and for are not".split()
)
# where a rule says what it wants: "must come with tests", "needs a regression test",
# "without the tests that cover it", "must update the reference documentation"
_WANTS = re.compile(
    r"\b(?:needs?|requires?|without|must\s+(?:come\s+with|have|include|update|add|carry"
    r"|contain|reference|be\s+documented\s+in|be\s+covered\s+by))\s+(.+)",
    re.I,
)
# "Only A once B": B, said in words, is what the rule wants where A happens (twenty-seventh
# session: "Deploy … without waiting for QA sign-off" met `require: deploy` and passed)
_ONLY = re.compile(r"\bonly\b(.*?)\b(?:once|after|when|whenever|until)\s+(.+)", re.I)
_ALIAS = {"docs": "document", "doc": "document"}  # "the docs page" is the documentation


def _key(word: str) -> str:
    w = word.lower()
    return "document" if w.startswith("document") else _ALIAS.get(w) or stem(w)


@lru_cache(maxsize=512)
def _rule_keys(sentence: str) -> frozenset[str]:
    """The stems of what the rule wants (empty when it says it wants nothing)."""
    m = _WANTS.search(" ".join(sentence.split()))
    # and what a verb carries ("carries a severity label": sentence_needs.py)
    wanted = [shown_pair(t) or t for t in needs(sentence)[0]] + ([m.group(1)] if m else [])
    only = _ONLY.search(" ".join(sentence.split())) if ONLY_ONCE else None
    act = {_key(w) for w in re.findall(r"[A-Za-z]+", only.group(1))} if only else set()
    return frozenset(
        _key(w) for said in wanted + ([only.group(2)] if only else [])
        for w in re.findall(r"[A-Za-z]{4,}", said) if w.lower() not in _GENERIC and _key(w) not in act
    )


def judge_left_out(sentence: str, text: str) -> str | None:
    """The clause of `text` that puts off or goes without a thing the rule names, or None."""
    if not ENABLED:
        return None
    keys = _rule_keys(sentence)
    if not keys:
        return None
    for clause in re.split(r"[;,.\n]\s*|\s+-\s+", text):
        words = re.findall(r"[A-Za-z]+", clause)
        cues = [len(re.findall(r"[A-Za-z]+", clause[: m.start()])) for m in _DEFER.finditer(clause)]
        for at in cues:  # a thing the rule names, within a few words of the cue
            near = words[max(0, at - NEAR) : at + NEAR + 1]
            said = {
                _key(w) for w in near
                if w.lower() not in _GENERIC and (len(w) >= 4 or w.lower() in _ALIAS)
            }
            if said & keys:
                return clause.strip()
    return None
