"""`bench generate --style notes`: project journals with long pasted notes and logs.

Each dataset line is one project: short status events over `days` days, and long events
(meeting notes, incident logs, design notes of roughly 500 to 2,000 tokens) pasted into the
journal. Most long notes hold exactly one sentence stating a fact (an owner, a port, a
maintenance window, ...) among filler about the same system; a few are distractors about the
same systems without the fact. Each question asks for one fact in other words; its evidence
is the long note and its `answer` the fact's value, unique within the line, so the bench's
`answer_in_context@B` can tell whether the passage reached the context even when the whole
note did not fit. Deterministic for a seed.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

SYSTEMS = [
    "billing service",
    "search cluster",
    "ingest pipeline",
    "auth gateway",
    "report builder",
    "mobile sync",
    "export worker",
    "audit log",
    "payment webhook",
    "image resizer",
    "notification hub",
    "feature flag store",
    "session broker",
    "metrics relay",
]
PEOPLE = ["Ana", "Bo", "Chen", "Dara", "Eli", "Femi", "Gus", "Hana"]
TEAMS = [
    "Kestrel",
    "Osprey",
    "Lynx",
    "Heron",
    "Marten",
    "Puffin",
    "Otter",
    "Falcon",
    "Wren",
    "Badger",
    "Ibis",
    "Vole",
]
STORES = [
    "Memcached",
    "Redis",
    "Valkey",
    "DragonflyDB",
    "KeyDB",
    "Hazelcast",
    "Aerospike",
    "Couchbase",
    "Ignite",
    "Tarantool",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

# (question template, statement template, value maker) — the statement is the one sentence
# of the note that answers the question; the question shares few words with it on purpose
FACTS = [
    (
        "Which team is responsible for the {s} these days?",
        "After the reorg, ownership of the {s} moved to team {v}.",
        lambda r, _n: r.choice(TEAMS),
    ),
    (
        "How many times does the {s} try again before giving up?",
        "We agreed to cap the {s} at {v} before it pages someone.",
        lambda r, n: f"{r.randint(3, 40) + 40 * n} retries",
    ),
    (
        "What port should clients use to reach the {s}?",
        "The {s} now listens on {v} behind the internal balancer.",
        lambda r, _n: f"port {r.randint(20000, 65000)}",
    ),
    (
        "When can the {s} be taken down for upkeep?",
        "The maintenance window for the {s} is {v}, announced a day ahead.",
        lambda r, _n: (
            f"{r.choice(DAYS)} {r.randint(0, 5):02d}:{r.choice(['10', '25', '40', '55'])} UTC"
        ),
    ),
    (
        "Where does the {s} keep its hot results?",
        "Hot results of the {s} are cached in {v} since the migration.",
        lambda r, _n: r.choice(STORES),
    ),
    (
        "What is the timeout budget of the {s}?",
        "The request timeout of the {s} was raised to {v}.",
        lambda r, n: f"{r.randint(150, 900) + 1000 * n} milliseconds",
    ),
]

FILLER = [
    "{p} asked whether the {s} dashboards are still useful to anyone.",
    "We went through the open tickets for the {s} and closed the stale ones.",
    "{p} will write up the follow-up items from the {s} review.",
    "Latency of the {s} looked normal for most of the week.",
    "There was a short discussion about renaming the {s} repository.",
    "Nobody remembered why the {s} has two config files; {p} will check.",
    "The {s} runbook needs screenshots that match the new console.",
    "{p} pointed out that the {s} alerts fire too often on weekends.",
    "We should revisit the {s} roadmap after the quarterly planning.",
    "The load test for the {s} is blocked on test data from {p}.",
    "{p} shared a graph of error rates; nothing unusual for the {s}.",
    "Docs for the {s} still describe the old deployment flow.",
    "A customer reported slow pages, probably unrelated to the {s}.",
    "{p} suggested pairing on the {s} cleanup next sprint.",
    "The {s} build takes longer since the new linter was added.",
    "We agreed the {s} does not need a rewrite this year.",
]
LOG = [
    "{t} INFO {slug} request id={h} status=200 latency={ms}ms",
    "{t} WARN {slug} slow query id={h} took {ms}ms",
    "{t} INFO {slug} batch {n} processed in {ms}ms",
    "{t} DEBUG {slug} cache miss key={h}",
    "{t} ERROR {slug} upstream reset id={h} attempt {a}",
]
SHORT = [
    "{p}: pushed a small fix for the {s}",
    "{p}: reviewing the {s} pull request now",
    "{p}: standup moved to 10:30 today",
    "{p}: the {s} deploy went out without issues",
    "{p}: pasting my notes from the {s} sync below",
    "{p}: out this afternoon, ping me on chat",
    "{p}: lunch at the usual place?",
    "{p}: the flaky test in the {s} suite failed again",
]


def _filler(r: random.Random, system: str, words: int, log: bool, start: datetime) -> list[str]:
    out: list[str] = []
    count = 0
    slug = system.replace(" ", "-")
    when = start
    while count < words:
        if log:
            when += timedelta(seconds=r.randint(1, 90))
            line = r.choice(LOG).format(
                t=when.strftime("%H:%M:%S"),
                slug=slug,
                h=f"{r.getrandbits(32):08x}",
                ms=r.randint(5, 3000),
                n=r.randint(100, 9999),
                a=r.randint(1, 5),
            )
        else:
            line = r.choice(FILLER).format(p=r.choice(PEOPLE), s=system)
        out.append(line)
        count += len(line.split())
    return out


def _note(r: random.Random, system: str, tokens: int, fact: str | None, start: datetime) -> str:
    """A long pasted note (~`tokens` tokens); `fact` goes somewhere in its middle part."""
    log = r.random() < 0.4
    words = int(tokens / (3.2 if log else 1.3))  # log lines: ids and times cost tokens
    lines = _filler(r, system, words, log, start)
    if fact is not None:
        at = r.randint(len(lines) // 5, max(len(lines) // 5, len(lines) * 4 // 5))
        lines.insert(at, f"{start.strftime('%H:%M:%S')} NOTE {fact}" if log else fact)
    title = (
        f"Log excerpt from the {system}, pasted for reference:"
        if log
        else f"Notes from the {system} sync:"
    )
    sep = "\n" if log else " "
    return title + "\n" + sep.join(lines)


def generate_notes(seed: int, lines: int, days: int) -> list[dict]:
    """`lines` dataset lines of `days` days each (lorestack-bench/1 dicts)."""
    r = random.Random(seed)
    out = []
    base = datetime(2024, 3, 4, 9, 0, tzinfo=timezone.utc)
    for n in range(lines):
        systems = r.sample(SYSTEMS, 6)
        events: list[dict] = []
        questions: list[dict] = []
        used: set[str] = set()
        start = base + timedelta(days=n * (days + 7))
        notes_due = []
        for i in range(12):
            system = systems[i % len(systems)]
            q_tpl, s_tpl, make = FACTS[(i + n + i // len(systems)) % len(FACTS)]
            value = make(r, i)
            while value in used:
                value = make(r, i + len(used))
            fact = None
            if i < 10:  # two distractor notes carry no fact
                used.add(value)
                fact = (q_tpl.format(s=system), s_tpl.format(s=system, v=value), value)
            notes_due.append((r.randint(1, days - 1), system, r.randint(500, 2000), fact))
        note_no = 0
        for day in range(days):
            when = start + timedelta(days=day)
            for turn in range(r.randint(3, 6)):
                t = when + timedelta(minutes=17 * turn + r.randint(0, 9))
                events.append(
                    {
                        "id": f"P{n}-D{day}:{turn}",
                        "time": t.isoformat(),
                        "session": f"day-{day}",
                        "text": r.choice(SHORT).format(p=r.choice(PEOPLE), s=r.choice(systems)),
                    }
                )
            for _due, system, tokens, fact in [x for x in notes_due if x[0] == day]:
                t = when + timedelta(hours=3, minutes=note_no)
                eid = f"P{n}-N{note_no}"
                events.append(
                    {
                        "id": eid,
                        "time": t.isoformat(),
                        "session": f"day-{day}",
                        "text": _note(r, system, tokens, fact[1] if fact else None, t),
                    }
                )
                if fact:
                    questions.append(
                        {
                            "id": f"notes-{n}/q{len(questions)}",
                            "question": fact[0],
                            "answer": fact[2],
                            "evidence": [eid],
                            "category": "long-note",
                            "time": "",
                        }
                    )
                note_no += 1
        end = start + timedelta(days=days, hours=1)
        for q in questions:
            q["time"] = end.isoformat()
        events.sort(key=lambda e: e["time"])
        out.append(
            {
                "format": "lorestack-bench/1",
                "name": f"notes-{seed}-{n}",
                "events": events,
                "questions": questions,
            }
        )
    return out
