"""The synthetic coding-memory benchmark: deterministic, well-formed, hard in the intended ways."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from lorestack.bench.dataset import BenchFormatError, parse_line, read_dataset
from lorestack.bench.generate import generate, generate_jsonl
from lorestack.cli.main import cli
from lorestack.memory_layers.secret_guard import guard_text

SMALL = Path(__file__).parent / "data" / "bench_small.jsonl"
SMALL_ARGS = (7, 2, 20)  # seed, projects, days of tests/data/bench_small.jsonl

CATEGORIES = {"exact-identifier", "decision-rationale", "rejected-option", "knowledge-update",
              "preference", "criterion", "temporal", "multi-hop"}


@pytest.fixture(scope="module")
def big():
    return generate(11, 3, 60)


def test_committed_small_set_regenerates_byte_for_byte():
    assert generate_jsonl(*SMALL_ARGS).encode("utf-8") == SMALL.read_bytes()


def test_cli_generate_prints_the_same_bytes():
    result = CliRunner().invoke(cli, ["bench", "generate", "--seed", "7", "--projects", "2",
                                      "--days", "20"])
    assert result.exit_code == 0, result.output
    assert result.stdout.encode("utf-8") == SMALL.read_bytes()


def test_seeds_give_different_histories():
    assert generate_jsonl(1, 1, 20) != generate_jsonl(2, 1, 20)
    assert generate_jsonl(1, 2, 20).splitlines()[0] != generate_jsonl(1, 2, 20).splitlines()[1]


def test_lines_validate_and_evidence_precedes_the_question(big):
    for raw in generate_jsonl(11, 3, 60).splitlines():
        line = parse_line(raw, "generated")
        times = {e.id: e.time for e in line.events}
        assert [e.time for e in line.events] == sorted(e.time for e in line.events)
        for q in line.questions:
            assert q.evidence
            assert all(times[e] < q.time for e in q.evidence)


def test_every_category_is_covered(big):
    for line in big:
        assert {q["category"] for q in line["questions"]} == CATEGORIES
    assert sum(len(line["questions"]) for line in big) >= 3 * 40


def test_questions_are_not_copied_from_their_evidence(big):
    for line in big:
        texts = {e["id"]: e["text"].lower() for e in line["events"]}
        for q in line["questions"]:
            question = q["question"].lower().rstrip("?")
            for eid in q["evidence"]:
                assert question not in texts[eid]
                assert texts[eid] not in question


def test_knowledge_update_evidence_is_the_newest_statement(big):
    for line in big:
        events = line["events"]
        for q in line["questions"]:
            if q["category"] != "knowledge-update":
                continue
            (eid,) = q["evidence"]
            evidence = next(e for e in events if e["id"] == eid)
            match = re.match(r"(?:Bumped|Moved) (.+?) from ", evidence["text"])
            assert match, evidence["text"]
            subject = match.group(1)
            later = [e for e in events if e["time"] > evidence["time"]
                     and re.match(rf"(Bumped|Moved|Pinned) {re.escape(subject)} ", e["text"])]
            assert not later, (q["question"], later)


def test_exact_identifiers_have_lexical_twins(big):
    """Every asked error code has a sibling code with the same digits or a near number."""
    for line in big:
        codes = set(re.findall(r"E-[A-Z]+-\d{4}", " ".join(e["text"] for e in line["events"])))
        for q in line["questions"]:
            found = re.search(r"E-([A-Z]+)-(\d{4})", q["question"])
            if not found:
                continue
            digits = found.group(2)
            twins = [c for c in codes if c != found.group(0) and c.endswith(digits)]
            assert twins, q["question"]


def test_generated_text_never_trips_the_secret_guard(big):
    for line in big:
        for event in line["events"]:
            guard_text(event["text"], redact_secrets=False, where="bench", entropy_threshold=4.2)


def test_preferences_are_stated_weeks_before_they_are_asked(big):
    for line in big:
        times = {e["id"]: datetime.fromisoformat(e["time"]) for e in line["events"]}
        for q in line["questions"]:
            if q["category"] in ("preference", "criterion"):
                age = datetime.fromisoformat(q["time"]) - times[q["evidence"][0]]
                assert age.days >= 30


def test_some_rules_seed_typed_items(big):
    types = {e.get("type", "event") for line in big for e in line["events"]}
    assert types & {"preference", "criterion", "caveat"}


def test_generate_rejects_too_short_histories():
    with pytest.raises(ValueError):
        generate(1, 1, 5)
    result = CliRunner().invoke(cli, ["bench", "generate", "--days", "3"])
    assert result.exit_code != 0


# ---- the format reader ------------------------------------------------------------------------
def _line(**changes) -> str:
    data = {"format": "lorestack-bench/1", "name": "x",
            "events": [{"id": "D1:1", "time": "2024-01-01T10:00:00", "text": "moved to Redis"}],
            "questions": [{"id": "q1", "question": "which queue?", "evidence": ["D1:1"],
                           "time": "2024-01-02T10:00:00"}]}
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("raw, message", [
    ("{not json", "not JSON"),
    (_line(format="locomo"), "expected 'lorestack-bench/1'"),
    (_line(questions=[{"id": "q", "question": "?", "evidence": ["nope"],
                       "time": "2024-01-02T10:00:00"}]), "unknown event 'nope'"),
    (_line(events=[{"id": "a", "time": "2024-01-01T10:00:00", "text": "t"},
                   {"id": "a", "time": "2024-01-01T11:00:00", "text": "u"}], questions=[]),
     "appears twice"),
    (_line(events=[{"id": "a", "text": "no time"}], questions=[]), "events.0.time"),
])
def test_format_errors_name_the_line(tmp_path, raw, message):
    path = tmp_path / "set.jsonl"
    path.write_text(_line() + "\n\n" + raw + "\n", encoding="utf-8")
    with pytest.raises(BenchFormatError) as err:
        read_dataset(path)
    assert message in str(err.value)
    assert f"{path}:3" in str(err.value)


def test_reader_accepts_the_example_and_limit(tmp_path):
    path = tmp_path / "set.jsonl"
    path.write_text(_line() + "\n" + _line(name="y") + "\n", encoding="utf-8")
    lines = read_dataset(path)
    assert [line.name for line in lines] == ["x", "y"]
    assert lines[0].events[0].time.tzinfo is not None
    assert [line.name for line in read_dataset(path, limit=1)] == ["x"]


# ---- the chat style -----------------------------------------------------------------------------
SMALL_CHAT = Path(__file__).parent / "data" / "bench_small_chat.jsonl"
SMALL_CHAT_ARGS = (7, 1, 20)  # seed, conversations, sessions of tests/data/bench_small_chat.jsonl


def _chat_jsonl(seed: int, conversations: int, sessions: int) -> str:
    from lorestack.bench.chat import generate_chat

    return "".join(json.dumps(line, ensure_ascii=False) + "\n"
                   for line in generate_chat(seed, conversations, sessions))


@pytest.fixture(scope="module")
def chat():
    from lorestack.bench.chat import generate_chat

    return generate_chat(3, 3, 30)


def test_committed_small_chat_set_regenerates_byte_for_byte():
    assert _chat_jsonl(*SMALL_CHAT_ARGS).encode("utf-8") == SMALL_CHAT.read_bytes()
    result = CliRunner().invoke(cli, ["bench", "generate", "--style", "chat", "--seed", "7",
                                      "--projects", "1", "--days", "20"])
    assert result.exit_code == 0, result.output
    assert result.stdout.encode("utf-8") == SMALL_CHAT.read_bytes()


def test_chat_lines_validate_and_evidence_precedes_the_question(chat):
    for line in chat:
        parsed = parse_line(json.dumps(line), "chat")
        times = {e.id: e.time for e in parsed.events}
        assert [e.time for e in parsed.events] == sorted(times.values())
        speakers = [e.speaker for e in parsed.events]
        assert len(set(speakers)) == 2
        for q in parsed.questions:
            assert q.evidence and all(times[e] < q.time for e in q.evidence)


def test_chat_turns_alternate_within_a_session(chat):
    for line in chat:
        events = line["events"]
        for before, after in zip(events, events[1:]):
            if before["session"] == after["session"]:
                assert before["speaker"] != after["speaker"], (before, after)


def test_chat_asks_about_one_question_per_four_turns_in_every_category(chat):
    from lorestack.bench.chat import CATEGORIES

    events = sum(len(line["events"]) for line in chat)
    questions = [q for line in chat for q in line["questions"]]
    assert events / len(questions) <= 4.5, (events, len(questions))
    assert {q["category"] for q in questions} == set(CATEGORIES)
    assert len({q["question"] for line in chat for q in line["questions"]}) > 0.9 * len(questions)


def test_chat_answers_are_in_their_evidence_and_questions_name_the_person(chat):
    for line in chat:
        texts = {e["id"]: e["text"] for e in line["events"]}
        by_id = {e["id"]: e for e in line["events"]}
        speakers = {e["speaker"] for e in line["events"]}
        for q in line["questions"]:
            assert any(name in q["question"] for name in speakers), q["question"]
            said = " ".join(texts[e] for e in q["evidence"]).lower()
            if q["category"] == "temporal":  # a relative day said in the session
                spoken = datetime.fromisoformat(by_id[q["evidence"][0]]["time"]).date()
                day = datetime.fromisoformat(q["answer"]).date()
                assert 0 <= (spoken - day).days <= 7, (q, said)
            else:
                assert q["answer"].lower() in said, (q, said)


def test_chat_wording_mix_most_questions_keep_a_content_word(chat):
    """Like real conversation-QA sets: most questions share a content word (or its
    inflection) with the evidence, a real share is worded away from it."""
    from lorestack.bench.chat import question_overlap

    overlaps = []
    for line in chat:
        texts = {e["id"]: e["text"] for e in line["events"]}
        names = {e["speaker"].lower() for e in line["events"]}
        for q in line["questions"]:
            overlaps.append(question_overlap(q["question"], [texts[e] for e in q["evidence"]],
                                             names))
    sharing = sum(o > 0 for o in overlaps) / len(overlaps)
    assert 0.6 <= sharing <= 0.9, sharing


def test_chat_knowledge_updates_ask_for_the_newest_value(chat):
    """No later statement by the same speaker about the same person gives that topic a value."""
    from lorestack.bench.chat_topics import CHANGES, SUBJECTS

    def subject(text: str) -> str:
        return next((s for s, _p, _a in SUBJECTS[1:] if s in text.lower()), "I")

    for line in chat:
        by_id = {e["id"]: e for e in line["events"]}
        for q in line["questions"]:
            if q["category"] != "knowledge-update":
                continue
            (eid,) = q["evidence"]
            newest = by_id[eid]
            assert q["answer"] in newest["text"]
            values = {v for t in CHANGES if q["answer"] in t["values"] for v in t["values"]}
            later = [e for e in line["events"] if e["time"] > newest["time"]
                     and e["speaker"] == newest["speaker"]
                     and subject(e["text"]) == subject(newest["text"])
                     and any(re.search(rf"\b{re.escape(v)}\b", e["text"]) for v in values)]
            assert not later, (newest, later)


def test_chat_seeds_differ_in_sentences_not_only_in_values():
    from lorestack.bench.chat import generate_chat

    def sentences(seed: int) -> set[str]:
        return {e["text"].split(": ", 1)[1] for line in generate_chat(seed, 2, 20)
                for e in line["events"]}

    one, two = sentences(1), sentences(2)
    assert len(one & two) / len(two) < 0.3
    assert _chat_jsonl(4, 1, 8) == _chat_jsonl(4, 1, 8)


def test_chat_text_never_trips_the_secret_guard(chat):
    for line in chat:
        for event in line["events"]:
            guard_text(event["text"], redact_secrets=False, where="bench", entropy_threshold=4.2)
