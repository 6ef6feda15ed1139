"""Run work under a deadline, fail open or closed: the one helper every hook uses.

The work runs in a daemon thread; the caller waits until it finishes or the deadline
passes, whichever is first, and gets a `GuardedRun` either way — never an exception. The
deadline can be moved while the work runs (a hook starts with the shipped default and
switches to the configured one once the settings are read).
"""

from __future__ import annotations

import contextvars
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


class Deadline:
    """Seconds allowed since `start`; `set` moves it (from the same start)."""

    def __init__(self, seconds: float, *, clock: Callable[[], float] = time.monotonic):
        self._clock = clock
        self.start = clock()
        self.seconds = seconds

    def set(self, seconds: float) -> None:
        self.seconds = seconds

    def remaining(self) -> float:
        return self.seconds - (self._clock() - self.start)

    def elapsed_ms(self) -> float:
        return (self._clock() - self.start) * 1000


# the deadline of the guarded work this context runs (set in its worker): what a wait deep
# inside it (another request opening the same index) may take without costing the answer
_CURRENT: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar(
    "lorestack_deadline", default=None)


def current_deadline() -> Deadline | None:
    """The deadline of the guarded work running in this context, or None (no deadline)."""
    return _CURRENT.get()


@dataclass
class GuardedRun(Generic[T]):
    value: T | None = None
    ok: bool = True
    timed_out: bool = False
    error: str | None = None
    trace: str | None = None
    elapsed_ms: float = 0.0


def run_guarded(work: Callable[[Deadline], T], deadline: Deadline, *, name: str = "lorestack",
                poll_s: float = 0.02) -> GuardedRun[T]:
    """Run `work(deadline)`; return its value, its error, or `timed_out` at the deadline.

    Exceptions of any kind (including SystemExit and pyo3 panics) become `error`; the
    thread is a daemon, so a caller that exits right after a timeout is not held up by it.
    """
    box: dict[str, object] = {}
    done = threading.Event()

    def target() -> None:
        try:
            box["value"] = work(deadline)
        except BaseException as exc:  # noqa: BLE001 - reported to the caller, never raised
            box["error"] = f"{type(exc).__name__}: {exc}"
            box["trace"] = traceback.format_exc(limit=8)
        finally:
            done.set()

    # the caller's context (a service request's environment and folder) goes with the work
    context = contextvars.copy_context()
    context.run(_CURRENT.set, deadline)
    worker = threading.Thread(target=context.run, args=(target,), name=name, daemon=True)
    worker.start()
    while not done.is_set():
        left = deadline.remaining()
        if left <= 0:
            return GuardedRun(ok=False, timed_out=True, error="deadline",
                              elapsed_ms=deadline.elapsed_ms())
        done.wait(min(left, poll_s))
    if "error" in box:
        return GuardedRun(ok=False, error=str(box["error"]), trace=str(box.get("trace")),
                          elapsed_ms=deadline.elapsed_ms())
    return GuardedRun(value=box.get("value"), elapsed_ms=deadline.elapsed_ms())  # type: ignore[arg-type]
