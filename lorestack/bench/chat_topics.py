"""The sentences `bench generate --style chat` draws from (the engine is bench/chat.py); the
tables themselves are data, in data/chat_topics.json.

Each topic has several ways to say a fact and several ways to ask about it: some questions
keep a content word of the statement (often in another form: "researching" — "research"),
some are worded away from it, as in real conversation-QA sets. A seed draws its own subset
of topics, phrasings, frames and small talk, so two seeds differ in sentences, not only in
the values filled in.

Placeholders: {S} subject ("I", "my sister"), {poss} its possessive ("my", "her"), {v} the
value, {w} the detail, {who} the person asked about in a question ("Ana", "Ana's sister"),
{whose} its possessive, {f} a friend's name, {when} a relative date.

Tables: NAMES, FRIENDS (people); SUBJECTS (subject, possessive); TALK_OPEN, TALK_BODY,
TALK_TAIL, REACTIONS (small talk); OPENERS, OPENERS_OTHER, FRAMES, TAILS (around a fact);
TOPICS (facts and their questions); CHANGES (facts that change); DATED (facts with a date);
RELATIVE_DAYS, RELATIVE_WEEKDAYS (label, days back); ECHOES; HOPS (facts across sessions);
SHARED (facts both speakers hold).
"""

from __future__ import annotations

import json
from importlib import resources

_DATA = json.loads(resources.files("lorestack.bench").joinpath("data/chat_topics.json")
                   .read_text(encoding="utf-8"))


def _pairs(name: str) -> list[tuple]:
    return [tuple(row) for row in _DATA[name]]


NAMES: list[str] = _DATA["NAMES"]
FRIENDS: list[str] = _DATA["FRIENDS"]
SUBJECTS: list[tuple] = _pairs("SUBJECTS")
TALK_OPEN: list[str] = _DATA["TALK_OPEN"]
TALK_BODY: list[str] = _DATA["TALK_BODY"]
TALK_TAIL: list[str] = _DATA["TALK_TAIL"]
REACTIONS: list[str] = _DATA["REACTIONS"]
OPENERS: list[str] = _DATA["OPENERS"]
OPENERS_OTHER: list[str] = _DATA["OPENERS_OTHER"]
FRAMES: list[str] = _DATA["FRAMES"]
TAILS: list[str] = _DATA["TAILS"]
TOPICS: list[dict] = _DATA["TOPICS"]
CHANGES: list[dict] = _DATA["CHANGES"]
DATED: list[dict] = _DATA["DATED"]
RELATIVE_DAYS: list[tuple] = _pairs("RELATIVE_DAYS")
RELATIVE_WEEKDAYS: list[tuple] = _pairs("RELATIVE_WEEKDAYS")
ECHOES: list[str] = _DATA["ECHOES"]
HOPS: list[dict] = _DATA["HOPS"]
SHARED: list[dict] = _DATA["SHARED"]
