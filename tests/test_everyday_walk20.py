"""What the walk of session 20 found on a fresh project (everyday use, bad inputs)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli


def _run(*args):
    return CliRunner().invoke(cli, list(args))


def _id(result) -> str:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)["item"]["id"]


def test_superseding_an_item_already_superseded_names_the_one_that_holds_now(repo):
    """`supersede A …` after A was superseded by B, and B by C, said only "A is already
    archived; `lorestack restore A` brings it back": the user wanted C, not A back."""
    a = _id(_run("remember", "Staging runs on port 8080", "--type", "fact", "--json"))
    b = _id(_run("supersede", a, "Staging runs on port 8081", "--json"))
    c = _id(_run("supersede", b, "Staging runs on port 9000", "--json"))
    again = _run("supersede", a, "Staging runs on port 9001")
    assert again.exit_code == 1 and again.stderr.count("\n") == 1, again.output
    assert f"superseded by {b}" in again.stderr and f"{c} holds now" in again.stderr
    assert f"lorestack supersede {c}" in again.stderr
    forgot = _run("forget", b, "--reason", "gone")
    assert forgot.exit_code == 1 and f"{c} holds now" in forgot.stderr, forgot.output
    listed = json.loads(_run("list", "--json").stdout)
    assert [i["id"] for i in listed if i["title"].startswith("Staging")] == [c]
