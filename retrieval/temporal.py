"""Date-aware recall: a retriever for questions about a day ("what did we ship on Friday, May 31?",
"what happened yesterday?", "what did we do the day after the gateway outage?").

BM25 and dense retrieval cannot answer these: the day is in the event's timestamp, not its
text. `DateRetriever` parses the day(s) the query names — relative to `now`, the time the
question is asked — reads those days from the journal (the truth, not the index) and ranks
their events by word overlap with the rest of the query. "The day after/before <X>" first
finds X's event with BM25 and takes its day. A query without a date yields nothing, so the
retriever costs nothing in the fusion for every other question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone

from lorestack.retrieval.date_mentions import (  # noqa: F401  (importable from here too)
    _AFTER,
    _DAY_MONTH,
    _ISO,
    _LAST_WEEKDAY,
    _MONTH,
    _MONTH_DAY,
    _NUMBERS,
    _RELATIVE,
    _YEAR_MONTH,
    MONTHS,
    WEEKDAYS,
    DateMention,
    _a_month,
    _month_of,
    _months_between,
    date_mentions,
    date_terms,
    relative_dates,
)
from lorestack.retrieval.lexical import Filters

_WORD = re.compile(r"[a-z0-9][a-z0-9_.\-/]*[a-z0-9]|[a-z0-9]", re.IGNORECASE)
STOPWORDS = frozenset((
    "a", "an", "the", "and", "or", "of", "on", "in", "at", "to", "for", "from", "by", "with",
    "what", "which", "who", "whom", "when", "where", "why", "how", "did", "do", "does", "done",
    "we", "our", "us", "i", "you", "it", "its", "is", "was", "were", "be", "been", "are", "day",
    "days", "after", "before", "happened", "happen", "work", "any", "some", "that", "this",
    "those", "these", "there", "then", "than", "ago", "last", "past"))


@dataclass
class DateQuery:
    """What the query asks about: absolute days, or days relative to an anchor found by BM25."""

    days: list[date]
    anchor_text: str = ""  # "the day after <anchor_text>"
    offset: int = 0        # +1 after, -1 before
    rest: str = ""         # the query minus its date words: what to rank the day's events by
    months: list[tuple[date, date]] = field(default_factory=list)  # "in May 2023", "last month"


def _past(month: int, day: int, today: date, weekday: int | None) -> date | None:
    """The most recent (month, day) on or before `today`; a named weekday picks among years."""
    for year in range(today.year, today.year - 8, -1):
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if d > today:
            continue
        if weekday is None or d.weekday() == weekday:
            return d
    return None


def parse_date_query(query: str, now: datetime) -> DateQuery | None:
    """The day(s) a query is about, relative to `now`; None when it names no day."""
    today = now.astimezone(timezone.utc).date() if now.tzinfo else now.date()
    days: list[date] = []
    rest = query
    for m in _ISO.finditer(query):
        try:
            days.append(date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            pass
    rest = _ISO.sub(" ", rest)
    for m in _MONTH_DAY.finditer(rest):
        weekday = WEEKDAYS[m[1].lower()] if m[1] else None
        month, day = MONTHS[m[2].lower()], int(m[3])
        if m[4]:
            try:
                days.append(date(int(m[4]), month, day))
            except ValueError:
                pass
        else:
            found = _past(month, day, today, weekday) or _past(month, day, today, None)
            days.extend([found] if found else [])
    rest = _MONTH_DAY.sub(" ", rest)
    for m in _DAY_MONTH.finditer(rest):
        month, day = MONTHS[m[2].lower()], int(m[1])
        try:
            found = date(int(m[3]), month, day) if m[3] else _past(month, day, today, None)
        except ValueError:
            found = None
        days.extend([found] if found else [])
    rest = _DAY_MONTH.sub(" ", rest)
    months: list[tuple[date, date]] = []
    for m in _YEAR_MONTH.finditer(rest):
        if _a_month(m, 1):
            months.append(_month_of(date(int(m[2]), MONTHS[m[1].lower()], 1)))
    rest = _YEAR_MONTH.sub(lambda m: " " if _a_month(m, 1) else m[0], rest)
    for m in _IN_MONTH.finditer(rest):
        if _a_month(m, 1):
            month = MONTHS[m[1].lower()]
            year = today.year if month <= today.month else today.year - 1
            months.append(_month_of(date(year, month, 1)))
    rest = _IN_MONTH.sub(lambda m: " " if _a_month(m, 1) else m[0], rest)
    for m in _IN_YEAR.finditer(rest):
        months.append((date(int(m[1]), 1, 1), date(int(m[1]), 12, 31)))
    rest = _IN_YEAR.sub(" ", rest)
    # periods relative to the question's time: "last week", "two weeks ago", "last month",
    # "last year", "four years ago"
    for mention in _question_periods(rest, now):
        if mention.last - mention.first > timedelta(days=7):
            months.append((mention.first, mention.last))
        else:
            span = (min(mention.last, today) - mention.first).days
            days.extend(mention.first + timedelta(days=n) for n in range(span + 1))
    rest = _Q_PERIODS.sub(" ", rest)
    for m in _RELATIVE.finditer(rest):
        word = m[1].lower()
        if word == "today":
            days.append(today)
        elif word == "yesterday":
            days.append(today - timedelta(days=1))
        else:
            n = m[2].lower()
            days.append(today - timedelta(days=int(n) if n.isdigit() else _NUMBERS[n]))
    rest = _RELATIVE.sub(" ", rest)
    for m in _LAST_WEEKDAY.finditer(rest):
        named = (m[1] or m[2]).lower()
        back = (today.weekday() - WEEKDAYS[named]) % 7 or 7  # "last Friday" is never today
        days.append(today - timedelta(days=back))
    rest = _LAST_WEEKDAY.sub(" ", rest)
    after = _AFTER.search(rest)
    if after and not days:
        anchor = after[3].strip(" ?.!")
        if anchor:
            return DateQuery([], anchor, 1 if after[2].lower() == "after" else -1,
                             rest[:after.start()] + " " + anchor)
    if not days and not months:
        return None
    return DateQuery(sorted(set(days)), rest=rest, months=months)


_IN_MONTH = re.compile(rf"\b(?:in|during|since|early|late|mid)[\s-]+({_MONTH})\b(?!\s+\d)",
                       re.IGNORECASE)
_Q_PERIODS = re.compile(r"\b(?:(?:last|this\s+past|past|this)\s+(?:week|weekend|month)"
                        r"|(?:last|this\s+past|past)\s+year"
                        r"|(?:\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten"
                        r"|a\s+couple\s+of|a\s+few|several)\s+(?:weeks?|months?|years?)\s+ago)\b",
                        re.IGNORECASE)
# a year alone: "in 2022", "during 2023" (a year after a month is taken by _YEAR_MONTH first)
_IN_YEAR = re.compile(r"\b(?:in|during|since|of)\s+((?:19|20)\d\d)\b(?!-)", re.IGNORECASE)


def _question_periods(text: str, now: datetime) -> list[DateMention]:
    """Week, weekend and month phrases of a question, resolved against the question's time."""
    spans = [(m.start(), m.end()) for m in _Q_PERIODS.finditer(text)]
    return [d for d in date_mentions(text, now)
            if any(start <= d.start < end for start, end in spans)]


def content_words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - STOPWORDS


class DateRetriever:
    """Events of the day(s) the query names, best lexical overlap first (the retriever contract).

    `anchor_days` anchors for "the day after X" are the days of BM25's best event hits for X
    (every hit scoring at least `anchor_ratio` of the best, up to `max_anchors`): a question
    about "the inventory outage" when there were two gets both following days.
    """

    name = "date"

    def __init__(self, journal, lexical, now: datetime, docs=None, max_anchors: int = 2,
                 anchor_ratio: float = 0.8):
        self.journal = journal
        self.lexical = lexical
        self.docs = docs  # ids -> {id: doc with .time}: the catalog, so no journal scan
        self.now = now
        self.max_anchors = max_anchors
        self.anchor_ratio = anchor_ratio

    def _anchor_days(self, text: str) -> list[date]:
        ranked = self.lexical.search(text, self.max_anchors * 4,
                                     Filters(types=["event"], statuses=["active"]))
        if not ranked:
            return []
        best = ranked[0][1]
        wanted = [doc_id for doc_id, score in ranked if score >= best * self.anchor_ratio]
        known = self.docs(wanted) if self.docs else {}
        days: list[date] = []
        for doc_id in wanted:
            doc = known.get(doc_id)
            if doc is None or doc.time > self.now:
                continue
            day = doc.time.astimezone(timezone.utc).date()
            if day not in days:
                days.append(day)
            if len(days) >= self.max_anchors:
                break
        return days

    def retrieve(self, query: str, limit: int, filters: Filters | None = None):
        if self.journal is None or not query.strip():
            return []
        if filters is not None:
            for values, value in ((filters.types, "event"), (filters.layers, "L3"),
                                  (filters.scopes, "project"), (filters.statuses, "active")):
                if values is not None and value not in values:
                    return []
        parsed = parse_date_query(query, self.now)
        if parsed is None:
            return []
        days = parsed.days
        if parsed.anchor_text:
            step = timedelta(days=parsed.offset)
            days = [d + step for d in self._anchor_days(parsed.anchor_text)]
        words = content_words(parsed.rest)
        scored: dict[str, tuple] = {}
        for rank_day, day in enumerate(days):
            for event in self.journal.read_day(day).events:
                if event.time > self.now:
                    continue
                overlap = len(words & content_words(f"{event.title} {event.text}"))
                # overlap first; then the earlier-named day, then the day's own order
                scored[event.id] = (-overlap, rank_day, event.time.timestamp())
        # events that *name* the day or month: "last Saturday" said on 8 May is about 6 May
        terms = query_date_terms(DateQuery(days, months=parsed.months))
        ranges = [(_midnight(first), _midnight(last + timedelta(days=1)))
                  for first, last in parsed.months]
        if (terms or ranges) and self.docs is not None:
            events = Filters(types=["event"], statuses=["active"])
            named = self.lexical.dated(parsed.rest, terms, max(limit, 50) * 2, ranges=ranges,
                                       filters=events)
            found = self.docs([doc_id for doc_id, _ in named])
            wanted = {d.isoformat(): n for n, d in enumerate(days)}
            for doc_id, _score in named:
                doc = found.get(doc_id)
                if doc is None or doc.time > self.now:
                    continue
                overlap = len(words & content_words(f"{doc.title} {doc.text}"))
                hit_days = [wanted[t] for t in doc.dates if t in wanted]
                # naming the asked day counts as one more shared word
                key = (-overlap - (1 if hit_days else 0), min(hit_days, default=len(days)),
                       doc.time.timestamp())
                if doc_id not in scored or key < scored[doc_id]:
                    scored[doc_id] = key
        ranked = sorted(scored.items(), key=lambda kv: (kv[1], kv[0]))  # ties: by id
        return [(event_id, 1.0 - key[0]) for event_id, key in ranked[:limit]]


def query_date_terms(parsed: DateQuery) -> list[str]:
    """The `dates` index terms a parsed question names: its days and its months."""
    terms = [d.isoformat() for d in parsed.days]
    terms += [f"{y:04d}-{m:02d}" for first, last in parsed.months
              for y, m in _months_between(first, last)]
    return terms


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
