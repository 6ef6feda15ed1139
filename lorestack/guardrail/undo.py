"""A proposal that names what a rule forbids only to take it away, or as a state that is over,
keeps the rule: "Replace the float price field with an integer number of cents" under "Never
use floats for money", "Move the API key out of the query string", "The test environment
used to run around the clock; since the nightly shutdown …", "We moved off Azure in 2023".

The words alone cannot tell these from a violation — the forbidden thing is right there —
and the sentence model reads them as close to the rule. What tells them apart is the clause
the forbidden thing sits in: one whose verb undoes it (remove, replace, stop, move … out of,
migrate off, phase out) or that places it in the past (used to, no longer, previously,
until last week, the old … answered). Only for a guess (never a rule the user accepted),
only in prose (a diff's `cache.delete(key)` or a command's `--delete-branch` say nothing of
the sort), and only for a rule that forbids a thing without itself being about taking
something away or about something a change needs ("Do not skip or delete failing tests",
"Every form field needs a visible label": there, removing is the violation).
"""

from __future__ import annotations

import re
from functools import lru_cache

from lorestack.guardrail.meaning import split_acts
from lorestack.guardrail.rules import RuleOutcome, sentence_spec
from lorestack.guardrail.sentence_words import _DETERMINERS, _FUNCTION_WORDS, _STOP
from lorestack.guardrail.terms import PreparedText, term_hits
from lorestack.guardrail.words import stem
from lorestack.memory_layers.models import CriterionSpec

ENABLED = True

_MONTHS = (
    "january february march april may june july august september october november december"
)
# a clause that is over as a whole: it is in the past, nobody has done it since, it moved off
_OVER = re.compile(
    r"\b(?:no\s+longer|used\s+to|previously|formerly|(?:nobody|no\s+one)\s+(?:has|had)\s+\w+ed"
    r"|mov(?:e|es|ed|ing)\s+(?:[\w.'/-]+\s+){0,6}?(?:out\s+of|off|away\s+from)"
    r"|migrat(?:e|es|ed|ing)\s+(?:off|away\s+from)|phas(?:e|es|ed|ing)\s+out"
    rf"|until\s+(?:last|yesterday|recently|{'|'.join(_MONTHS.split())})"
    r"|(?:the|our)\s+(?:old|previous|former)\s+(?:[\w./-]+\s+){0,3}?(?:was|were|had|used|\w+ed))\b",
    re.I,
)
# stopping, said by whoever does it ("Stop writing the token …", "we stopped deploying …"),
# not of something else ("… so the linter stops failing")
_STOPS = re.compile(
    r"^\s*(?:(?:we|they|you|i|please)\s+(?:have\s+|had\s+|will\s+|must\s+|should\s+)?)?"
    r"stop(?:s|ped|ping)?\b",
    re.I,
)
# a verb that takes away its object ("remove X from Y" takes X away, and edits Y)
_TAKES_AWAY = re.compile(
    r"\b(?:remov(?:e|es|ed|ing)|replac(?:e|es|ed|ing)|get(?:ting)?\s+rid\s+of|got\s+rid\s+of)\b"
    r"(?P<object>.*?)(?=\b(?:from|with|by)\b|$)",
    re.I,
)
_WORDS = re.compile(r"[a-z][a-z0-9]+")
_GRAMMAR = frozenset("in into to for on at of from with by not no never path added changed".split())
_CLAUSE = re.compile(r"[;!?\n]+\s*|\.(?:\s+|$)|,\s+|\s+(?:and|but|then|so|while|whereas)\s+")
# a rule about taking something away or switching it off, or about what a change needs:
# there, a clause that removes is what the rule is about
_RULE_UNDOES = re.compile(
    r"\b(?:remov|drop|delet|skip|disabl|switch\w*\s+(?:\w+\s+)?off|turn\w*\s+(?:\w+\s+)?off"
    r"|stop|bypass|silenc|rewrit|renam|replac|retir|deprecat|downgrad|lower|rais|omit|los[ei]"
    r"|strip|revert|overwrit|truncat|clear|purg|wip(?:e|ing)|shut|expir)\w*",
    re.I,
)
_RULE_NEEDS = re.compile(
    r"\b(?:needs?(?!\s*(?:[.;,]|$))|requires?|must\s+(?:have|include|come|carry|be|stay|keep)"
    r"|has\s+to|have\s+to|gets?\s+an?)\b",
    re.I,
)


@lru_cache(maxsize=4096)
def eligible(sentence: str) -> bool:
    """Does the rule forbid a thing, without being about taking something away or about
    what a change needs?"""
    forbidden, _ = split_acts(sentence)
    return bool(forbidden) and not _RULE_UNDOES.search(sentence) and not _RULE_NEEDS.search(sentence)


def undoes(unit: str, forbidden: frozenset[str] = frozenset()) -> bool:
    """Does this clause take away what the rule forbids (a stem of `forbidden` is the
    object of remove / replace / get rid of), or speak of a state that is over?"""
    if _OVER.search(unit) or _STOPS.search(unit):
        return True
    return any(
        {stem(w) for w in _WORDS.findall(m.group("object").lower())} & forbidden
        for m in _TAKES_AWAY.finditer(unit)
    )


def _clauses(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in list(_CLAUSE.finditer(text)) + [None]:
        end = m.start() if m is not None else len(text)
        spans.append((start, end))
        start = m.end() if m is not None else end
    return spans


def _forbidden_stems(terms: CriterionSpec, sentence: str) -> frozenset[str]:
    """The stems of what the rule forbids: its forbidden terms and its prohibiting clauses."""
    ignorable = _FUNCTION_WORDS | _STOP | _DETERMINERS | _GRAMMAR
    text = " ".join(terms.forbid + split_acts(sentence)[0]).lower()
    return frozenset(stem(w) for w in _WORDS.findall(text) if w not in ignorable)


def judge_undo(
    outcome: RuleOutcome, spec: CriterionSpec, sentence: str, prepared: PreparedText,
    paths: list[str], meaning,
) -> RuleOutcome:
    """A guess undecided on prose that names the forbidden thing only in clauses that undo
    it or speak of the past: kept. By its words — every occurrence of what it forbids sits
    in such a clause; by meaning — nothing else in the proposal is close to the rule."""
    if (
        not ENABLED or prepared.change or not prepared.prose or outcome.status != "undecided"
        or outcome.missing or not eligible(sentence)
    ):
        return outcome
    terms = spec if (spec.forbid or spec.require) else sentence_spec(spec, sentence)[0]
    forbidden = _forbidden_stems(terms, sentence)
    text = prepared.text
    spans = [(a, b) for a, b in _clauses(text) if undoes(text[a:b], forbidden)]
    if not spans:
        return outcome
    if outcome.forbid_hit:
        hits = [
            h for entry in terms.forbid for t in entry.split("|")
            for h in term_hits(prepared, t.strip(), paths) if not h.negated_by
        ]
        if not hits or not all(
            h.start >= 0 and any(a <= h.start and h.end <= b for a, b in spans) for h in hits
        ):
            return outcome
        clause = next(text[a:b] for a, b in spans if a <= hits[0].start < b)
    elif outcome.by_meaning and meaning is not None:
        over = [" ".join(text[a:b].split()) for a, b in spans]

        def skip(unit: str) -> bool:
            unit = " ".join(unit.split())
            return any(c in unit or unit in c for c in over)

        if meaning(sentence, skip=skip) is not None:
            return outcome  # the rest of the proposal is close to the rule too
        clause = over[0]
    else:
        return outcome
    outcome.status = "satisfied"
    outcome.reason = (
        f"names what the rule is about only to take it away or as a past state "
        f"('{' '.join(clause.split())[:60]}'): kept"
    )
    outcome.quote = clause[:120]
    return outcome
