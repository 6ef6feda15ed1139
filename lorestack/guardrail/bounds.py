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

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lorestack.guardrail.sentence_words import _DETERMINERS, _SCOPE_PREPS, _content
from lorestack.guardrail.sentence_words import add_term as _add

if TYPE_CHECKING:
    from collections.abc import Sequence

    from lorestack.core.models import CriterionSpec
    from lorestack.guardrail.rules import RuleOutcome
    from lorestack.guardrail.sentences import _Reading

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
_ABOVE = (r"under|below|less than|fewer than|at most|no more than|not more than|no larger than|exceeds?|"
          r"no bigger than|no longer than|up to|within|over|above|more than|larger than|"
          r"bigger than|longer than|exceeding|a maximum of|maximum of")
_BELOW = r"at least|no less than|not less than|no fewer than|no shorter than|a minimum of|minimum of"
_BOUND = re.compile(rf"\b(?P<side>{_ABOVE}|{_BELOW})\s+{_NUM}\s*(?P<unit>[a-z]+)\b", re.I)
# how long a thing is kept: "deleted after 30 days", "deleted 90 days after …" (at most that
# long: above it is the rule's side), "removed only after six months" (at least that long)
_GONE = r"(?:deleted|purged|erased|removed|dropped|discarded|expire[sd]?)"
_KEPT = re.compile(rf"\b{_GONE}\s+(?P<only>only\s+)?(?:after|within)\s+{_NUM}\s*(?P<unit>[a-z]+)\b"
                   rf"|\b{_GONE}\s+{_NUM}\s*(?P<unit2>[a-z]+)\s+after\b", re.I)
# a bound with no unit on a name the sentence spells as code: "Keep max_connections at or
# under 200" (twenty-sixth session): the bound's kind is that name
_NAMED = re.compile(rf"(?<![\w.-])(?P<key>[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[a-z]+(?:[A-Z][a-z0-9]+)+)\b"
                    rf"[^.;,]*?\b(?P<side>{_ABOVE}|{_BELOW})\s+(?P<n>\d+(?:\.\d+)?)(?![\w%]|\s*[A-Za-z%])")
# a key naming a time without its unit (`timeout=60`, `CACHE_TTL = 86400`): seconds, as the
# libraries that read such keys count them; one naming a bound (`maxReceiveCount`) counts what
# a bound of the sentence counts, where the line is about the rule
_TIME_KEYS = {"timeout", "ttl", "delay", "interval", "duration", "expiry", "expires", "lifetime",
              "wait", "age"}
_BOUND_KEYS = {"max", "maximum", "limit", "cap", "ceiling"}
_QUANTITY = re.compile(rf"(?<![\w.$/-]){_NUM}(?P<gap>\s?)(?P<unit>[a-z]+)\b", re.I)
# an identifier naming its unit, then its value: `retention_in_days = 365`, `maxReplicas: 400`
# (twenty-seventh session) also no limit (`timeout=None`), a product (`2 * 60`) and a pair
# (`timeout=(3.05, 120)`: connect and read, each a value)
_KEYED = re.compile(r"\b(?P<key>[A-Za-z_][\w-]*)\"?\s*[:=]\s*\"?(?P<n>\d+(?:_\d{3})*(?:\.\d+)?"
                    r"(?:\s*\*\s*\d+(?:\.\d+)?)*(?![\w.])|\(\s*\d+(?:\.\d+)?\s*,\s*\d+(?:\.\d+)?\s*\)"
                    r"|(?:None|null|nil|Infinity|math\.inf)\b)")
_FOREVER = re.compile(r"\b(forever|indefinitely|for good|permanently|never expires?|"
                      r"no expiry|no expiration|unlimited|no limit)\b", re.I)
ON = True  # tests and tests/stage_audit.py switch the reading off
_JS = (".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs")  # a unit-less time key counts milliseconds
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
    for m in _NAMED.finditer(sentence):
        side = m.group("side").lower()
        found.append(Bound(m.group(0), "key:" + _key(m.group("key")), _number(m.group("n")),
                           not re.fullmatch(_BELOW, side)))
    for m in _KEPT.finditer(sentence):
        unit, number = (m.group("unit"), m.group(2)) if m.group("unit") else (m.group("unit2"), m.group(4))
        got = _kind(unit, attached=False)
        if got and got[0] == "time":
            found.append(Bound(m.group(0), "time", _number(number) * got[1], not m.group("only")))
    return found


def _parts(key: str) -> list[str]:
    return [p.lower() for p in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", key)]


def _key(key: str) -> str:
    """`max_connections`, `maxConnections`, `MAX-CONNECTIONS` alike: 'max connections'."""
    return " ".join(_parts(key))


def _quantities(text: str, kinds: set[str], ms: bool = False):
    """(what the proposal says, kind, value) for each quantity in `text` of one of `kinds`; a
    time key without its unit counts milliseconds where `ms` (JavaScript), else seconds."""
    for m in _QUANTITY.finditer(text):
        got = _kind(m.group("unit"), attached=not m.group("gap"))
        kind, scale = got if got else (_noun(m.group("unit")), 1.0)
        if kind in kinds:
            yield m.group(0), kind, _number(m.group(1)) * scale
    counted = [k for k in kinds if k not in ("time", "size") and not k.startswith("key:")]
    for m in _KEYED.finditer(text):
        parts = _parts(m.group("key"))
        for value in _values(m.group("n")):
            if "key:" + " ".join(parts) in kinds:
                yield m.group(0), "key:" + " ".join(parts), value
                continue
            for part in reversed(parts):
                got = _kind(part, attached=True) if len(part) > 1 else None
                kind, scale = got if got else (_noun(part), 1.0)
                if kind in kinds:
                    yield m.group(0), kind, value * scale
                    break
            else:
                if "time" in kinds and _TIME_KEYS & set(parts):
                    yield m.group(0), "time", value * _time_scale(parts, m, text, ms)
                elif counted and _BOUND_KEYS & set(parts):
                    yield m.group(0), "bound:" + counted[0], value


_MS_KEYS = {"timeout", "delay", "interval", "wait"}  # counted in ms by JavaScript's APIs
_UNIT_NOTE = re.compile(r"(?://|#|/\*|--)[^\n]*?\b(?:(?P<ms>ms|millis|milliseconds?)|(?P<s>s|secs?|seconds?))\b",
                        re.I)


def _time_scale(parts: list[str], m: re.Match, text: str, ms: bool) -> float:
    """What a unit-less time key counts (fix27b): a comment on its line naming the unit wins
    (`ttl: 7200 // seconds`; "ms" only in JavaScript); in JavaScript a timeout, delay or interval counts ms, and a key
    whose unit varies by library (ttl, maxAge, expires) only where its value multiplies by
    1000 — else seconds, so a value past a bound as seconds is never read into a pass."""
    end = text.find("\n", m.end())
    note = _UNIT_NOTE.search(text[m.end() : end if end >= 0 else len(text)])
    if note:  # in Python an "ms" note never shrinks a value: `requests.get(…, timeout=5000)  # ms`
        return 0.001 if note.group("ms") and ms else 1.0
    if not ms:
        return 1.0
    if _MS_KEYS & set(parts) or re.search(r"\b1000\b", m.group("n")):
        return 0.001
    return 1.0


def _values(said: str) -> list[float]:
    """The values a key's right side states: no limit is past every upper bound, a product
    its result, a pair each of its members."""
    if said[0].isalpha():
        return [math.inf]
    if said.startswith("("):
        return [float(n) for n in re.findall(r"\d+(?:\.\d+)?", said)]
    return [math.prod(float(n.replace("_", "")) for n in said.split("*"))]


def _line_of(text: str, at: int) -> str:
    begin = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return text[begin : end if end >= 0 else len(text)]


def _shares_word(line: str, sentence: str) -> bool:
    """A word of four letters or more in both, one the start of the other ("data" of
    "datasets", "silence" of "silences")."""
    words = {w for w in re.findall(r"[a-z]{4,}", sentence.lower()) if w not in _STOP}
    line = re.sub(r"([a-z])([A-Z])", r"\1 \2", line).lower()  # `maxTextureSize`: its words
    return any(w.startswith(s) or s.startswith(w) for w in re.findall(r"[a-z]{4,}", line)
               if w not in _STOP for s in words)


def beyond(sentence: str, text: str, *, applied: bool, ms: bool = False) -> tuple[str, Bound] | None:
    """(what the proposal says, the bound) where `text` states a quantity on the side of a
    bound of `sentence` that the rule is about; None if it states none. Unless the criterion
    `applied` already, the line saying it must share a word with the sentence (or count the
    sentence's own noun), or every "48 hours" would be about every time limit."""
    found = bounds(sentence)
    if not found:
        return None
    kinds = {b.kind for b in found}
    for said, kind, value in _quantities(text, kinds, ms):
        line = _line_of(text, text.find(said))
        keyed = kind.startswith("bound:")  # `maxReceiveCount`: only under a limit ("at most 5
        loose = kind in ("time", "size") or keyed  # …"), not a requirement's scope ("more than
        tied = applied or not loose or _shares_word(line, sentence)  # one replica")
        kind = kind.removeprefix("bound:")
        for b in found:
            if keyed and not re.match(_LIMIT, b.said, re.I):
                continue
            if b.kind == kind and tied and (value > b.value if b.above else value < b.value):
                return said.strip(), b
    for m in _FOREVER.finditer(text):
        tied = applied or _shares_word(_line_of(text, m.start()), sentence)
        for b in found:
            if b.above and b.kind != "size" and tied:
                return m.group(0), b
    return None


def open_beyond_bound(outcome: RuleOutcome, sentence: str, text: str,
                      spec: CriterionSpec | None = None, paths: Sequence[str] = ()) -> RuleOutcome:
    """A pass where the proposal states a quantity beyond a bound of the criterion's becomes
    "applies, undecided", quoting both (a pass that took the recommended way stays one)."""
    ms = bool(paths) and all(p.endswith(_JS) for p in paths)  # `timeout: 5000` in axios, jest
    outcome = past_bound_term(outcome, spec, text, ms)
    if not ON or outcome.status not in ("satisfied", "not_applicable") or outcome.exempted_by:
        return outcome
    hit = beyond(sentence, text, applied=outcome.status == "satisfied", ms=ms)
    if hit is None:
        return outcome
    said, bound = hit
    outcome.status, outcome.quote = "undecided", said
    outcome.reason = (f"applies, undecided: the proposal says '{said}', past the criterion's "
                      f"'{bound.said}': judge whether it breaks the rule")
    return outcome


_LIMIT = (r"under|below|less than|fewer than|at most|no more than|not more than|no larger than|"
          r"no bigger than|no longer than|up to|a maximum of|maximum of")
_PAST = r"above|over|more than|larger than|bigger than|longer than|exceed\w*"
# words of a clause around its bound that name no thing bounded
_GRAMMAR = frozenset("never not no must should shall keep kept stay stays remain remains be is "
                     "are always at or set sets do don't does than".split()) | _DETERMINERS


def bound_rule(r: _Reading, words: list[str]) -> bool:
    """A clause whose rule is a bound on one thing (twenty-sixth session): "Timeouts never
    above 30 s", "Keep max_connections at or under 200", "Never set a timeout above 30
    seconds". The bound was read as a thing ("never above 30 s" forbade '30 s' — the value
    that keeps the rule); now the draft forbids the thing past its bound ('timeouts over 30 s',
    a term bounds.py reads back), applying where the thing is named."""
    if not ON or len(words) + 1 < len(r.sentence.split()):
        return False  # a bound beside other rules ("… imperative mood and keep the subject
    text = " ".join(words)  # under 50 characters"): a term for it alone would drop the rest
    if within_rule(r, text):
        return True
    found = [b for b in bounds(text) if b.above and text.endswith(b.said)]
    side = re.search(rf"(?:\b(?:never|not|no)\b(?:\s+\w+){{0,5}}?\s+(?:{_PAST})|\b(?:{_LIMIT}))\s+[\w.,]+(?:\s+\w+)?$",
                     text)  # a limit, not the scope of a requirement ("more than one maintainer")
    if not found or side is None:
        return False
    before = text[: text.rindex(found[0].said)].split()
    if found[0].kind.startswith("key:"):  # the name is in what was matched
        before = found[0].said.split()[:1]
    named = [w for w in before if w not in _GRAMMAR]
    if len(named) > 3 or {"and", "or", "but"} & set(before):  # the bound is one rule of several
        return False
    thing = _content(named)[0]
    thing = " ".join(thing.split()[-2:])  # "outgoing HTTP timeouts": 'http timeouts'
    if not thing:
        return False
    number = re.search(r"(?:\d+(?:[.,]\d+)*|\b(?:" + "|".join(_WORDS) + r"))\b.*$", found[0].said)
    term = f"{thing} over {number.group(0) if number else ''}".strip()
    _add(r.draft.forbid, term)
    _add(r.draft.keywords, thing)
    r.draft.steps.append(f"'{found[0].said}': a bound; forbids '{term}' (a value past it)")
    return True


def bound_term(term: str) -> Bound | None:
    """The bound a forbidden term states ('timeouts over 30 s'), else None."""
    if " over " not in term:
        return None
    found = [b for b in bounds(term) if b.above and term.endswith(b.said)]
    return found[0] if found else None


def past_bound_term(outcome: RuleOutcome, spec: CriterionSpec | None, text: str,
                    ms: bool = False) -> RuleOutcome:
    """A forbidden term that is a bound decides by the value the proposal states: past it, the
    rule is broken (a block once the rule is accepted, "applies, undecided" while a guess)."""
    if not ON or spec is None or outcome.status not in ("satisfied", "not_applicable", "undecided"):
        return outcome
    if outcome.exempted_by or outcome.forbid_hit:
        return outcome
    for term in spec.forbid:
        bound = bound_term(term)
        if bound is None:
            continue
        thing = term.split(" over ")[0]
        hit = beyond(term, text, applied=outcome.status != "not_applicable", ms=ms)
        if hit is None or not _shares_word(_line_of(text, text.find(hit[0])), thing):
            within = [q[0] for q in _quantities(text, {bound.kind}, ms) if q[1] == bound.kind
                      and _shares_word(_line_of(text, text.find(q[0])), thing)]
            if within and outcome.status == "undecided" and len(spec.forbid) == 1 and not outcome.missing:
                outcome.status, outcome.quote = "satisfied", within[0]  # `timeout=10`: within
                outcome.reason = f"'{within[0]}' keeps within the bound '{term}'"
            continue
        said = hit[0]  # never a block, even confirmed: a key's unit is a guess (`timeout: 60000`
        outcome.quote, outcome.status = said, "undecided"  # is milliseconds in JavaScript)
        outcome.reason = (f"applies, undecided: the proposal says '{said}', past the bound "
                          f"'{term}': judge whether it breaks the rule")
        return outcome
    return outcome


_CALLS = frozenset("call calls request requests query queries job jobs".split())
_WITHIN = re.compile(r"(?P<subject>.*?)\s*\b(?:must|should|shall|has to|have to|needs? to)\s+"
                     r"(?:always\s+)?(?P<verb>[a-z]+)(?P<out>\s+out)?\s+(?P<bound>(?:within|after)\s+\S+\s+[a-z]+)")


def within_rule(r: _Reading, text: str) -> bool:
    """"X must <act> within N units" (twenty-eighth session, fix28): a bound on X, not a
    requirement of its verb ("Outgoing HTTP calls must time out within 10 seconds" was drafted
    `require 'time'`: every HTTP call missed it and blocked once confirmed). The draft forbids
    X past the bound, as `bound_rule` does; "time out" names the timeout, which is also wanted
    (a call with no timeout never times out)."""
    m = _WITHIN.fullmatch(text.lower())
    if m is None or m.group("bound").startswith("after") and not m.group("out"):
        return False  # "… expire after 30 days": at least that long; "time out after 10 s": at most
    found = [b for b in bounds(m.group("bound").replace("after", "within", 1)) if b.kind in ("time", "size")]
    if not found:
        return False
    named = [w for w in m.group("subject").split() if w not in _GRAMMAR]
    subject = named if 0 < len(named) <= 3 and _content(named)[0] else []
    if m.group("out"):  # "outgoing HTTP calls" -> 'http timeout', "calls to the gateway" ->
        kind = [w for w in named if w not in _CALLS and w not in _SCOPE_PREPS][-1:]  # 'gateway …'
        subject = kind + [m.group("verb") + "out"]
    thing = " ".join(subject[-2:])
    if not thing:
        return False
    term = f"{thing} over {found[0].said.split(None, 1)[1]}"
    _add(r.draft.forbid, term)
    if " " in thing or not m.group("out"):  # 'timeout' alone would take every timeout
        _add(r.draft.keywords, thing)
    if m.group("out"):
        _add(r.draft.require, subject[-1])
    r.draft.steps.append(f"'{found[0].said}': a bound on what must be done within it; forbids "
                         f"'{term}' (a value past it)")
    return True
