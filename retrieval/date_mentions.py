"""Dates said inside text: the month and weekday vocabulary, and every date phrase of an
event or question resolved against the time it was said ("yesterday", "last Saturday", "two
weeks ago", "6 May 2023", "May 2023"). `retrieval/temporal.py` parses questions about a day
and retrieves that day's events with it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

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

_COUNT = (r"(\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of)")
# phrases inside an event, resolved against the time it was said (index time and render time)
_EV_DAYS_AGO = re.compile(rf"\b{_COUNT}\s+days?\s+ago\b", re.IGNORECASE)
_EV_IN_DAYS = re.compile(rf"\bin\s+{_COUNT}\s+days?\b", re.IGNORECASE)
_EV_WEEKS_AGO = re.compile(rf"\b{_COUNT}\s+weeks?\s+ago\b", re.IGNORECASE)
_EV_MONTHS_AGO = re.compile(rf"\b{_COUNT}\s+months?\s+ago\b", re.IGNORECASE)
_EV_WORD_DAY = re.compile(r"\b(the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow"
                          r"|yesterday|tomorrow|tonight|this\s+morning)\b", re.IGNORECASE)
_EV_WEEKDAY = re.compile(rf"\b(last|this\s+past|past|next|this|coming|this\s+coming)\s+"
                         rf"({_WEEKDAY})\b", re.IGNORECASE)
_EV_PERIOD = re.compile(r"\b(last|this\s+past|past|next|this)\s+(week|weekend|month)\b",
                        re.IGNORECASE)
_YEAR_MONTH = re.compile(rf"\b({_MONTH})\.?,?\s+(\d{{4}})\b", re.IGNORECASE)
# "last year", "two years ago", "a few years ago": whole years before the time it was said
_EV_YEARS = re.compile(rf"\b(?:(last|this\s+past|past)\s+year|(a\s+few|several|{_COUNT[1:-1]})"
                       rf"\s+years?\s+ago)\b", re.IGNORECASE)
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
                 "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


def _count(word: str) -> int:
    word = " ".join(word.lower().split())
    if word.isdigit():
        return int(word)
    return 2 if word.startswith("a couple") else _NUMBER_WORDS.get(word, 1)


def _years_back(m: re.Match) -> tuple[int, ...]:
    """How many years back a year phrase reaches: (1,) for "last year", (2,) for "two years
    ago", (2, 4) for the vague "a few years ago" (nearest, furthest)."""
    if m[1]:
        return (1,)
    word = " ".join(m[2].lower().split())
    return (2, 4) if word in ("a few", "several") else (_count(word),)


def _week_of(day: date) -> tuple[date, date]:
    start = day - timedelta(days=day.weekday())
    return start, start + timedelta(days=6)


def _month_of(day: date, back: int = 0) -> tuple[date, date]:
    index = day.year * 12 + day.month - 1 - back
    start = date(index // 12, index % 12 + 1, 1)
    following = date((index + 1) // 12, (index + 1) % 12 + 1, 1)
    return start, following - timedelta(days=1)


@dataclass(frozen=True)
class DateMention:
    """A date phrase inside a text and the days it means: one day, a week or a month.

    `exact` is False for approximate phrases ("two weeks ago" means some day that week)."""

    phrase: str
    first: date
    last: date
    exact: bool = True
    start: int = 0  # offset of the phrase in the text


def _nearest(month: int, day: int, said: date) -> date | None:
    """A year-less "May 6" inside a text said on `said`: that day in the nearest year."""
    options = []
    for year in (said.year - 1, said.year, said.year + 1):
        try:
            options.append(date(year, month, day))
        except ValueError:
            continue
    return min(options, key=lambda d: abs((d - said).days), default=None)


def date_mentions(text: str, when: datetime) -> list[DateMention]:
    """Every date phrase in a text said at `when`, resolved: relative phrases ("yesterday",
    "last Saturday", "two weeks ago", "next Friday", "last month") against `when`, absolute
    ones ("6 May 2023", "May 6", "2023-05-06", "May 2023") as written (a missing year: the
    nearest). "Today" and a bare "on Friday" are left out (the event's own day, or unclear)."""
    if not _may_name_a_date(text):
        return []  # one scan instead of eleven
    said = when.astimezone(timezone.utc).date() if when.tzinfo else when.date()
    out: list[DateMention] = []
    taken: list[tuple[int, int]] = []

    def add(m: re.Match, first: date, last: date | None = None, exact: bool = True) -> None:
        if any(m.start() < end and start < m.end() for start, end in taken):
            return  # "May 2023" inside "6 May 2023" is not a second mention
        taken.append((m.start(), m.end()))
        out.append(DateMention(m[0], first, last or first, exact, m.start()))

    for m in _EV_WORD_DAY.finditer(text):
        word = " ".join(m[1].lower().split())
        offset = {"the day before yesterday": -2, "the day after tomorrow": 2, "yesterday": -1,
                  "tomorrow": 1}.get(word)
        if offset is not None:
            add(m, said + timedelta(days=offset))
    for m in _EV_DAYS_AGO.finditer(text):
        add(m, said - timedelta(days=_count(m[1])))
    for m in _EV_IN_DAYS.finditer(text):
        add(m, said + timedelta(days=_count(m[1])))
    for m in _EV_WEEKS_AGO.finditer(text):
        add(m, *_week_of(said - timedelta(days=7 * _count(m[1]))), exact=False)
    for m in _EV_MONTHS_AGO.finditer(text):
        add(m, *_month_of(said, _count(m[1])), exact=False)
    for m in _EV_WEEKDAY.finditer(text):
        which, named = " ".join(m[1].lower().split()), WEEKDAYS[m[2].lower()]
        if which in ("last", "this past", "past"):
            add(m, said - timedelta(days=(said.weekday() - named) % 7 or 7))
        elif which == "this" and named <= said.weekday():
            continue  # "this Monday" said on a Thursday: past or next week; unclear
        else:
            add(m, said + timedelta(days=(named - said.weekday()) % 7 or 7))
    for m in _EV_PERIOD.finditer(text):
        which, period = " ".join(m[1].lower().split()), m[2].lower()
        step = {"last": -1, "this past": -1, "past": -1, "next": 1, "this": 0}[which]
        if period == "month":
            add(m, *_month_of(said, -step), exact=False)
        elif period == "week":
            add(m, *_week_of(said + timedelta(days=7 * step)), exact=False)
        else:  # weekend: the Saturday and Sunday before (after) the day it was said
            back = (said.weekday() - 5) % 7 or 7
            saturday = said - timedelta(days=back) if step <= 0 else \
                said + timedelta(days=(5 - said.weekday()) % 7 or 7)
            add(m, saturday, saturday + timedelta(days=1))
    for m in _EV_YEARS.finditer(text):
        years = _years_back(m)
        add(m, date(said.year - years[-1], 1, 1), date(said.year - years[0], 12, 31), exact=False)
    for m in _ISO.finditer(text):
        try:
            add(m, date(int(m[1]), int(m[2]), int(m[3])))
        except ValueError:
            pass
    for m in _MONTH_DAY.finditer(text):
        if not _a_month(m, 2):
            continue
        month, day = MONTHS[m[2].lower()], int(m[3])
        try:
            found = date(int(m[4]), month, day) if m[4] else _nearest(month, day, said)
        except ValueError:
            found = None
        if found:
            add(m, found)
    for m in _DAY_MONTH.finditer(text):
        if not _a_month(m, 2):
            continue
        month, day = MONTHS[m[2].lower()], int(m[1])
        try:
            found = date(int(m[3]), month, day) if m[3] else _nearest(month, day, said)
        except ValueError:
            found = None
        if found:
            add(m, found)
    for m in _YEAR_MONTH.finditer(text):
        if _a_month(m, 1):
            add(m, *_month_of(date(int(m[2]), MONTHS[m[1].lower()], 1)), exact=False)
    return sorted(out, key=lambda d: d.start)


# a word every date phrase above contains (a cheap first test: most texts name no date)
_DATE_WORDS = frozenset(("ago", "yesterday", "tomorrow", "week", "weeks", "weekend", "month",
                         "months", "days", "day", "year", *WEEKDAYS, *MONTHS))
_LOWER_WORD = re.compile(r"[a-z]+")
_ISO_HINT = re.compile(r"\d{4}-\d\d-\d\d")


def _may_name_a_date(text: str) -> bool:
    return (not _DATE_WORDS.isdisjoint(_LOWER_WORD.findall(text.lower()))
            or _ISO_HINT.search(text) is not None)


def _a_month(m: re.Match, group: int) -> bool:
    """"may" is a month only when written May (the verb is far more common)."""
    return m[group].lower() != "may" or m[group][0] == "M"


def date_terms(text: str, when: datetime) -> list[str]:
    """The index terms of the dates a text names: each day (`2023-05-06`; up to a week for
    approximate phrases) and its month (`2023-05`), so BM25 and the date retriever can match
    a question naming the absolute date to an event that said "last Saturday"."""
    terms: list[str] = []
    for mention in date_mentions(text, when):
        span = (mention.last - mention.first).days
        if span <= 7:
            terms.extend((mention.first + timedelta(days=n)).isoformat() for n in range(span + 1))
        terms.extend(f"{y:04d}-{m:02d}" for y, m in _months_between(mention.first, mention.last))
    return list(dict.fromkeys(terms))


def _months_between(first: date, last: date) -> list[tuple[int, int]]:
    out = []
    year, month = first.year, first.month
    while (year, month) <= (last.year, last.month):
        out.append((year, month))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def relative_dates(text: str, when: datetime) -> list[tuple[str, date]]:
    """Relative day phrases inside an event ("yesterday", "last Saturday") resolved against
    the event's own time, so a reader months later still knows which day was meant."""
    relative = (m for m in date_mentions(text, when)
                if m.exact and m.first == m.last and not _ABSOLUTE.fullmatch(m.phrase))
    return [(m.phrase, m.first) for m in relative][:3]


_ABSOLUTE = re.compile(rf"\d{{4}}-\d{{2}}-\d{{2}}|.*\b(?:{_MONTH})\b.*", re.IGNORECASE)
