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
    assert (index_dir / f"{LOG_NAME}.1").read_bytes() == old[-LOG_LIMIT_BYTES:]
    assert log.read_bytes() == result.output.encode("utf-8")  # tonight's run, from the start
    assert f"{LOG_NAME}.1" in result.output
    # under the limit nothing moves
    with open(log, "ab") as scheduler:
        again = CliRunner().invoke(cli, ["consolidate", "--no-diff"])
        scheduler.write(again.output.encode("utf-8"))
    assert log.read_bytes() == (result.output + again.output).encode("utf-8")
    guide = (Path(__file__).parents[1] / "docs" / "guide-more.md").read_text("utf-8")
    assert f"{LOG_NAME}.1" in guide and "1 MB" in guide


def test_a_huge_log_keeps_its_last_megabyte_and_one_that_cannot_move_does_not_stop_the_run(repo):
    """Before: a run read a log of any size whole into memory to copy it to consolidate.log.1,
    and when that copy could not be written (a folder under the name, a full disk) the nightly
    run stopped there, though a log that cannot be moved is no reason to skip it."""
    index_dir = Memory.open(repo).project.index_dir
    log, kept = index_dir / LOG_NAME, index_dir / f"{LOG_NAME}.1"
    log.parent.mkdir(parents=True, exist_ok=True)
    old = b"".join(b"run %07d: a model that fails loudly every night\n" % n for n in range(70_000))
    log.write_bytes(old)  # 3.4 MB
    result = CliRunner().invoke(cli, ["consolidate", "--no-diff"])
    assert result.exit_code == 0, result.output
    tail = kept.read_bytes()
    assert len(tail) <= LOG_LIMIT_BYTES and old.endswith(tail) and old[-len(tail) - 1:][:1] == b"\n"
    assert len(tail) > LOG_LIMIT_BYTES - 100 and log.read_bytes() == b""
    kept.unlink()
    kept.mkdir()
    (kept / "a file").write_text("keeps the folder from being replaced", "utf-8")
    log.write_bytes(old)
    result = CliRunner().invoke(cli, ["consolidate", "--no-diff"])
    assert result.exit_code == 0, result.output
    assert f"could not be moved to {LOG_NAME}.1" in result.output and "Traceback" not in result.output
    assert log.read_bytes() == old and kept.is_dir()
