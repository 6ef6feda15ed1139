"""`lorestack doctor` on a damaged index says what to run, not only "not ok" (qa32u).

A truncated tantivy meta.json and a Chroma database overwritten with noise printed two
`issue:` lines and "not ok", exit 1, with no word of `--repair`, which rebuilds both."""

from __future__ import annotations

from tests import test_index_health
from tests.conftest import run_cli

stocked = test_index_health.stocked  # fixture


def test_a_damaged_index_names_the_repair_and_the_repair_works(stocked):
    index = stocked / ".memory" / ".index"
    assert run_cli("reindex", cwd=stocked).returncode == 0
    (index / "tantivy" / "meta.json").write_text("")
    (index / "chroma" / "chroma.sqlite3").write_bytes(b"\x00noise" * 500)
    found = run_cli("doctor", cwd=stocked)
    assert found.returncode == 1 and "corrupt" in found.stdout
    assert "`lorestack doctor --repair`" in found.stdout.strip().splitlines()[-1]
    assert run_cli("doctor", "--repair", cwd=stocked).returncode == 0
    healthy = run_cli("doctor", cwd=stocked)
    assert healthy.returncode == 0 and "--repair" not in healthy.stdout


def test_repair_does_not_say_repaired_while_a_file_still_does_not_parse(stocked):
    """A hand-truncated item (frontmatter cut off) leaves the index stale too: `--repair`
    rebuilt the index and printed "repaired", exit 0, while the file it cannot mend still kept
    the item out of every search; the next plain `doctor` said "not ok", exit 1 (edit33)."""
    item = stocked / ".memory" / "facts" / "f0.md"
    item.write_text(item.read_text()[:30])  # cut inside the frontmatter
    fixed = run_cli("doctor", "--repair", cwd=stocked)
    assert "Traceback" not in fixed.stderr, fixed.stderr
    # the cut file changed since the last sync: the repair is a sync that drops its doc
    assert "synced changed files" in fixed.stdout and "f0.md" in fixed.stdout
    assert fixed.returncode == 1, fixed.stdout
    assert fixed.stdout.strip().splitlines()[-1] != "repaired"
    again = run_cli("doctor", cwd=stocked)
    assert again.returncode == 1 and "f0.md" in again.stdout
    assert "--repair" not in again.stdout.strip().splitlines()[-1]  # a repair cannot mend it
    assert run_cli("doctor", "--repair", "--json", cwd=stocked).returncode == 1


def test_an_item_file_cut_to_nothing_is_named(stocked):
    """A file emptied by a crashed save read as a new item named after the file (id `f1`, no
    text): `doctor` said "ok" and nothing named the file whose memory was gone (edit33). It is
    named now, as a note (an empty file is also how a placeholder starts)."""
    (stocked / ".memory" / "facts" / "f1.md").write_bytes(b"")
    found = run_cli("doctor", "--repair", cwd=stocked)
    assert "Traceback" not in found.stderr, found.stderr
    assert any("f1.md" in line and "empty" in line for line in found.stdout.splitlines()), \
        found.stdout
    import json

    report = json.loads(run_cli("doctor", "--json", cwd=stocked).stdout)
    assert [p for p in report["empty"] if p.endswith("f1.md")], report
