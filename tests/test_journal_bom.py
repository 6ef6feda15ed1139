"""A journal day saved by an editor that writes a UTF-8 BOM (Notepad, PowerShell's
`Out-File -Encoding utf8`) reads as the day it is (edit33).

The BOM sat in front of line 1: the `# Journal …` title read as text outside any entry (`list`
warned the day was skipped, `doctor` said "not ok"), and when line 1 was the first entry's
marker (a day whose title the user had deleted) that entry vanished from list, show, search
and forget, while the advice was to record it again with `lorestack log`."""

from __future__ import annotations

import json

from tests.conftest import run_cli

BOM = "\ufeff".encode()


def _day(repo):
    days = sorted((repo / ".memory" / "journal").glob("*.md"))
    assert len(days) == 1, days
    return days[0]


def _log_two(repo) -> tuple[str, str]:
    ids = []
    for text in ("the walrus migration finished", "the otter cache was warmed"):
        proc = run_cli("log", text, cwd=repo)
        assert proc.returncode == 0, proc.stderr
        ids.append(proc.stdout.split()[-1])
    return ids[0], ids[1]


def _event_ids(repo) -> list[str]:
    proc = run_cli("list", "--type", "event", "--json", cwd=repo)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    return [row["id"] for row in json.loads(proc.stdout)]


def test_a_bom_before_the_title_is_not_a_problem(repo):
    first, second = _log_two(repo)
    day = _day(repo)
    day.write_bytes(BOM + day.read_bytes())
    proc = run_cli("list", "--type", "event", cwd=repo)
    assert "skipped" not in proc.stderr and "outside any entry" not in proc.stderr, proc.stderr
    assert first in proc.stdout and second in proc.stdout
    doctor = run_cli("doctor", "--repair", cwd=repo)
    assert "outside any entry" not in doctor.stdout, doctor.stdout
    assert doctor.returncode == 0, doctor.stdout


def test_a_bom_right_before_the_first_entry_keeps_that_entry(repo):
    first, second = _log_two(repo)
    day = _day(repo)
    text = day.read_text("utf-8")
    start = text.index("<!-- lorestack:event")  # the user deleted the title and heading
    day.write_bytes(BOM + text[start:].encode())
    assert _event_ids(repo) == [first, second]
    shown = run_cli("show", first, cwd=repo)
    assert shown.returncode == 0 and "walrus" in shown.stdout, shown.stderr
    found = run_cli("search", "walrus migration", "--json", cwd=repo)
    assert found.returncode == 0 and first in found.stdout, found.stdout
    gone = run_cli("forget", first, "--reason", "done", cwd=repo)
    assert gone.returncode == 0, gone.stderr
    assert _event_ids(repo) == [second]
    assert "walrus" not in day.read_text("utf-8-sig")
    back = run_cli("restore", first, cwd=repo)
    assert back.returncode == 0, back.stderr
    assert sorted(_event_ids(repo)) == sorted([first, second])
