"""The synthetic coding-memory benchmark: deterministic, well-formed, hard in the intended ways."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from memstrata.bench.dataset import BenchFormatError, parse_line, read_dataset
from memstrata.bench.generate import generate, generate_jsonl
from memstrata.cli.main import cli
from memstrata.memory_layers.secret_guard import guard_text

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
    data = {"format": "memstrata-bench/1", "name": "x",
            "events": [{"id": "D1:1", "time": "2024-01-01T10:00:00", "text": "moved to Redis"}],
            "questions": [{"id": "q1", "question": "which queue?", "evidence": ["D1:1"],
                           "time": "2024-01-02T10:00:00"}]}
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("raw, message", [
    ("{not json", "not JSON"),
    (_line(format="locomo"), "expected 'memstrata-bench/1'"),
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
