"""A synthetic coding-memory benchmark in the `lorestack-bench/1` format.

Conversation sets (LoCoMo, LongMemEval) test chat recall; coding memory is hard in other
ways, and this generator writes project histories that are hard in those ways:
identifiers, paths, error codes and versions that must match exactly; decisions with the
options rejected and why; knowledge that changes (the newest event is the answer);
preferences and criteria stated once, weeks before they matter; questions about what
happened on a given day or the day after an incident; questions whose answer needs two
events from different sessions; and many near-duplicates (sibling error codes, the same
wording about other components, bumps of other libraries) as distractors.

Deterministic: every draw comes from a `random.Random` seeded with a string (hashed with
SHA-512 by Python, so PYTHONHASHSEED does not matter); no wall clock, no sets iterated.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from typing import IO

from lorestack.bench import vocab as V
from lorestack.bench.generate_project import _Event, _Project
from lorestack.core import legacy

# seeds keep the tool's former name, so every generated set (and the committed ones under
# tests/data) stays byte-for-byte what it was before the rename
SEED_NAME = legacy.LEGACY_NAME

BUMP_REASONS = [
    "picks up a security fix", "fixes the regression we hit in CI",
    "needed for the new {noun} work", "the old API we call is deprecated upstream",
]
WORKERS = ["export worker", "nightly rollup worker", "email worker", "ingest worker"]


# ---- scenarios ---------------------------------------------------------------------------
def _bugs(p: _Project, count: int) -> None:
    rng = p.rng
    for _ in range(count):
        comp = p.comp()
        noun = rng.choice(comp.nouns)
        func, path = p.func(noun), p.path(comp, noun)
        code = p.new_code(comp.abbr)
        symptom, cause, fix = (s.format(noun=noun.replace("_", " "), func=func)
                               for s in rng.choice(V.BUGS))
        day = rng.randrange(2, p.days - 1)
        text = rng.choice([
            f"Fixed {code} in {comp.name}: {symptom} came from {cause}. Fix: {fix} in {path}.",
            f"{code} ({symptom}) is fixed. Root cause: {cause}; we now {fix} ({path}).",
        ])
        event = p.emit(day, text, "progress", tags=[comp.name])
        p.bugs.append((event, code, comp))
        # sibling code on another component, same digits: a lexical trap
        other = p.comp(exclude=comp)
        twin = p.new_code(other.abbr, int(code.rsplit("-", 1)[1]))
        s2, c2, _f2 = (s.format(noun=rng.choice(other.nouns).replace("_", " "),
                                func=p.func(rng.choice(other.nouns)))
                       for s in rng.choice(V.BUGS))
        p.emit(rng.randrange(0, p.days), f"Triaged {twin} in {other.name}: {s2}, probably {c2}.",
               "note", tags=[other.name])
        # near code, same component, same symptom: a semantic trap
        near = p.new_code(comp.abbr, int(code.rsplit("-", 1)[1]) + rng.choice([-9, -1, 1, 10]))
        p.emit(rng.randrange(0, p.days),
               f"Seeing {near} in the staging logs from {comp.name} ({symptom}); "
               "not reproducible locally yet.", "note")
        if rng.random() < 0.4 and day < p.days - 2:
            p.emit(rng.randrange(day + 1, p.days),
                   f"{code} came back in a support ticket; same root cause as before, closed as "
                   "a duplicate.", "note")
        question, answer = rng.choice([
            (f"What was the root cause of {code}?", cause),
            (f"Remind me why {comp.name} was throwing {code}?", cause),
            (f"Which file did the {code} fix touch?", path),
            (f"How did we end up fixing {code}?", fix),
        ])
        p.ask(question, answer, [event], "exact-identifier")


def _decisions(p: _Project, count: int) -> None:
    rng = p.rng
    for topic, options in rng.sample(V.DECISIONS, min(count, len(V.DECISIONS))):
        comp = p.comp()
        picked = rng.sample(options, 3)
        (winner, pro, _), losers = picked[0], picked[1:]
        day = rng.randrange(1, p.days - 1)
        base = rng.random() * 0.6
        names = [o[0] for o in picked]
        rng.shuffle(names)
        p.emit(day, f"Discussed the {topic} for {comp.name}: compared {names[0]}, {names[1]} and "
                    f"{names[2]}.", "discussion", slot=base)
        rejected = []
        for i, (name, _pro, con) in enumerate(losers):
            rejected.append(p.emit(day, f"{name} is out for the {topic}: {con}.", "rejected",
                                   slot=base + 0.01 * (i + 1)))
        decision = p.emit(day, f"Decision: the {topic} for {comp.name} will be {winner}, because "
                               f"{pro}.", "decision", slot=base + 0.05, tags=[comp.name])
        p.ask(rng.choice([
            f"What did we settle on for the {topic} in {comp.name}, and why?",
            f"Which option won for {comp.name}'s {topic} and what was the argument?",
        ]), f"{winner}: {pro}", [decision], "decision-rationale")
        loser_index = rng.randrange(len(losers))
        name, _pro, con = losers[loser_index]
        p.ask(rng.choice([
            f"Why didn't we go with {name} for the {topic}?",
            f"Remind me what was wrong with {name} as our {topic}?",
        ]), con, [rejected[loser_index]], "rejected-option")
        if rng.random() < 0.6 and day < p.days - 2:
            later = rng.randrange(day + 1, p.days)
            p.emit(later, f"{p.rng.choice(p.people)} asked again about {name} for the {topic}; "
                          "pointed them to the earlier discussion.", "note")


def _versions(p: _Project, count: int) -> None:
    rng = p.rng
    for lib, _ in rng.sample(p.stack["libs"], count):
        p.tracked.append(lib)
        first = p.versions[lib]
        evidence = p.emit(rng.randrange(0, max(1, p.days // 6)),
                          f"Pinned {lib} at {first} in {p.stack['lock']}.", "note")
        bumps = 1 if rng.random() < 0.5 else 2
        lo = p.days // 4
        for day in sorted(rng.sample(range(lo, p.days - 1), bumps)):
            old, new = p.bump(lib)
            reason = rng.choice(BUMP_REASONS).format(noun=rng.choice(p.comp().nouns))
            evidence = p.emit(day, f"Bumped {lib} from {old} to {new} in {p.stack['lock']}: "
                                   f"{reason}.", "progress")
        current = p.versions[lib]
        question, answer = rng.choice([
            (f"Which {lib} version are we on now?", current),
            (f"Are we still on {lib} {first}?", f"no, {current}"),
            (f"What's the current pin for {lib}?", current),
        ])
        p.ask(question, answer, [evidence], "knowledge-update")


def _migrations(p: _Project, count: int) -> None:
    rng = p.rng
    for thing, stages, questions in rng.sample(V.MIGRATIONS, count):
        steps = stages[: rng.choice([2, 3])]
        p.emit(rng.randrange(0, max(1, p.days // 5)),
               f"Current setup for {thing}: {steps[0][0]}, configured in {steps[0][1]}.", "note")
        days = sorted(rng.sample(range(p.days // 4, p.days - 1), len(steps) - 1))
        last: _Event | None = None
        for (old, _), (new, where), day in zip(steps, steps[1:], days):
            last = p.emit(day, f"Moved {thing} from {old} to {new} ({where}); {old} is being "
                               "switched off.", "decision")
            p.emit(min(p.days - 1, day + rng.randint(1, 4)),
                   f"Deleted the last {old} leftovers from the repo.", "progress")
        assert last is not None  # steps has at least two entries, so one move was emitted
        p.ask(rng.choice(questions), steps[len(days)][0], [last], "knowledge-update")


def _rules(p: _Project, count: int) -> None:
    rng = p.rng
    fill = {"n": rng.choice([300, 400, 500]), "table": rng.choice(V.TABLES),
            "schema": rng.choice(V.SCHEMAS), "project": p.name, "ticket": p.ticket,
            "flagfile": rng.choice(["config/flags.yaml", "src/flags.ts", "settings/features.toml"])}
    for statement, question, answer, item_type in rng.sample(V.RULES, min(count, len(V.RULES))):
        day = rng.randrange(0, max(1, p.days // 3))
        typed = rng.random() < 0.5
        event = p.emit(day, statement.format(**fill), "note",
                       item_type=item_type if typed else "event",
                       tags=["rule"] if typed else None)
        category = "preference" if item_type == "preference" else "criterion"
        p.ask(question.format(**fill), answer.format(**fill), [event], category)


def _outages(p: _Project, count: int) -> None:
    rng = p.rng
    days = rng.sample(range(3, p.days - 2), min(count, max(1, p.days - 5)))
    for day in days:
        comp = p.comp()
        index = rng.randrange(len(V.OUTAGE_CAUSES))
        fill = {"host": f"{comp.name}-{rng.randint(1, 4)}.prod.internal",
                "noun": rng.choice(comp.nouns), "build": rng.randint(1000, 9999),
                "component": comp.name, "slug": comp.name, "ext": p.stack["ext"]}
        cause = V.OUTAGE_CAUSES[index].format(**fill)
        p.emit(day, f"Outage: {comp.name} was down for {rng.randint(8, 95)} minutes from "
                    f"{rng.randint(0, 23):02d}:{rng.choice(['05', '20', '40'])} UTC; {cause}.",
               "blocker")
        fixup = p.emit(day + 1, V.FOLLOW_UPS[index].format(**fill), "progress")
        stamp = (p.start + timedelta(days=day)).isoformat()
        postmortem = p.emit(day + 1, f"Wrote the postmortem for the {comp.name} incident; action "
                                     f"items in docs/postmortems/{stamp}-{comp.name}.md.", "progress")
        p.ask(rng.choice([
            f"What did we do the day after {comp.name} went down?",
            f"What follow-up work happened the day after the {comp.name} outage?",
        ]), "the fix-up and the postmortem", [fixup, postmortem], "temporal")


def _releases(p: _Project, count: int) -> None:
    rng = p.rng
    days = sorted(rng.sample(range(4, p.days - 1), min(count, p.days - 5)))
    events = []
    for minor, day in enumerate(days, start=1):
        features = [f.format(noun=rng.choice(p.comp().nouns).replace("_", " "))
                    for f in rng.sample(V.RELEASE_FEATURES, 2)]
        version = f"v1.{minor}.0"
        events.append((day, version, features, p.emit(
            day, f"Tagged {p.name} {version} and deployed it: {features[0]} and {features[1]}.",
            "progress")))
    for i, (day, version, features, event) in enumerate(rng.sample(events, len(events))[:4]):
        if i % 2 == 0:
            p.ask(f"What did we ship on {p.day_name(day)}?", " and ".join(features), [event],
                  "temporal")
        else:
            p.ask(f"What went into {version}?", " and ".join(features), [event],
                  "exact-identifier")


def _multihop(p: _Project, count: int) -> None:
    rng = p.rng
    for n in range(count):
        kind = ("fixture", "owner", "envvar")[n % 3]
        comp = p.comp()
        noun = rng.choice(comp.nouns)
        a_day = rng.randrange(0, p.days - 4)
        b_day = rng.randrange(a_day + 3, p.days)
        ext = p.stack["ext"]
        if kind == "owner" and p.bugs:
            bug, code, comp = rng.choice(p.bugs)
            if comp.name in p.owned:
                kind = "fixture"
            else:
                p.owned.append(comp.name)
                person = rng.choice(p.people)
                b_day = rng.randrange(0, p.days)
                owner = p.emit(b_day, f"{person} now owns {comp.name}; send reviews for that "
                                      "code their way.", "note")
                p.ask(f"Who should review a fix for {code}?", person, [bug, owner], "multi-hop")
                continue
        if kind in ("fixture", "owner"):
            verb = rng.choice(V.VERBS)
            test = f"test_{noun}_{verb}"
            fixture = f"tests/fixtures/{noun}_{rng.randint(1, 9)}.json"
            script = f"scripts/{verb}_{noun}_snapshot.{ext}"
            first = p.emit(a_day, f"`{test}` relies on the {noun.replace('_', ' ')} data in "
                                  f"{fixture}.", "note")
            second = p.emit(b_day, f"{fixture} is regenerated nightly by {script} from an "
                                   "anonymised production dump.", "note")
            p.ask(f"Which script produces the data that {test} depends on?", script,
                  [first, second], "multi-hop")
        else:
            env = f"{comp.abbr}_{noun.upper()}_{rng.choice(['MODE', 'LIMIT', 'BACKEND'])}"
            config = f"config/{comp.name}_{rng.choice(['jobs', 'runtime', 'batch'])}.{ext}"
            worker = rng.choice(WORKERS)
            first = p.emit(a_day, f"Added the {env} switch to {config} to control "
                                  f"{noun.replace('_', ' ')} handling.", "progress")
            second = p.emit(b_day, f"{config} is only loaded by the {worker}; the API process "
                                   "never imports it.", "note")
            p.ask(f"If I change {env}, which process actually picks it up?", worker,
                  [first, second], "multi-hop")


def _fillers(p: _Project, day: int) -> None:
    rng = p.rng
    free_libs = [lib for lib, _ in p.stack["libs"] if lib not in p.tracked]
    for _ in range(rng.randint(5, 9)):
        comp = p.comp()
        noun = rng.choice(comp.nouns)
        words = noun.replace("_", " ")
        func, path = p.func(noun), p.path(comp, noun)
        choice = rng.randrange(15)
        if choice == 0 and free_libs:
            lib = rng.choice(free_libs)
            _old, new = p.bump(lib)
            p.emit(day, f"Bumped {lib} to {new} in {p.stack['lock']} (patch release, nothing to "
                        "change).", "progress")
            continue
        if choice == 1:
            code = p.new_code(comp.abbr)
            p.emit(day, f"Seeing {code} in the staging logs from {comp.name}; not reproducible "
                        "locally yet.", "note")
            continue
        kind, text = [
            ("progress", f"Refactored `{func}` in {path}; no behaviour change, tests green."),
            ("discussion", (f"Review on PR #{rng.randint(100, 999)} for {comp.name}: asked for "
                            f"smaller functions around `{func}`.")),
            ("progress", (f"Paired with {rng.choice(p.people)} on {comp.name}: traced the {words} "
                          f"flow through `{func}`.")),
            ("todo", f"TODO: cover `{func}` with a test for an empty {words} list."),
            ("progress", (f"Benchmarked `{func}`: p95 is {rng.randint(3, 400)} ms on the {words} "
                          "fixture.")),
            ("discussion", (f"Talked about splitting {comp.name} into its own deployable; parked "
                            "for now.")),
            ("progress", f"Renamed `{p.func(noun)}` to `{func}` in {path}."),
            ("progress", f"Updated the {comp.name} README with the {words} lifecycle."),
            ("note", f"Planning: {comp.name} gets the {words} cleanup next sprint."),
            ("note", (f"`test_{noun}_{rng.choice(V.VERBS)}` flaked twice on CI today; re-ran it "
                      "and moved on.")),
            ("blocker", (f"Blocked on {comp.name}: waiting for {rng.choice(p.people)} to expose "
                         f"the {words} endpoint.")),
            ("progress", f"Added type hints across {path}."),
            ("progress", f"Wired {comp.name} metrics for {words} throughput into the dashboard."),
            ("discussion", f"Customer call: they want {words} exports from {comp.name} as CSV."),
        ][rng.randrange(14)]
        p.emit(day, text, kind)


def generate_project(seed: int, index: int, days: int, name: str) -> dict:
    """One project history (one dataset line)."""
    if days < 8:
        raise ValueError("a project needs at least 8 days of history")
    rng = random.Random(f"{SEED_NAME}-bench/{seed}/{index}")
    p = _Project(rng, name, days)
    _rules(p, max(2, days // 12))
    _versions(p, 2 + (days >= 40))
    _migrations(p, 1 + (days >= 30))
    _bugs(p, max(2, days // 6))
    _decisions(p, max(1, days // 12))
    _outages(p, max(1, days // 20))
    _releases(p, max(2, days // 8))
    _multihop(p, max(1, days // 15))
    for day in range(days):
        _fillers(p, day)
    return p.finish()


def generate(seed: int, projects: int, days: int) -> list[dict]:
    """`projects` independent histories of `days` days each, identical for identical inputs."""
    if projects < 1:
        raise ValueError("need at least one project")
    names = random.Random(f"{SEED_NAME}-bench/{seed}/names").sample(
        V.PROJECT_NAMES, len(V.PROJECT_NAMES))
    out = []
    for i in range(projects):
        name = names[i % len(names)] + (f"{i // len(names) + 1}" if i >= len(names) else "")
        out.append(generate_project(seed, i, days, name))
    return out


def write_jsonl(lines: list[dict], fh: IO[str]) -> None:
    for line in lines:
        fh.write(json.dumps(line, ensure_ascii=False) + "\n")


def generate_jsonl(seed: int, projects: int, days: int) -> str:
    """The whole set as JSON Lines text (what `lorestack bench generate` prints)."""
    return "".join(json.dumps(line, ensure_ascii=False) + "\n"
                   for line in generate(seed, projects, days))
