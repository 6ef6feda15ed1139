"""The nightly job's log stays bounded (session 36)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from lorestack.cli.main import cli
from lorestack.consolidation.cron import LOG_LIMIT_BYTES, LOG_NAME, cron_line
from lorestack.memory_layers.memory import Memory


def test_the_cron_log_is_capped_and_tonights_output_kept(repo):
    """Before: `.memory/.index/consolidate.log`, appended to by the crontab line (or launchd)
    every night, was never trimmed: a year of nightly reports with diffs, or a model failing
    loudly every night, grew it without limit."""
    index_dir = Memory.open(repo).project.index_dir
    log = index_dir / LOG_NAME
    assert f">> {log.resolve()}" in cron_line(repo.resolve(), log.resolve(), "03:17")
    log.parent.mkdir(parents=True, exist_ok=True)
    old = b"consolidation run-2025: nothing changed\n" * (LOG_LIMIT_BYTES // 40 + 10)
    log.write_bytes(old)
    # the scheduler's `>> consolidate.log 2>&1`: opened for appending before lorestack starts
    with open(log, "ab") as scheduler:
        result = CliRunner().invoke(cli, ["consolidate", "--no-diff"])
        assert result.exit_code == 0, result.output
        scheduler.write(result.output.encode("utf-8"))
    assert (index_dir / f"{LOG_NAME}.1").read_bytes() == old
    assert log.read_bytes() == result.output.encode("utf-8")  # tonight's run, from the start
    assert f"{LOG_NAME}.1" in result.output
    # under the limit nothing moves
    with open(log, "ab") as scheduler:
        again = CliRunner().invoke(cli, ["consolidate", "--no-diff"])
        scheduler.write(again.output.encode("utf-8"))
    assert log.read_bytes() == (result.output + again.output).encode("utf-8")
    guide = (Path(__file__).parents[1] / "docs" / "guide-more.md").read_text("utf-8")
    assert f"{LOG_NAME}.1" in guide and "1 MB" in guide
