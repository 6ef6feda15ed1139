"""Session-end extraction jobs: queued by the hook, run one at a time on a background thread.

One extraction per session: a job for a session already waiting absorbs the new event (Stop,
SessionEnd, PreCompact and PreCompress may all fire for one session), and a transcript whose
size and mtime are those of its last successful extraction is not read again. A job that
fails (a full disk, say) keeps its place: it is retried with a growing pause, and jobs still
waiting when the service stops are saved in the runtime directory and picked up by the next
one, so no session's transcript pointer is lost.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

RETRY_PAUSES_S = (5.0, 30.0, 120.0, 600.0)


@dataclass
class ExtractionJob:
    key: str  # session id, else the transcript path
    transcript: str
    client: str
    root: str  # the project's .memory folder
    session: str | None = None
    attempts: int = 0
    not_before: float = 0.0
    events: list[str] = field(default_factory=list)  # the end-like events folded into it


class ExtractionQueue:
    def __init__(
        self,
        run: Callable[[ExtractionJob], None],
        *,
        state_file: Path | None = None,
        log: Callable[[str], None] = lambda _m: None,
        pauses: tuple[float, ...] = RETRY_PAUSES_S,
    ):
        self._run = run
        self._log = log
        self._pauses = pauses
        self._state_file = state_file
        self._pending: dict[str, ExtractionJob] = {}
        self._running: str | None = None
        self._done: dict[str, tuple[int, int]] = {}
        self._cond = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name="lorestack-extract", daemon=True)

    def start(self) -> None:
        self._load()  # only the service that holds the lock takes over saved jobs
        self._thread.start()

    @property
    def busy(self) -> bool:
        with self._cond:
            return bool(self._pending) or self._running is not None

    def snapshot(self) -> dict:
        with self._cond:
            return {
                "pending": [asdict(j) for j in self._pending.values()],
                "running": self._running,
                "done": len(self._done),
            }

    def submit(self, job: ExtractionJob, event: str = "") -> str:
        """'queued' for a new job, 'merged' when the session already had one waiting."""
        with self._cond:
            waiting = self._pending.get(job.key)
            if waiting is not None:
                waiting.transcript = job.transcript
                waiting.events.append(event)
                return "merged"
            job.events.append(event)
            self._pending[job.key] = job
            self._cond.notify_all()
            return "queued"

    def _unchanged(self, job: ExtractionJob) -> tuple[bool, tuple[int, int] | None]:
        try:
            info = os.stat(job.transcript)
        except OSError:
            return False, None
        mark = (info.st_size, info.st_mtime_ns)
        return self._done.get(job.key) == mark, mark

    def _next(self) -> ExtractionJob | None:
        with self._cond:
            while not self._stopping:
                now = time.time()
                ready = [j for j in self._pending.values() if j.not_before <= now]
                if ready:
                    job = min(ready, key=lambda j: j.not_before)
                    del self._pending[job.key]
                    self._running = job.key
                    return job
                waits = [j.not_before - now for j in self._pending.values()]
                self._cond.wait(min(waits) if waits else None)
            return None

    def _loop(self) -> None:
        while True:
            job = self._next()
            if job is None:
                return
            same, mark = self._unchanged(job)
            try:
                if not same:
                    self._run(job)
                    if mark is not None:
                        self._done[job.key] = mark
            except Exception as exc:  # noqa: BLE001 - keep the job, try again later
                job.attempts += 1
                pause = self._pauses[min(job.attempts - 1, len(self._pauses) - 1)]
                job.not_before = time.time() + pause
                self._log(
                    f"extraction of {job.transcript} failed ({type(exc).__name__}: "
                    f"{exc}); attempt {job.attempts}, retrying in {pause:.0f}s"
                )
                with self._cond:
                    self._pending.setdefault(job.key, job)
            finally:
                with self._cond:
                    self._running = None
                    self._cond.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """True once nothing is waiting or running (tests, `serve --stop`)."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._running is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def stop(self) -> None:
        """Stop taking jobs; save what is still waiting for the next service."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
            pending = [asdict(j) for j in self._pending.values()]
        if self._state_file is None:
            return
        try:
            if pending:
                self._state_file.write_text(json.dumps(pending), "utf-8")
                os.chmod(self._state_file, 0o600)
            else:
                self._state_file.unlink(missing_ok=True)
        except OSError as exc:
            self._log(f"could not save {len(pending)} waiting extraction jobs: {exc}")

    def _load(self) -> None:
        if self._state_file is None:
            return
        try:
            saved = json.loads(self._state_file.read_text("utf-8"))
            self._state_file.unlink(missing_ok=True)
        except (OSError, ValueError):
            return
        for data in saved if isinstance(saved, list) else []:
            try:
                job = ExtractionJob(**data)
            except TypeError:
                continue
            job.not_before = 0.0
            self._pending[job.key] = job
