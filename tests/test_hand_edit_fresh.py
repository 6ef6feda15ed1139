"""An item edited by hand is fresh again: decay restarts at the edit, as after a recall.

A hand edit does not move `updated` (only lorestack's writes do), so the item went on fading
from its last lorestack write. A checkout of an older version is not an edit: it keeps its age.
"""

from __future__ import annotations

import json
import os

from click.testing import CliRunner

from lorestack.cli.main import cli

OLD = "2026-05-17T10:00:00Z"


def _write(repo, name: str, title: str, updated: str = OLD) -> None:
    (repo / ".memory" / "facts" / f"{name}.md").write_text(
        f"---\nid: fact-{name}0000000\ntype: fact\ntitle: {title}\ncreated: '{updated}'\n"
        f"updated: '{updated}'\nconfidence: 0.8\n---\n\n{title}.\n")


def _decay(repo) -> dict[str, float]:
    result = CliRunner().invoke(cli, ["search", "deploy", "cluster", "--explain", "--json"])
    assert result.exit_code == 0, result.output
    return {h["id"]: h["explain"]["decay"] for h in json.loads(result.stdout)
            if h["id"].startswith("fact-")}


def _reindex() -> None:
    result = CliRunner().invoke(cli, ["reindex"])
    assert result.exit_code == 0, result.output


def test_a_hand_edit_restarts_the_clock_and_an_old_checkout_does_not(repo):
    _write(repo, "a", "The deploy runs from the blue cluster")
    _write(repo, "b", "The deploy runs from the green cluster")
    _write(repo, "c", "The deploy cluster is chosen by the release script")
    _reindex()  # indexed; nothing recalled yet (a search would reinforce what it finds)
    path = repo / ".memory" / "facts" / "b.md"
    path.write_text(path.read_text().replace("green cluster.", "green cluster, checked today."))
    # a checkout of an older version of c: other text and its own (older) `updated`
    _write(repo, "c", "The deploy cluster was picked by hand", updated="2026-04-01T10:00:00Z")
    decay = _decay(repo)
    assert decay["fact-b0000000"] > 0.99  # edited a moment ago
    assert decay["fact-a0000000"] < 0.5 and decay["fact-c0000000"] < 0.5
    assert decay["fact-c0000000"] < decay["fact-a0000000"]  # the older version is older


def test_a_touch_or_a_whitespace_change_is_not_a_hand_edit(repo):
    _write(repo, "a", "The deploy runs from the blue cluster")
    _reindex()
    path = repo / ".memory" / "facts" / "a.md"
    os.utime(path, None)  # same text, newer mtime (a checkout of the same version)
    text = path.read_text()
    path.write_text(text + "\n")  # only whitespace the index does not see
    assert _decay(repo)["fact-a0000000"] < 0.5
