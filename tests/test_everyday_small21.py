"""Everyday defects the reviews of session 20 left: a short id on a broken file, and an id of
the wrong kind given to a command."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.retrieval.render_context import short_id


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def _id(result) -> str:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["item"]["id"]


def test_a_short_id_names_the_broken_file_that_holds_it(repo):
    """`show 7k2m9` on an item whose frontmatter a hand edit broke said "no memory item or
    event with id"; only the full id named the file that cannot be read."""
    item = _id(_run("remember", "Staging runs on port 9000", "--type", "fact", "--json"))
    path = next((repo / ".memory").rglob("staging-runs-on-port-9000.md"))
    path.write_text(path.read_text().replace("importance:", "importance: [0.5\nx:", 1))
    for given in (short_id(item), "~" + short_id(item)):
        for args in (["show", given], ["forget", given, "--reason", "x"]):
            said = _run(*args)
            assert said.exit_code == 1 and said.stderr.count("\n") == 1, (args, said.output)
            assert str(path) in said.stderr and "cannot be read" in said.stderr, said.stderr


def test_a_short_id_with_the_mark_a_session_sees_finds_items_and_events(repo):
    """`show ~7k2m9` (copied from the context with its `~`) said there is no such id."""
    item = _id(_run("remember", "Staging runs on port 9000", "--type", "fact", "--json"))
    shown = _run("show", "~" + short_id(item), "--json")
    assert shown.exit_code == 0 and json.loads(shown.stdout)["id"] == item, shown.output
    todo = json.loads(_run("log", "Write the staging runbook", "--kind", "todo",
                           "--json").stdout)["id"]
    closed = _run("done", "~" + short_id(todo))
    assert closed.exit_code == 0, closed.output


def test_an_id_of_the_wrong_kind_is_named_by_its_kind(repo):
    """`done dec-…` said "no journal event with id 'dec-…'", and `edit ev-…` or `anchors set
    ev-…` said "no memory item or event with id 'ev-…'", though both ids exist."""
    decision = _id(_run("remember", "We ship on Tuesdays", "--type", "decision", "--json"))
    done = _run("done", decision)
    assert done.exit_code == 1 and done.stderr.count("\n") == 1, done.output
    assert f"'{decision}' is a decision" in done.stderr and "no journal event" not in done.stderr
    assert "`done` closes todos and blockers" in done.stderr
    event = json.loads(_run("log", "Tried the blue build", "--kind", "progress",
                            "--json").stdout)["id"]
    for args in (["edit", event], ["anchors", "set", event, "--about", "README.md"],
                 ["anchors", "accept", "~" + short_id(event)]):
        said = _run(*args)
        assert said.exit_code == 1 and said.stderr.count("\n") == 1, (args, said.output)
        assert f"'{event}' is a journal event (progress)" in said.stderr, said.stderr
        assert "no memory item or event" not in said.stderr
