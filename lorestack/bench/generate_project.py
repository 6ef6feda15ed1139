"""The project history `bench generate --style code` builds: its vocabulary, its events by
day, the questions asked about them, and the finished `lorestack-bench/1` line (the
scenarios that fill it are in generate.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from lorestack.bench import vocab as V

FORMAT = "lorestack-bench/1"
EPOCH = date(2024, 1, 8)
DAY_START_MIN = 9 * 60
DAY_SPAN_MIN = 9 * 60 + 30


@dataclass
class _Event:
    day: int
    slot: float
    text: str
    kind: str = "progress"
    type: str = "event"
    tags: list[str] = field(default_factory=list)
    id: str = ""
    time: datetime | None = None
    session: str = ""


@dataclass
class _Question:
    question: str
    answer: str
    evidence: list[_Event]
    category: str


@dataclass
class _Component:
    name: str
    abbr: str
    nouns: list[str]


class _Project:
    """One project's history under construction: events by day, then questions about them."""

    def __init__(self, rng: random.Random, name: str, days: int):
        self.rng = rng
        self.name = name
        self.days = days
        self.start = EPOCH + timedelta(days=rng.randrange(0, 180))
        self.stack = V.STACKS[rng.choice(sorted(V.STACKS))]
        self.components = [_Component(n, a, list(ns)) for n, a, ns in rng.sample(V.COMPONENTS, 6)]
        self.people = rng.sample(V.PEOPLE, 4)
        self.versions = {lib: ver for lib, ver in self.stack["libs"]}
        self.tracked: list[str] = []
        self.codes: list[str] = []
        self.events: list[_Event] = []
        self.questions: list[_Question] = []
        self.bugs: list[tuple[_Event, str, _Component]] = []
        self.owned: list[str] = []
        self.ticket = name[:3].upper()

    # ---- vocabulary -----------------------------------------------------------------
    def comp(self, exclude: _Component | None = None) -> _Component:
        return self.rng.choice([c for c in self.components if c is not exclude])

    def func(self, noun: str, verb: str | None = None) -> str:
        verb = verb or self.rng.choice(V.VERBS)
        if self.stack["style"] == "snake":
            return f"{verb}_{noun}"
        return verb + "".join(part.capitalize() for part in noun.split("_"))

    def path(self, comp: _Component, noun: str) -> str:
        return f"{self.stack['src']}/{comp.name}/{noun}.{self.stack['ext']}"

    def new_code(self, abbr: str, digits: int | None = None) -> str:
        while True:
            number = digits if digits is not None else self.rng.randrange(1000, 5000)
            code = f"E-{abbr}-{number}"
            if code not in self.codes:
                self.codes.append(code)
                return code
            digits = None

    def bump(self, lib: str) -> tuple[str, str]:
        old = self.versions[lib]
        major, minor, patch = (int(x) for x in old.split("."))
        if self.rng.random() < 0.5:
            new = f"{major}.{minor}.{patch + self.rng.randint(1, 3)}"
        else:
            new = f"{major}.{minor + 1}.{self.rng.randint(0, 2)}"
        self.versions[lib] = new
        return old, new

    def day_name(self, day: int) -> str:
        d = self.start + timedelta(days=day)
        return f"{d.strftime('%A')}, {d.strftime('%B')} {d.day}"

    # ---- recording ------------------------------------------------------------------
    def emit(self, day: int, text: str, kind: str = "progress", *, slot: float | None = None,
             item_type: str = "event", tags: list[str] | None = None) -> _Event:
        event = _Event(day, self.rng.random() if slot is None else slot, text, kind, item_type,
                       list(tags or []))
        self.events.append(event)
        return event

    def ask(self, question: str, answer: str, evidence: list[_Event], category: str) -> None:
        self.questions.append(_Question(question, answer, evidence, category))

    def finish(self) -> dict:
        """Give every event a time, session and id; questions are asked after the last day."""
        by_day: dict[int, list[_Event]] = {}
        for event in self.events:
            by_day.setdefault(event.day, []).append(event)
        ordered: list[_Event] = []
        for day in sorted(by_day):
            todays = sorted(by_day[day], key=lambda e: e.slot)
            step = DAY_SPAN_MIN / (len(todays) + 1)
            base = datetime.combine(self.start + timedelta(days=day), datetime.min.time())
            last = -1
            for i, event in enumerate(todays):
                minute = max(last + 1, DAY_START_MIN + int(step * (i + 1)) + self.rng.randint(0, 3))
                last = minute
                event.time = base + timedelta(minutes=minute)
                half = "am" if minute < 13 * 60 else "pm"
                event.session = f"{self.name}-{event.time.date().isoformat()}-{half}"
                event.id = f"{self.name}-d{day + 1:02d}-{i + 1:02d}"
                ordered.append(event)
        asked = datetime.combine(self.start + timedelta(days=self.days), datetime.min.time())
        events_out = []
        for e in ordered:
            assert e.time is not None  # given above to every ordered event
            row: dict[str, Any] = {"id": e.id, "time": e.time.isoformat(), "session": e.session, "kind": e.kind,
                   "text": e.text}
            if e.type != "event":
                row["type"] = e.type
            if e.tags:
                row["tags"] = e.tags
            events_out.append(row)
        questions_out = []
        for n, q in enumerate(self.questions):
            when = asked + timedelta(minutes=DAY_START_MIN + 7 * n)
            questions_out.append({
                "id": f"{self.name}/q{n + 1:03d}", "question": q.question, "answer": q.answer,
                "evidence": [e.id for e in q.evidence], "category": q.category,
                "time": when.isoformat(),
            })
        return {"format": FORMAT, "name": self.name, "events": events_out,
                "questions": questions_out}
