"""`lorestack bench generate --style chat`: two people talking over many dated sessions.

Closer to real conversation memory than the coding style: turns alternate, most are small
talk, facts come up in passing (often as the answer to the other speaker's "what's new?")
and are completed by the next turn ("What's the name?" — "Biscuit."), they are about the
speaker or their family, relative dates ("last Saturday") are said on the session's day,
some facts change later, some answers need two sessions or both speakers, and the other
speaker echoes topic words in unrelated small talk.

Questions come at about one per four turns. Like real conversation-QA sets they name the
person, and most keep one content word of the evidence (often in another form: "researching"
— "research"); the rest are worded away from it (`question_overlap` measures this). The
sentences come from chat_topics.py; each seed draws its own share of them (`Phrasebook`).
Deterministic for a seed. Every question's evidence lies before its time.
"""

from __future__ import annotations

import random
import re
from collections.abc import Set
from datetime import datetime, timedelta, timezone

from lorestack.bench import chat_topics as T
from lorestack.bench.dataset import FORMAT
from lorestack.core import legacy

# seeds keep the tool's former name, so every generated set (and the committed ones under
# tests/data) stays byte-for-byte what it was before the rename
SEED_NAME = legacy.LEGACY_NAME

CATEGORIES = (
    "single-hop",
    "adjacent-turns",
    "multi-hop",
    "temporal",
    "knowledge-update",
    "commonality",
)
UNIT_KINDS = (
    ("fact", 50),
    ("detail", 14),
    ("dated", 13),
    ("change", 10),
    ("hop", 8),
    ("shared", 5),
)
SHARE_WORD = 0.6  # share of questions that keep a content word of their evidence
_STOP = set(
    """a an the and or but of to in on at for with from by about as is are was were be
been being am do does did done have has had having i me my we our you your he his she her
they them their it its this that these those what which who whom whose when where why how
there here so than then too very just now still all any both each more most other some such
no not only own same can will would should could may might must shall into over again
further once up down out off new one first""".split()
)
_WORD = re.compile(r"[a-z0-9]+")


def _stem(word: str) -> str:
    """A rough English stem, enough to tell "researching" and "research" apart from "book"."""
    for suffix in ("ings", "ing", "ied", "ies", "ed", "es", "s", "er", "ly"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2]:
        word = word[:-1]  # running → run
    return word.rstrip("e")


def content_stems(text: str, names: Set[str] = frozenset()) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in _STOP and w not in names}


def question_overlap(question: str, evidence: list[str], names: set[str]) -> int:
    """How many content stems a question shares with its evidence (names not counted)."""
    q = content_stems(question, names)
    return len(q & set().union(*(content_stems(e, names) for e in evidence)))


class Phrasebook:
    """The share of chat_topics.py one seed uses: its own topics, phrasings and small talk."""

    def __init__(self, seed: int):
        rng = random.Random(f"{SEED_NAME}-chat/{seed}/phrasebook")

        def share(items: list, part: float, least: int = 2) -> list:
            return rng.sample(items, k=max(least, round(len(items) * part)))

        self.topics = [dict(t, say=share(t["say"], 0.67)) for t in share(T.TOPICS, 0.8)]
        self.changes = share(T.CHANGES, 0.85)
        self.dated = share(T.DATED, 0.8)
        self.hops = share(T.HOPS, 0.75)
        self.shared = list(T.SHARED)
        self.talk = [
            (o, b, t)
            for o in share(T.TALK_OPEN, 0.7)
            for b in share(T.TALK_BODY, 0.6)
            for t in share(T.TALK_TAIL, 0.6)
        ]
        rng.shuffle(self.talk)
        self.talk = self.talk[:160]
        self.reactions = share(T.REACTIONS, 0.7)
        self.openers = share(T.OPENERS, 0.7)
        self.frames, self.tails = share(T.FRAMES, 0.7), share(T.TAILS, 0.7)
        self.echoes = share(T.ECHOES, 0.7)
        self.names = share(T.NAMES, 0.6)
        self.friends = share(T.FRIENDS, 0.75)


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


_LOWERABLE = _STOP | {"last", "yesterday", "two", "three", "update:", "funny", "every"}


def _lower_start(text: str) -> str:
    """After a frame ("Guess what, "): "My sister…" → "my sister…", but names stay."""
    first = text.split(" ", 1)[0]
    return text[:1].lower() + text[1:] if first.lower() in _LOWERABLE and first != "I" else text


def _subject_forms(index: int, p: str) -> dict[str, str]:
    said, poss, asked = T.SUBJECTS[index]
    me = index == 0
    who = asked.format(p=p)
    return {
        "S": said,
        "poss": poss,
        "is": "am" if me else "is",
        "has": "have" if me else "has",
        "s": "" if me else "s",
        "es": "" if me else "es",
        "who": who,
        "whose": f"{who}'s",
        "rel": said.replace("my ", "your "),
    }


class _Conversation:
    def __init__(self, rng: random.Random, book: Phrasebook, name: str, sessions: int):
        self.rng, self.book, self.name = rng, book, name
        self.a, self.b = rng.sample(book.names, 2)
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
        self.turn = 0
        self.session = 0
        self.last: str | None = None
        self.echo_words: list[str] = []

    # ---- turns and questions -------------------------------------------------------------
    def say(self, speaker: str, text: str) -> dict:
        s = self.session
        event = {
            "id": f"D{s + 1}:{self.turn + 1}",
            "time": (self.dates[s] + timedelta(seconds=30 * self.turn)).isoformat(),
            "session": f"session_{s + 1}",
            "speaker": speaker,
            "text": f"{speaker}: {text}",
        }
        self.events.append(event)
        self.turn += 1
        self.last = speaker
        return event

    def other(self, p: str) -> str:
        return self.b if p == self.a else self.a

    def small_talk(self, speaker: str | None = None) -> None:
        speaker = speaker or (self.other(self.last) if self.last else self.a)
        rng = self.rng
        if self.echo_words and rng.random() < 0.15:
            word = rng.choice(self.echo_words)
            text = rng.choice(self.book.echoes).format(e=word)
            if not self.events or not self.events[-1]["text"].endswith(text):
                self.say(speaker, text)
                return
        opener, body, tail = rng.choice(self.book.talk)
        text = _sentence(opener + body)
        for _ in range(rng.choice((2, 2, 3, 3, 4))):  # real turns run to a few sentences
            text += " " + _sentence(rng.choice(self.book.talk)[1])
        self.say(speaker, text + tail)

    def react(self, speaker: str) -> dict:
        """A reaction, often followed by a sentence of small talk."""
        text = self.rng.choice(self.book.reactions)
        for _ in range(self.rng.choice((0, 1, 1, 2))):
            text += " " + _sentence(self.rng.choice(self.book.talk)[1])
        return self.say(speaker, text)

    def ask(
        self,
        options: list[str],
        answer: str,
        evidence: list[dict],
        category: str,
        fill: dict[str, str],
    ) -> None:
        """Word the question: mostly keeping a content word of the evidence, else away."""
        rng = self.rng
        names = {self.a.lower(), self.b.lower()}
        texts = [e["text"] for e in evidence]
        worded = [o.format(**fill) for o in options]
        keep = rng.random() < SHARE_WORD
        fits = [q for q in worded if (question_overlap(q, texts, names) > 0) == keep]
        question = rng.choice(fits or worded)
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

    def state(self, p: str, text: str, reply: bool = False, rel: str = "") -> dict:
        """`p` says `text` (framed), as a reply to the other's question when `reply`."""
        rng, book = self.rng, self.book
        if reply:
            if self.last == self.other(p):
                self.small_talk(p)
            opener = (
                rng.choice(T.OPENERS_OTHER).format(rel=rel) if rel else rng.choice(book.openers)
            )
            self.say(self.other(p), opener)
        elif self.last == p:
            self.small_talk(self.other(p))
        frame, tail = rng.choice(book.frames), rng.choice(book.tails)
        body = _sentence(text)
        said = frame + _lower_start(body) if frame else body
        for _ in range(rng.choice((0, 1, 1, 2))):  # the news comes with some chat around it
            tail += " " + _sentence(rng.choice(book.talk)[1])
        return self.say(p, said + tail)


# ---- planning ------------------------------------------------------------------------------
def _schedule(conv: _Conversation) -> None:
    """Two to four units per session; two-part units put their second part later."""
    rng, n = conv.rng, len(conv.dates)
    kinds, weights = zip(*UNIT_KINDS)
    used: set = set()
    for s in range(n):
        for _ in range(rng.choice((2, 3, 3, 4))):
            kind = rng.choices(kinds, weights)[0]
            p = rng.choice((conv.a, conv.b))
            later = rng.randrange(s + 1, min(n, s + 9)) if s < n - 1 else None
            unit = _pick(conv, kind, p, used)
            if unit is None or (kind in ("change", "hop", "shared") and later is None):
                kind, unit = "fact", _pick(conv, "fact", p, used)
                if unit is None:
                    continue
            conv.plan[s].append((kind, 0, p, unit))
            if kind in ("change", "hop", "shared") and later is not None:
                conv.plan[later].append((kind, 1, p, unit))


def _pick(conv: _Conversation, kind: str, p: str, used: set):
    """A unit not used yet for this speaker (its question must have one answer)."""
    rng, book = conv.rng, conv.book
    key: tuple
    for _ in range(20):
        if kind in ("fact", "detail"):
            pool = [t for t in book.topics if kind == "fact" or "follow" in t]
            topic = rng.choice(pool)
            subject = 0 if rng.random() < 0.55 else rng.randrange(1, len(T.SUBJECTS))
            key = ("fact", p, topic["key"], subject)
            spec = {"topic": topic, "subject": subject}
        elif kind == "change":
            topic = rng.choice(book.changes)
            subject = 0 if topic.get("self") or rng.random() < 0.7 else rng.randrange(1, 4)
            key = ("change", p, topic["key"], subject)
            spec = {"topic": topic, "subject": subject}
        elif kind == "dated":
            topic = rng.choice(book.dated)
            subject = 0 if rng.random() < 0.75 else rng.randrange(1, len(T.SUBJECTS))
            key = ("dated", p, topic["say"], subject)
            spec = {"topic": topic, "subject": subject}
        elif kind == "hop":
            topic = rng.choice(book.hops)
            key = ("hop", p, topic["first"])
            spec = {"topic": topic, "friend": rng.choice(book.friends)}
        else:
            topic = rng.choice(book.shared)
            key = ("shared", topic["say"])
            spec = {"topic": topic}
        if key not in used:
            used.add(key)
            spec["value"] = rng.choice(topic["values"])
            return spec
    return None


# ---- rendering -------------------------------------------------------------------------------
def _session(conv: _Conversation, s: int, state: dict) -> None:
    """Small talk with the session's planned units dropped in, 0–2 turns apart."""
    rng = conv.rng
    conv.session, conv.turn, conv.last = s, 0, None
    for kind, part, p, spec in conv.plan[s]:
        for _ in range(rng.choice((0, 1, 1, 2))):
            conv.small_talk()
        _unit(conv, kind, part, p, spec, state)
    while conv.turn < 10:
        conv.small_talk()


def _unit(conv: _Conversation, kind: str, part: int, p: str, spec: dict, state: dict) -> None:
    rng = conv.rng
    topic, v = spec["topic"], spec["value"]
    forms = _subject_forms(spec.get("subject", 0), p)
    key: tuple
    if kind in ("fact", "detail"):
        reply = rng.random() < 0.4
        ev = conv.state(
            p,
            rng.choice(topic["say"]).format(v=v, **forms),
            reply,
            forms["rel"] if spec["subject"] else "",
        )
        conv.ask(topic["ask"], v, [ev], "single-hop", forms)
        conv.echo_words.extend(topic.get("echo", []))
        other = conv.other(p)
        if kind == "detail":
            w = rng.choice(topic["details"])
            conv.say(other, f"{rng.choice(conv.book.reactions)} {topic['follow']}")
            ev2 = conv.say(p, _sentence(topic["tell"].format(w=w)))
            conv.ask(topic["ask_detail"], w, [ev, ev2], "adjacent-turns", forms)
        else:
            conv.react(other)
    elif kind == "change":
        key = ("change", p, topic["key"], spec["subject"])
        if part == 0:
            state[key] = v
            conv.state(p, rng.choice(topic["first"]).format(v=v, **forms))
        else:
            new = rng.choice([x for x in topic["values"] if x != state[key]])
            ev = conv.state(p, rng.choice(topic["then"]).format(v=new, **forms))
            conv.ask(topic["ask"], new, [ev], "knowledge-update", forms)
        conv.react(conv.other(p))
    elif kind == "dated":
        said = conv.dates[conv.session]
        if rng.random() < 0.6:
            label, back = rng.choice(T.RELATIVE_DAYS)
            day = said - timedelta(days=back)
        else:
            label, weekday = rng.choice(T.RELATIVE_WEEKDAYS)
            day = said - timedelta(days=(said.weekday() - weekday) % 7 or 7)
        ev = conv.state(p, topic["say"].format(when=label + ",", v=v, **forms))
        conv.ask(
            [topic["ask"], topic["alt"]],
            day.date().isoformat(),
            [ev],
            "temporal",
            {**forms, "v": v},
        )
        conv.react(conv.other(p))
    elif kind == "hop":
        key = ("hop", p, topic["first"])
        f = spec["friend"]
        if part == 0:
            state[key] = conv.state(p, topic["first"].format(f=f, v=v))
        else:
            ev = conv.state(p, topic["then"].format(f=f))
            conv.ask([topic["ask"]], v, [state[key], ev], "multi-hop", forms)
        conv.react(conv.other(p))
    else:  # shared: p says it, the other says the same of themselves in a later session
        key = ("shared", topic["say"])
        if part == 0:
            state[key] = conv.state(p, topic["say"].format(v=v))
            conv.react(conv.other(p))
        else:
            ev = conv.state(conv.other(p), topic["echo"].format(v=v))
            conv.ask([topic["ask"]], v, [state[key], ev], "commonality", {"a": conv.a, "b": conv.b})


def generate_chat(seed: int, conversations: int, sessions: int) -> list[dict]:
    """`conversations` independent two-person histories of `sessions` dated sessions each."""
    book = Phrasebook(seed)
    out = []
    for i in range(conversations):
        rng = random.Random(f"{SEED_NAME}-chat/{seed}/{i}")
        conv = _Conversation(rng, book, f"chat-{seed}-{i + 1}", max(4, sessions))
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
