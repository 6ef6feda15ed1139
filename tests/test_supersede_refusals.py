"""`supersede` refuses what it must not replace before it writes anything. Superseding an
archived item printed "already archived" and exited 1, but the new item was written anyway
(a re-run wrote a second copy); superseding `project` moved the identity card to
archive/facts/project.md (sessions lost it; `restore` put it back in facts/, not in its
place), though `forget project` refuses. `review accept --all` with nothing pending asked
for ids "or --all"."""

from __future__ import annotations

from click.testing import CliRunner

from lorestack.cli.main import cli


def _item_files(repo):
    return sorted(p.name for p in (repo / ".memory" / "facts").glob("*.md"))


def test_superseding_an_archived_item_is_refused_and_writes_nothing(repo):
    runner = CliRunner()
    made = runner.invoke(cli, ["remember", "Staging runs on k3s", "--json"])
    assert made.exit_code == 0, made.output
    old_id = made.output.split('"id": "')[1].split('"')[0]
    assert runner.invoke(cli, ["forget", old_id, "--reason", "moved"]).exit_code == 0
    before = _item_files(repo)
    again = runner.invoke(cli, ["supersede", old_id, "Staging runs on EKS now"])
    assert again.exit_code == 1 and "already archived" in again.output
    assert f"lorestack restore {old_id}" in again.output
    assert "Traceback" not in again.output and again.output.count("\n") == 1
    assert _item_files(repo) == before


def test_the_identity_card_is_never_superseded(repo):
    runner = CliRunner()
    card = (repo / ".memory" / "project.md").read_bytes()
    done = runner.invoke(cli, ["supersede", "project", "A new card"])
    assert done.exit_code == 1 and "identity card" in done.output and "edit" in done.output
    assert (repo / ".memory" / "project.md").read_bytes() == card
    assert not list((repo / ".memory" / "archive").rglob("*.md")) and _item_files(repo) == []


def test_review_all_with_nothing_pending_says_so(repo):
    done = CliRunner().invoke(cli, ["review", "accept", "--all"])
    assert done.exit_code != 0 and "no claim waits for review" in done.output
