"""An id, file name or anchor holding a key (typed by hand) is shown redacted by every command
that prints items, and the resident service's caches never serve one item for another.

Review findings on the twelfth session's merge: the service's clean-file cache was keyed by
checksum alone (two files with the same bytes and different names shared it); `list` and `show`
printed such ids, paths and anchors raw while `search` and MCP redacted them; the service's
find-by-id missed a file added since with the same id.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.memory_layers import parse_cache
from lorestack.memory_layers.listing import list_items
from lorestack.memory_layers.memory import Memory

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
KEY = "AKIAIOSFODNN7EXAMPLE"


def test_same_bytes_under_another_name_are_scanned_again_in_the_service(mem):
    """Empty files take their id and title from the name: the clean one must not vouch for
    the one named after a token."""
    facts = mem.project.root / "facts"
    (facts / "aaa-notes.md").write_text("")
    (facts / f"zzz-{TOKEN}.md").write_text("")
    parse_cache.enable(True)
    try:
        for _ in range(2):  # the second listing is the one a warm cache answers
            titles = [it.title for it in list_items(mem, redact=True).items]
            assert any("notes" in t for t in titles)
            assert not any(TOKEN in t for t in titles), titles
            assert any("[REDACTED:" in t for t in titles)
    finally:
        parse_cache.enable(False)


def _named_after_a_key(repo):
    memory = repo / ".memory"
    (memory / "facts" / f"{KEY}.md").write_text(
        f"---\nid: fact-{KEY}\ntype: fact\ntitle: The staging bucket is in eu-west-1\n"
        f"anchors: [deploy/{KEY}.env]\n---\n\nThe staging bucket is in eu-west-1.\n")


def test_list_and_show_print_such_an_id_path_and_anchor_redacted(repo):
    _named_after_a_key(repo)
    runner = CliRunner()
    for args in (["list"], ["list", "--json"], ["show", f"fact-{KEY}"],
                 ["show", f"fact-{KEY}", "--json"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, (args, result.output)
        assert "staging bucket" in result.output, args
        assert KEY not in result.output, (args, result.output)
        assert "[REDACTED:aws access key]" in result.output, args
    listed = json.loads(runner.invoke(cli, ["list", "--json"]).stdout)
    searched = json.loads(runner.invoke(cli, ["search", "staging", "bucket", "--json"]).stdout)
    rows = listed["items"] if isinstance(listed, dict) else listed
    row = next(r for r in rows if "staging" in r["title"])
    hit = next(h for h in searched if "staging" in h["title"])
    assert row["id"] == hit["id"] and row["path"] == hit["path"]  # one shape, the same values


def test_the_service_finds_a_duplicate_id_added_since_as_in_process(mem):
    facts = mem.project.root / "facts"
    head = "---\nid: fact-twin\ntype: fact\ntitle: {title}\n---\n\n{title}.\n"
    (facts / "b-old.md").write_text(head.format(title="The old copy"))
    parse_cache.enable(True)
    try:
        assert Memory.open(mem.project.root.parent).get("fact-twin").item.title == "The old copy"
        (facts / "a-new.md").write_text(head.format(title="The new copy"))
        served = Memory.open(mem.project.root.parent).get("fact-twin").path.name
    finally:
        parse_cache.enable(False)
    in_process = Memory.open(mem.project.root.parent).get("fact-twin").path.name
    assert served == in_process
