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
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from memstrata.retrieval.lexical import Filters

MONTHS = {name: i for i, names in enumerate(
    [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
     ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
     ("october", "oct"), ("november", "nov"), ("december", "dec")], start=1) for name in names}
WEEKDAYS = {name: i for i, names in enumerate(
    [("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed"),
     ("thursday", "thu", "thurs"), ("friday", "fri"), ("saturday", "sat"), ("sunday", "sun")])
    for name in names}

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_WEEKDAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTH_DAY = re.compile(rf"\b(?:({_WEEKDAY})\.?,?\s+)?({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?"
                        rf"\b(?:,?\s+(\d{{4}}))?", re.IGNORECASE)
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\b\.?"
                        rf"(?:,?\s+(\d{{4}}))?",
                        re.IGNORECASE)
_RELATIVE = re.compile(r"\b(today|yesterday"
                       r"|(\d{1,2}|two|three|four|five|six|seven)\s+days?\s+ago)\b",
                       re.IGNORECASE)
# "on Friday" only when the weekday ends the phrase: "our policy on Friday deploys" names no day
_LAST_WEEKDAY = re.compile(rf"\b(?:(?:last|this past|past)\s+({_WEEKDAY})\b"
                           rf"|on\s+({_WEEKDAY})(?=\s*(?:[?.!,;]|$)))", re.IGNORECASE)
_AFTER = re.compile(r"\b(?:the\s+)?(day|morning)\s+(after|before)\s+(.+)", re.IGNORECASE)
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}
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
    if not days:
        return None
    return DateQuery(sorted(set(days)), rest=rest)


def relative_dates(text: str, when: datetime) -> list[tuple[str, date]]:
    """Relative day phrases inside an event ("yesterday", "last Saturday") resolved against
    the event's own time, so a reader months later still knows which day was meant."""
    said = when.astimezone(timezone.utc).date() if when.tzinfo else when.date()
    out: list[tuple[str, date]] = []
    for m in _RELATIVE.finditer(text):
        word = m[1].lower()
        if word == "today":
            continue  # the group heading already names the day
        if word == "yesterday":
            out.append((m[0], said - timedelta(days=1)))
        else:
            n = m[2].lower()
            out.append((m[0], said - timedelta(days=int(n) if n.isdigit() else _NUMBERS[n])))
    for m in _LAST_WEEKDAY.finditer(text):
        if not m[1]:
            continue  # "on Friday" in a statement may be a future day: leave it
        back = (said.weekday() - WEEKDAYS[m[1].lower()]) % 7 or 7
        out.append((m[0], said - timedelta(days=back)))
    return out[:3]


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
        scored = []
        for rank_day, day in enumerate(days):
            for event in self.journal.read_day(day).events:
                if event.time > self.now:
                    continue
                overlap = len(words & content_words(f"{event.title} {event.text}"))
                # overlap first; then the earlier-named day, then the day's own order
                scored.append(((-overlap, rank_day, event.time), event.id, overlap))
        scored.sort(key=lambda s: s[0])
        return [(event_id, 1.0 + overlap) for _key, event_id, overlap in scored[:limit]]
