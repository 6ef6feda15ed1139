"""The old home's one-time notices hold when processes of the new name start at once (a
session's hooks after an upgrade): "left as it is" is said once, and a move one process made is
not told by the others as "left as it is" or "could not move … move it by hand"."""

from __future__ import annotations

import io
import multiprocessing
from pathlib import Path

from lorestack.core import legacy

PROCESSES = 6
ROUNDS = 25  # the race is timing-bound: before the fix a round failed about one time in ten


def _start(home: str, barrier, said) -> None:
    err = io.StringIO()
    barrier.wait(timeout=600)  # all at once; a hang guard only
    outcome = legacy.migrate_legacy_home(Path(home), environ={}, stderr=err)
    said.put((outcome, err.getvalue()))


def _all_at_once(home: Path) -> list[tuple[str, str]]:
    context = multiprocessing.get_context("fork")  # started ready, released by the barrier
    barrier, said = context.Barrier(PROCESSES), context.Queue()
    processes = [context.Process(target=_start, args=(str(home), barrier, said))
                 for _ in range(PROCESSES)]
    for process in processes:
        process.start()
    out = [said.get(timeout=600) for _ in processes]
    for process in processes:
        process.join(timeout=600)
    return out


def test_left_in_place_is_said_once_by_processes_started_at_once(tmp_path):
    for attempt in range(ROUNDS):  # each round is a fresh chance for the race
        home = tmp_path / f"h{attempt}"
        (home / f".{legacy.LEGACY_NAME}").mkdir(parents=True)
        (home / ".lorestack").mkdir()
        said = _all_at_once(home)
        assert [o for o, _ in said] == ["kept-both"] * PROCESSES
        assert sum("left as it is" in err for _, err in said) == 1, said


def test_a_move_made_by_one_process_is_told_by_that_one_only(tmp_path):
    for attempt in range(ROUNDS):
        home = tmp_path / f"h{attempt}"
        (home / f".{legacy.LEGACY_NAME}").mkdir(parents=True)
        (home / f".{legacy.LEGACY_NAME}" / "profile.md").write_text("mine\n")
        said = _all_at_once(home)
        assert (home / ".lorestack" / "profile.md").read_text() == "mine\n"
        assert [o for o, _ in said].count("moved") == 1, said
        told = "".join(err for _, err in said)
        assert "could not move" not in told and "left as it is" not in told, said
