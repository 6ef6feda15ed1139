"""`memstrata bench generate --style chat`: two people talking over many dated sessions.

Closer to real conversation memory than the coding style: most turns are small talk, facts
come up in passing and are often completed by the next turn ("What breed?" — "A corgi."),
relative dates ("last Saturday") are said on the session's date, some facts change later
(a move, a new job), some answers need two sessions (a friend's new city, then a visit to
that friend), and questions are paraphrased so they share few words with the evidence.
Deterministic for a seed. Every question's evidence lies before its time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from memstrata.bench.dataset import FORMAT

NAMES = [
    "Ana",
    "Bo",
    "Caro",
    "Dev",
    "Elif",
    "Femi",
    "Gus",
    "Hana",
    "Ivo",
    "Jun",
    "Kemal",
    "Lena",
    "Mika",
    "Noor",
    "Otto",
    "Priya",
    "Quinn",
    "Rosa",
    "Sami",
    "Tess",
]
SMALL_TALK = [
    "Haha, that's so true.",
    "How was your week?",
    "Oh wow, tell me more!",
    "I've been so busy with work lately, honestly.",
    "The weather has been lovely here.",
    "Same here, I can barely keep up.",
    "That sounds like a lot of fun.",
    "I totally get that.",
    "Did you sleep well? I was up late again.",
    "Ugh, Mondays.",
    "I'm so happy for you!",
    "Let's catch up properly soon.",
    "That reminds me, I need to call my mom.",
    "Honestly I just want a quiet weekend.",
    "Good morning! Coffee first, then talking.",
    "You always know how to cheer me up.",
    "I saw the funniest video this morning.",
    "My neighbour's cat keeps visiting our garden.",
    "Traffic was terrible on the way home.",
    "I should really drink more water.",
    "It's been a long day, but a good one.",
    "We should plan something fun together.",
    "Thanks for listening, it means a lot.",
    "Sorry for the late reply!",
    "I've been trying to read more before bed.",
]
REACTIONS = [
    "No way!",
    "That's amazing!",
    "Oh nice!",
    "Really?",
    "Wow, good for you!",
    "That's huge!",
    "Aww, I love that.",
]


@dataclass
class Fact:
    """A statement template, its follow-up, and the question that paraphrases it."""

    say: str  # uses {v} (and {w} for the follow-up answer)
    ask_follow: str  # the other speaker's follow-up question ("" = none)
    answer_follow: str  # uses {w}
    question: str  # about {p} (the speaker), worded away from `say`
    values: list[str]
    details: list[str] = field(default_factory=lambda: [""])
    follow_question: str = ""  # a second question whose evidence is both turns


FACTS = [
    Fact(
        "I finally adopted a {v} from the shelter!",
        "What breed?",
        "A {w}, and she's tiny.",
        "What kind of animal did {p} bring home from the rescue?",
        ["dog", "cat", "rabbit"],
        ["corgi", "beagle", "tabby", "lop"],
        "Which breed is {p}'s rescued animal?",
    ),
    Fact(
        "I signed up for {v} classes at the community centre.",
        "Which day?",
        "Every {w} evening.",
        "What pastime did {p} pick up at the neighbourhood venue?",
        ["pottery", "salsa", "climbing", "watercolour", "ceramics"],
        ["Tuesday", "Thursday", "Monday"],
        "On which weekday are {p}'s lessons held?",
    ),
    Fact(
        "I just started a new job as a {v}.",
        "Where?",
        "At {w}, downtown.",
        "What is {p}'s occupation these days?",
        ["nurse", "data analyst", "teacher", "paramedic", "architect"],
        ["Brightline Health", "Northwind Labs", "Maple School"],
        "Which organisation hired {p}?",
    ),
    Fact(
        "My sister moved to {v} for her studies.",
        "",
        "",
        "In which city is {p}'s sibling studying?",
        ["Lisbon", "Osaka", "Denver", "Krakow"],
    ),
    Fact(
        "I'm reading {v} right now and can't put it down.",
        "",
        "",
        "Which novel has {p} been absorbed in?",
        ["The Glass Orchard", "Salt and Copper", "A Winter Atlas", "Night Trains"],
    ),
    Fact(
        "We booked a trip to {v} for my cousin's wedding.",
        "When is it?",
        "In {w}.",
        "Which country is {p} visiting for a family celebration?",
        ["Portugal", "Japan", "Mexico", "Greece"],
        ["June", "August", "October"],
        "In which month is {p}'s family celebration abroad?",
    ),
    Fact(
        "I've been learning to play the {v}.",
        "",
        "",
        "Which instrument is {p} practising?",
        ["cello", "ukulele", "piano", "trumpet"],
    ),
    Fact(
        "My favourite comfort food is {v}, always has been.",
        "",
        "",
        "What dish does {p} turn to when feeling low?",
        ["ramen", "lasagna", "dumplings", "shakshuka"],
    ),
    Fact(
        "I bought a {v} so I can stop taking the bus.",
        "",
        "",
        "What did {p} purchase to change the commute?",
        ["used bike", "small scooter", "second-hand car"],
    ),
    Fact(
        "I'm training for the {v} in the autumn.",
        "",
        "",
        "Which race is {p} preparing for?",
        ["city half marathon", "river 10k", "mountain trail run"],
    ),
]
CHANGES = [
    (
        "We moved into a flat in {v}.",
        "Actually we moved again, we're in {v} now.",
        "Where does {p} live at present?",
        ["Riverside", "Old Town", "Hillcrest", "the harbour district"],
    ),
    (
        "My manager is {v}, she's great.",
        "I have a new manager now, {v}.",
        "Who does {p} report to currently?",
        ["Maria", "Helen", "Sofia", "Grace"],
    ),
    (
        "I'm vegetarian these days.",
        "I'm eating fish again, no longer vegetarian.",
        "Does {p} still avoid all meat and fish?",
        [""],
    ),
]
DATED = [
    (
        "Last Saturday I ran my first {v}!",
        "When did {p} complete the {v}?",
        ["5k", "half marathon", "obstacle race"],
        5,
    ),
    (
        "Yesterday I got my driving licence, finally.",
        "On what date did {p} pass the road test?",
        [""],
        1,
    ),
    ("Two days ago I had my wisdom tooth out.", "When was {p}'s dental surgery?", [""], 2),
]
HOPS = [
    (
        "My best friend {f} got a job in {v}.",
        "{f} invited me to stay with her in the spring.",
        "Which city will {p} travel to in the spring?",
        ["Vienna", "Seattle", "Nairobi", "Porto"],
    ),
    (
        "My brother {f} opened a bakery called {v}.",
        "I helped {f} at his shop all weekend.",
        "What is the name of the business where {p} spent the weekend helping?",
        ["Crumb & Co", "Rise Up", "Golden Loaf"],
    ),
]
FRIENDS = ["Lara", "Tomas", "Ines", "Marco", "Yuki", "Omar"]


def _weekday_back(day: datetime, target: int) -> datetime:
    back = (day.weekday() - target) % 7 or 7
    return day - timedelta(days=back)


class _Conversation:
    def __init__(self, rng: random.Random, name: str, sessions: int):
        self.rng, self.name = rng, name
        self.a, self.b = rng.sample(NAMES, 2)
        self.events: list[dict] = []
        self.questions: list[dict] = []
        start = datetime(2023, 1, 2, tzinfo=timezone.utc) + timedelta(days=rng.randrange(300))
        self.dates = []
        for _ in range(sessions):
            start += timedelta(days=rng.randint(2, 9), hours=rng.randint(0, 5))
            self.dates.append(
                start.replace(hour=rng.choice([9, 13, 18, 20]), minute=rng.randrange(60))
            )
        self.plan: list[list[tuple]] = [[] for _ in range(sessions)]

    def say(self, session: int, turn: int, speaker: str, text: str) -> dict:
        event = {
            "id": f"D{session + 1}:{turn + 1}",
            "time": (self.dates[session] + timedelta(seconds=30 * turn)).isoformat(),
            "session": f"session_{session + 1}",
            "speaker": speaker,
            "text": f"{speaker}: {text}",
        }
        self.events.append(event)
        return event

    def ask(self, question: str, answer: str, evidence: list[dict], category: str) -> None:
        last = max(datetime.fromisoformat(e["time"]) for e in evidence)
        when = max(last, self.dates[-1]) + timedelta(days=self.rng.randint(1, 5))
        self.questions.append(
            {
                "id": f"{self.name}/q{len(self.questions) + 1}",
                "question": question,
                "answer": answer,
                "evidence": [e["id"] for e in evidence],
                "category": category,
                "time": when.isoformat(),
            }
        )


def _schedule(conv: _Conversation) -> None:
    rng, n = conv.rng, len(conv.dates)
    for p in (conv.a, conv.b):
        for fact in rng.sample(FACTS, k=min(len(FACTS), 7)):
            conv.plan[rng.randrange(n)].append(("fact", p, fact))
        for change in rng.sample(CHANGES, k=2):
            first = rng.randrange(n - 2)
            conv.plan[first].append(("change0", p, change))
            conv.plan[rng.randrange(first + 1, n)].append(("change1", p, change))
        for dated in rng.sample(DATED, k=2):
            conv.plan[rng.randrange(n)].append(("dated", p, dated))
        hop = rng.choice(HOPS)
        first = rng.randrange(n - 2)
        conv.plan[first].append(("hop0", p, hop))
        conv.plan[rng.randrange(first + 1, n)].append(("hop1", p, hop))


def _session(conv: _Conversation, s: int, state: dict) -> None:
    """Small talk with the session's planned facts dropped in, 1–3 turns apart."""
    rng = conv.rng
    t = 0
    for kind, p, spec in conv.plan[s]:
        for _ in range(rng.randint(1, 3)):
            conv.say(s, t, (conv.a, conv.b)[t % 2], rng.choice(SMALL_TALK))
            t += 1
        other = conv.b if p == conv.a else conv.a
        t = _fact_turns(conv, s, t, kind, p, other, spec, state)
    while t < 14:
        conv.say(s, t, (conv.a, conv.b)[t % 2], rng.choice(SMALL_TALK))
        t += 1


def _fact_turns(conv, s, t, kind, p, other, spec, state) -> int:
    rng = conv.rng
    key = (kind.rstrip("01"), p, id(spec))
    if kind == "fact":
        v, w = rng.choice(spec.values), rng.choice(spec.details)
        ev = conv.say(s, t, p, spec.say.format(v=v))
        conv.ask(spec.question.format(p=p), v, [ev], "single-hop")
        if spec.ask_follow:
            conv.say(s, t + 1, other, f"{rng.choice(REACTIONS)} {spec.ask_follow}")
            ev2 = conv.say(s, t + 2, p, spec.answer_follow.format(w=w))
            conv.ask(spec.follow_question.format(p=p), w, [ev, ev2], "adjacent-turns")
            return t + 3
        conv.say(s, t + 1, other, rng.choice(REACTIONS))
        return t + 2
    if kind in ("change0", "change1"):
        first, then, question, values = spec
        if kind == "change0":
            state[key] = rng.choice(values)
            conv.say(s, t, p, first.format(v=state[key]))
        else:
            new = rng.choice([v for v in values if v != state.get(key)] or values)
            ev = conv.say(s, t, p, then.format(v=new))
            conv.ask(question.format(p=p), new or "no", [ev], "knowledge-update")
        return t + 1
    if kind == "dated":
        say, question, values, _ = spec
        v = rng.choice(values)
        ev = conv.say(s, t, p, say.format(v=v))
        said = conv.dates[s]
        if say.startswith("Last Saturday"):
            day = _weekday_back(said, 5)
        else:
            day = said - timedelta(days=spec[3])
        conv.ask(question.format(p=p, v=v), day.date().isoformat(), [ev], "temporal")
        return t + 1
    first, then, question, values = spec
    if kind == "hop0":
        state[key] = (rng.choice(FRIENDS), rng.choice(values))
        f, v = state[key]
        state[key + ("ev",)] = conv.say(s, t, p, first.format(f=f, v=v))
    else:
        f, v = state[key]
        ev = conv.say(s, t, p, then.format(f=f))
        conv.ask(question.format(p=p), v, [state[key + ("ev",)], ev], "multi-hop")
    return t + 1


def generate_chat(seed: int, conversations: int, sessions: int) -> list[dict]:
    """`conversations` independent two-person histories of `sessions` dated sessions each."""
    out = []
    for i in range(conversations):
        rng = random.Random(f"memstrata-chat/{seed}/{i}")
        conv = _Conversation(rng, f"chat-{seed}-{i + 1}", max(4, sessions))
        _schedule(conv)
        state: dict = {}
        for s in range(len(conv.dates)):
            _session(conv, s, state)
        out.append(
            {
                "format": FORMAT,
                "name": conv.name,
                "style": "chat",
                "events": conv.events,
                "questions": conv.questions,
            }
        )
    return out
