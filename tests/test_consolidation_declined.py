"""A pending claim the person deleted by hand stays deleted (thirty-third session, mem33's
report): `consolidate --since` offers events again whether or not a run consolidated them, and
the same three events wrote the same claim back after `rm` of its file. Whole processes, the
built-in extraction (no LLM): the decision is taken before any claim is asked for."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

ENV = {"LORESTACK_SERVICE__ENABLED": "false"}
EVENTS = ("Decided to use ruff for linting instead of flake8",
          "We use ruff for linting; flake8 config removed",
          "ruff linting runs in CI on every push")


def _claims(repo: Path) -> list[Path]:
    return sorted((repo / ".memory" / "decisions").glob("*.md"))


def _consolidate(repo: Path) -> dict:
    done = run_cli("consolidate", "--since", "2000-01-01", "--no-diff", "--json", cwd=repo, env=ENV)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_deleted_pending_claim_is_not_written_back(repo):
    for text in EVENTS:
        logged = run_cli("log", "--kind", "decision", text, cwd=repo, env=ENV)
        assert logged.returncode == 0, logged.stderr
    first = _consolidate(repo)
    made = _claims(repo)
    assert made and len(made) == len(first["added"] + first["proposed"]), first
    for path in made:
        path.unlink()  # the person's "no"

    again = _consolidate(repo)
    assert _claims(repo) == [] and not again["added"] and not again["proposed"], again
    reasons = [s["reason"] for s in again["skipped"]]
    assert any("deleted by hand" in r for r in reasons), again["skipped"]
    assert not list((repo / ".memory" / "archive").rglob("*.md"))  # nor archived in its place

    # the journal keeps the events, and a third run is as quiet as the second
    third = _consolidate(repo)
    assert _claims(repo) == [] and not third["added"] and not third["proposed"], third


def test_a_new_event_on_the_subject_proposes_it_anew(repo):
    for text in EVENTS:
        assert run_cli("log", "--kind", "decision", text, cwd=repo, env=ENV).returncode == 0
    _consolidate(repo)
    for path in _claims(repo):
        path.unlink()
    logged = run_cli("log", "--kind", "decision", "ruff linting replaced flake8 in the pre-commit hook too",
                     cwd=repo, env=ENV)
    assert logged.returncode == 0, logged.stderr
    again = _consolidate(repo)
    assert _claims(repo) and (again["added"] or again["proposed"]), again
