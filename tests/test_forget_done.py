"""Journal entries can be forgotten and todos closed, by the short id the context shows or the
full id (issue 24: `forget 50by9` and `forget ev-…` used to answer "no memory item")."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.retrieval.render_context import short_id


def run(*args, code=0):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == code, result.output
    return result


def _log(text, kind):
    return json.loads(run("log", text, "--kind", kind, "--json").output)["id"]


def test_forget_an_event_by_short_id_moves_it_to_the_archive(repo):
    keep = _log("Pinned gin at 1.9.1 in go.mod", "progress")
    gone = _log("Tried the staging VPN from the cafe, it dropped twice", "note")
    assert "dropped twice" in run("context", "--budget", "1500").output
    out = run("forget", short_id(gone), "--reason", "noise").output
    assert "archive/events/" in out
    assert "dropped twice" not in run("context", "--budget", "1500").output
    assert "Pinned gin" in run("context", "--budget", "1500").output
    assert "dropped twice" not in run("search", "staging VPN cafe").output
    journal = "".join(p.read_text() for p in (repo / ".memory" / "journal").glob("*.md"))
    assert gone not in journal and keep in journal
    archived = "".join(p.read_text() for p in (repo / ".memory" / "archive" / "events").glob("*.md"))
    assert gone in archived and '"archived_reason": "noise"' in archived
    assert "dropped twice" in archived  # nothing is lost


def test_forget_an_event_by_full_id(repo):
    gone = _log("Spent the morning on the flaky test", "note")
    run("forget", gone, "--reason", "not worth keeping")
    assert "flaky test" not in run("list", "--type", "event").output


def test_done_closes_a_todo_by_short_id(repo):
    todo = _log("open an issue about the proxy caveat", "todo")
    assert "open an issue" in run("context", "--budget", "1500").output
    out = run("done", short_id(todo), "filed as #6712").output
    assert "closed " + todo in out
    listed = json.loads(run("list", "--type", "event", "--json").output)
    closing = [e for e in listed if f"closes:{todo}" in e.get("tags", [])]
    assert closing and closing[0]["body"].startswith("Done: open an issue")
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.loader import open_todos

    assert all(e.id != todo for e in open_todos(Memory.open(repo)))
    again = run("done", todo, code=1)
    assert "closed already" in again.output


def test_done_refuses_what_is_not_a_todo_and_unknown_ids(repo):
    note = _log("Read the release notes", "note")
    assert "not a todo" in run("done", note, code=1).output
    assert "no journal event" in run("done", "zzzzzz", code=1).output
    assert "no memory item or event" in run("forget", "zzzzzz", "--reason", "x", code=1).output


def test_help_names_done_and_forgetting_events():
    assert "done" in run("--help").output
    assert "short id" in run("forget", "--help").output
    assert "todo" in run("done", "--help").output


def test_forget_by_short_id_answers_with_the_full_id(repo):
    """Trial finding: `forget SHORTID` printed and returned the short id it was given."""
    item = json.loads(run("remember", "We pin the kafka client at 3.7", "--json").output)
    full = item.get("id") or item["item"]["id"]
    short = short_id(full)
    assert short != full
    assert f"archived {full} " in run("forget", short, "--reason", "moved on").output
    event = _log("Tried the staging VPN from the cafe", "note")
    data = json.loads(run("forget", short_id(event), "--reason", "noise", "--json").output)
    assert data["id"] == event


def test_done_with_a_secret_in_its_note_does_not_advise_a_flag_it_lacks(repo):
    # the refusal said "pass --redact to store it with the secret replaced", and
    # `lorestack done --redact` answered "No such option"
    from tests.conftest import run_cli

    logged = run_cli("log", "--kind", "todo", "rotate the staging credentials", cwd=repo)
    todo = logged.stdout.split()[-1]
    token = "ghp_" + "Zq8RtX3mPlwJalrXUtnFEMIK7MDENGbPxRfi"
    done = run_cli("done", todo, f"rotated; the new one is {token}", cwd=repo)
    assert done.returncode == 1 and "secret" in done.stderr, done.stderr
    assert "--redact" not in done.stderr and "note" in done.stderr and token not in done.stderr
    assert run_cli("done", todo, "rotated in the vault", cwd=repo).returncode == 0
