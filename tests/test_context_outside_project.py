"""`lorestack context` where no project memory is found: a new user who runs it outside their
project (or before `lorestack init`) is told so and what to do, not "nothing to show with
these options" (the options were the defaults)."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def test_context_outside_a_project_says_there_is_no_project_memory(isolated, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = run_cli("context", cwd=elsewhere)
    assert done.returncode == 0
    assert done.stdout == ""
    assert "no .memory/" in done.stderr and "lorestack init" in done.stderr, done.stderr
    assert "with these options" not in done.stderr
    notes = json.loads(run_cli("context", "--json", cwd=elsewhere).stdout)["notes"]
    assert any("lorestack init" in note for note in notes)


def test_context_in_a_project_has_no_such_note(repo):
    notes = json.loads(run_cli("context", "--json", cwd=repo).stdout)["notes"]
    assert not any("lorestack init" in note for note in notes)
