"""`lorestack import` reads each source once, and says how far it has come."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli

_watched: dict[str, int] = {}


def _count_opens(event: str, args: tuple) -> None:
    if event == "open" and args and str(args[0]) in _watched:
        _watched[str(args[0])] += 1


sys.addaudithook(_count_opens)  # an audit hook stays for the process: it counts only _watched


@pytest.fixture
def opens():
    def watch(path) -> dict[str, int]:
        _watched[str(path)] = 0
        return _watched

    yield watch
    _watched.clear()


def _claude_lines(n: int) -> str:
    return "".join(json.dumps({"type": "user", "sessionId": "s-read", "uuid": f"u{i}",
                               "timestamp": f"2026-11-0{i % 9 + 1}T10:00:{i % 60:02d}Z",
                               "message": {"role": "user", "content": f"Note {i} on the runner"}})
                   + "\n" for i in range(n))


@pytest.mark.parametrize("fmt", ["auto", "transcript", "claude-code"])
def test_a_transcript_is_read_once(repo, tmp_path, opens, fmt):
    """A transcript was read whole three times: its text for the format guess, again to guess
    the transcript's client, and again by the client's reader."""
    source = tmp_path / "session.jsonl"
    source.write_text(_claude_lines(12))
    counted = opens(source)
    result = CliRunner().invoke(cli, ["import", "--no-index", "--json", "--format", fmt,
                                      str(source)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["events"] == 12
    assert counted[str(source)] == 1


def test_jsonl_and_gemini_sources_are_read_once(repo, tmp_path, opens):
    events = tmp_path / "events.jsonl"
    events.write_text(json.dumps({"time": "2024-03-02T09:15:00", "text": "Pinned gin"}) + "\n")
    gemini = tmp_path / "chat.json"
    gemini.write_text(json.dumps({"sessionId": "g1", "messages": [
        {"id": "m1", "type": "user", "timestamp": "2026-11-30T10:00:00Z",
         "content": "The gemini note about caching"}]}))
    counted = opens(events)
    opens(gemini)
    result = CliRunner().invoke(cli, ["import", "--no-index", "--json", str(events), str(gemini)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["events"] == 2
    assert counted == {str(events): 1, str(gemini): 1}


def test_import_reports_progress_by_phase(repo, tmp_path):
    from lorestack.consolidation.bulk_import import import_files
    from lorestack.memory_layers.memory import Memory

    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text(_claude_lines(5))
    second.write_text(json.dumps({"time": "2024-03-02T09:15:00", "text": "Pinned gin"}) + "\n")
    calls: list[tuple[int, int, str | None]] = []
    result = import_files(Memory.open(repo), [first, second],
                          progress=lambda done, total, phase=None: calls.append((done, total, phase)))
    assert result.events == 6
    phases = [c[2] for c in calls]
    assert phases.index("reading") < phases.index("writing")
    for phase in ("reading", "writing"):
        mine = [c for c in calls if c[2] == phase]
        assert mine[-1][0] == mine[-1][1] > 0  # each phase ends complete
        assert [c[0] for c in mine] == sorted(c[0] for c in mine)
    assert [c for c in calls if c[2] == "reading"][-1][1] == first.stat().st_size + second.stat().st_size


def test_a_jsonl_line_holding_a_line_separator_is_one_event(repo, tmp_path):
    """JSON lets U+2028, U+2029 and U+0085 stand unescaped inside a string (json.dumps with
    ensure_ascii=False, JSON.stringify write them so), and str.splitlines cut the line there:
    the import was refused ('Unterminated string', line 1) and a later line's number was off."""
    events = tmp_path / "events.jsonl"
    lines = [{"time": "2024-03-02T09:15:00", "text": "Pinned gin\u2028to 1.9 in the gateway"},
             {"time": "2024-03-02T09:16:00", "text": "Moved CI\u0085to the new runners"},
             {"time": "2024-03-02T09:17:00", "text": "Bumped celery\u2029to 5.3.9"}]
    events.write_text("".join(json.dumps(e, ensure_ascii=False) + "\r\n" for e in lines),
                      encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "--no-index", "--json", str(events)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["events"] == 3
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(lines[0], ensure_ascii=False) + "\n{\"time\": oops}\n",
                      encoding="utf-8")
    result = CliRunner().invoke(cli, ["import", "--no-index", str(broken)])
    assert result.exit_code != 0
    assert f"{broken}:2:" in result.output, result.output
