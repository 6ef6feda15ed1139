"""A bound a criterion sets on a quantity, and a proposal that goes beyond it (issue 22,
twenty-fourth session).

"Alert silences expire within 24 hours", "a maximum above 50 replicas needs a capacity
review", "Files over 5 MB … go through Git LFS", "Alerting rules must hold for at least five
minutes": the sentence names a number, its unit and which side of it the rule is about. A
proposal that states a quantity of the same kind on the far side (`--duration=87600h`,
`maxReplicas: 400`, "the hero video (180 MB)", `for: 30s`, "keep them forever") is what the
rule is about, though the sentence model reads it far from the words: the answer is at least
"applies, undecided". A quantity on the near side decides nothing (another part of the rule
may still be broken), so this only ever opens a pass, never closes one, and never blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lorestack.guardrail.rules import RuleOutcome

_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20,
          "thirty": 30, "sixty": 60, "ninety": 90}
_TIME = {"ms": 0.001, "millisecond": 0.001, "milliseconds": 0.001, "s": 1, "sec": 1, "secs": 1,
         "second": 1, "seconds": 1, "m": 60, "min": 60, "mins": 60, "minute": 60,
         "minutes": 60, "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
         "d": 86400, "day": 86400, "days": 86400, "w": 604800, "week": 604800,
         "weeks": 604800, "month": 2592000, "months": 2592000, "y": 31536000,
         "year": 31536000, "years": 31536000}
_SIZE = {"b": 1, "byte": 1, "bytes": 1, "kb": 1e3, "kib": 1024, "kilobytes": 1e3, "mb": 1e6,
         "mib": 1024**2, "megabytes": 1e6, "gb": 1e9, "gib": 1024**3, "gigabytes": 1e9,
         "tb": 1e12, "tib": 1024**4, "terabytes": 1e12}
# a single letter is a unit only written against its number, as code writes it (`30s`, `4h`)
_LETTERS = {"s", "m", "h", "d", "w", "y", "b"}
_NUM = r"(\d+(?:,\d{3})*(?:\.\d+)?|" + "|".join(_WORDS) + r")"
# the side of the number the rule is about: above it ("under 200 kB", "within 24 hours",
# "over 5 MB", "above 50 replicas") or below it ("at least five minutes")
_ABOVE = (r"under|below|less than|fewer than|at most|no more than|not more than|no larger than|"
          r"no bigger than|no longer than|up to|within|over|above|more than|larger than|"
          r"bigger than|longer than|exceeding|a maximum of|maximum of")
_BELOW = r"at least|no less than|not less than|no fewer than|no shorter than|a minimum of|minimum of"
_BOUND = re.compile(rf"\b(?P<side>{_ABOVE}|{_BELOW})\s+{_NUM}\s*(?P<unit>[a-z]+)\b", re.I)
# how long a thing is kept: "deleted after 30 days", "deleted 90 days after …" (at most that
# long: above it is the rule's side), "removed only after six months" (at least that long)
_GONE = r"(?:deleted|purged|erased|removed|dropped|discarded|expire[sd]?)"
_KEPT = re.compile(rf"\b{_GONE}\s+(?P<only>only\s+)?(?:after|within)\s+{_NUM}\s*(?P<unit>[a-z]+)\b"
                   rf"|\b{_GONE}\s+{_NUM}\s*(?P<unit2>[a-z]+)\s+after\b", re.I)
_QUANTITY = re.compile(rf"(?<![\w.$/-]){_NUM}(?P<gap>\s?)(?P<unit>[a-z]+)\b", re.I)
# an identifier naming its unit, then its value: `retention_in_days = 365`, `maxReplicas: 400`
_KEYED = re.compile(r"\b(?P<key>[A-Za-z_][\w-]*)\"?\s*[:=]\s*\"?(?P<n>\d+(?:\.\d+)?)\b")
_FOREVER = re.compile(r"\b(forever|indefinitely|for good|permanently|never expires?|"
                      r"no expiry|no expiration|unlimited|no limit)\b", re.I)
ON = True  # tests and tests/stage_audit.py switch the reading off
_STOP = {"that", "this", "with", "from", "into", "than", "they", "them", "their", "every",
         "never", "only", "must", "need", "needs", "each", "other", "more", "most", "least",
         "before", "after", "within", "under", "over", "above", "below"}


@dataclass(frozen=True)
class Bound:
    said: str  # as the sentence says it ("within 24 hours")
    kind: str  # "time", "size" or the counted noun's stem ("replica")
    value: float
    above: bool  # the rule is about quantities above `value` (else below it)


def _number(text: str) -> float:
    return float(_WORDS.get(text.lower(), 0) or text.replace(",", ""))


def _kind(unit: str, attached: bool) -> tuple[str, float] | None:
    unit = unit.lower()
    if unit in _LETTERS and not attached:
        return None
    if unit in _TIME:
        return "time", _TIME[unit]
    if unit in _SIZE:
        return "size", _SIZE[unit]
    return None


def _noun(unit: str) -> str:
    unit = unit.lower()
    return unit[:-1] if unit.endswith("s") and len(unit) > 4 else unit


def bounds(sentence: str) -> list[Bound]:
    """The bounds a criterion's sentence sets: a number with its unit (a time, a size, or a
    counted noun such as "replicas") after a word that says which side of it the rule is
    about."""
    found = []
    for m in _BOUND.finditer(sentence):
        side, unit = m.group("side").lower(), m.group("unit")
        above = not re.fullmatch(_BELOW, side)
        got = _kind(unit, attached=True)
        if got is None and len(unit) < 4 or unit.lower() in _WORDS:
            continue  # "under 50 of", a percent: no unit a proposal states
        kind, scale = got if got else (_noun(unit), 1.0)
        found.append(Bound(m.group(0), kind, _number(m.group(2)) * scale, above))
    for m in _KEPT.finditer(sentence):
        unit, number = (m.group("unit"), m.group(2)) if m.group("unit") else (m.group("unit2"), m.group(4))
        got = _kind(unit, attached=False)
        if got and got[0] == "time":
            found.append(Bound(m.group(0), "time", _number(number) * got[1], not m.group("only")))
    return found


def _quantities(text: str, kinds: set[str]):
    """(what the proposal says, kind, value) for each quantity in `text` of one of `kinds`."""
    for m in _QUANTITY.finditer(text):
        got = _kind(m.group("unit"), attached=not m.group("gap"))
        kind, scale = got if got else (_noun(m.group("unit")), 1.0)
        if kind in kinds:
            yield m.group(0), kind, _number(m.group(1)) * scale
    for m in _KEYED.finditer(text):
        parts = [p.lower() for p in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", m.group("key"))]
        for part in reversed(parts):
            got = _kind(part, attached=True) if len(part) > 1 else None
            kind, scale = got if got else (_noun(part), 1.0)
            if kind in kinds:
                yield m.group(0), kind, float(m.group("n")) * scale
                break


def _line_of(text: str, at: int) -> str:
    begin = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[begin : end if end >= 0 else len(text)]


def _shares_word(line: str, sentence: str) -> bool:
    """A word of four letters or more in both, one the start of the other ("data" of
    "datasets", "silence" of "silences")."""
    words = {w for w in re.findall(r"[a-z]{4,}", sentence.lower()) if w not in _STOP}
    return any(w.startswith(s) or s.startswith(w) for w in re.findall(r"[a-z]{4,}", line.lower())
               if w not in _STOP for s in words)


def beyond(sentence: str, text: str, *, applied: bool) -> tuple[str, Bound] | None:
    """(what the proposal says, the bound) where `text` states a quantity on the side of a
    bound of `sentence` that the rule is about; None if it states none. Unless the criterion
    `applied` already, the line saying it must share a word with the sentence (or count the
    sentence's own noun), or every "48 hours" would be about every time limit."""
    found = bounds(sentence)
    if not found:
        return None
    kinds = {b.kind for b in found}
    for said, kind, value in _quantities(text, kinds):
        line = _line_of(text, text.find(said))
        tied = applied or kind not in ("time", "size") or _shares_word(line, sentence)
        for b in found:
            if b.kind == kind and tied and (value > b.value if b.above else value < b.value):
                return said.strip(), b
    for m in _FOREVER.finditer(text):
        tied = applied or _shares_word(_line_of(text, m.start()), sentence)
        for b in found:
            if b.above and b.kind != "size" and tied:
                return m.group(0), b
    return None


def open_beyond_bound(outcome: RuleOutcome, sentence: str, text: str) -> RuleOutcome:
    """A pass where the proposal states a quantity beyond a bound of the criterion's becomes
    "applies, undecided", quoting both (a pass that took the recommended way stays one)."""
    if not ON or outcome.status not in ("satisfied", "not_applicable") or outcome.exempted_by:
        return outcome
    hit = beyond(sentence, text, applied=outcome.status == "satisfied")
    if hit is None:
        return outcome
    said, bound = hit
    outcome.status, outcome.quote = "undecided", said
    outcome.reason = (f"applies, undecided: the proposal says '{said}', past the criterion's "
                      f"'{bound.said}': judge whether it breaks the rule")
    return outcome
