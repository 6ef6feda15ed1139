"""Eleventh session trial: `criteria edit ID --verdict block` on a drafted (guessed) reading
turned the guess into the user's own terms, so it blocked on terms nobody accepted. Only
terms the person gives (or `criteria confirm`) make a reading decide."""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli

ASYNC = "Don't introduce async APIs, click is synchronous"


def invoke(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_changing_only_the_verdict_keeps_a_guess_a_guess(repo):
    made = invoke("remember", "--json", "--type", "criterion", ASYNC, "--keyword", "async")
    rid = json.loads(made.stdout)["item"]["id"]
    edited = invoke("criteria", "edit", rid, "--verdict", "block", "--rationale", "click")
    assert edited.exit_code == 0 and "a guess" in edited.stdout
    assert invoke("check", "--no-retrieval", "Add async def invoke_async").exit_code == 1
    # the person's own terms decide, and confirming the guess makes it decide too
    invoke("criteria", "confirm", rid)
    assert invoke("check", "--no-retrieval", "Add async def invoke_async").exit_code == 2
    invoke("criteria", "edit", rid, "--redraft")
    invoke("criteria", "edit", rid, "--forbid", "async def")
    assert invoke("check", "--no-retrieval", "Add async def invoke_async").exit_code == 2


def test_redraft_drops_the_old_readings_alternatives(repo):
    """`--redraft` cleared forbid/require/unless but kept the alternatives of the reading it
    replaced (a reader's old alternative survived every redraft); `--clear-terms` too."""
    text = "Tests must not hit the real network; use the recorded fixtures instead"
    rid = json.loads(invoke("remember", "--json", "--type", "criterion", text).stdout)["item"]["id"]
    from lorestack.memory_layers.memory import Memory

    mem = Memory.open(repo)
    loaded = mem.get(rid)
    item = loaded.item.model_copy(deep=True)
    item.criterion.alternatives = ["stale old reading"]  # as an older reader drafted it
    mem.store_for(item.scope).update(loaded, item)
    redrafted = invoke("criteria", "edit", rid, "--redraft")
    assert "stale old reading" not in redrafted.stdout and "recorded fixtures" in redrafted.stdout
    cleared = invoke("criteria", "edit", rid, "--clear-terms")
    assert "recorded fixtures" in cleared.stdout  # the sentence alone, read at check time
    assert Memory.open(repo).get(rid).item.criterion.alternatives == []


def test_a_block_says_what_to_do_with_the_rules_own_id(repo):
    """A block told only how to drop an outdated rule, with `forget ID` left as a
    placeholder; it now says to change the proposal, and how to correct terms that misread
    it, each with the blocking criterion's id."""
    made = invoke("remember", "--json", "--type", "criterion", "Library code never prints",
                  "--forbid", "print(", "--verdict", "block")
    rid = json.loads(made.stdout)["item"]["id"]
    out = invoke("check", "--no-retrieval", "Add a print() in adapters.send")
    assert out.exit_code == 2
    assert "change the proposal" in out.output
    assert f"lorestack forget {rid} --reason" in out.output and "forget ID" not in out.output
    assert f"lorestack criteria edit {rid}" in out.output
