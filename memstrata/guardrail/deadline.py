"""Run a guardrail check under a deadline (hooks): the work goes to a daemon thread, and
when the deadline passes the caller answers as on an error — fail open, or closed if asked —
while the thread is left to finish or die with the process.

A small local helper: no shared guarded-run helper existed in main when this was written
(integrations/hooks.py has its own, one layer up, which the guardrail may not import).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass
class Guarded(Generic[T]):
    value: T | None = None
    error: BaseException | None = None
    timed_out: bool = False

    @property
    def ok(self) -> bool:
        return self.error is None and not self.timed_out


def run_with_deadline(work: Callable[[], T], deadline_s: float) -> Guarded[T]:
    """`work()` under a deadline; never raises (its exception comes back in `error`)."""
    out: Guarded[T] = Guarded()

    def target() -> None:
        try:
            out.value = work()
        except BaseException as exc:  # noqa: BLE001 - handed back to the caller
            out.error = exc

    worker = threading.Thread(target=target, name="memstrata-check", daemon=True)
    worker.start()
    worker.join(max(0.0, deadline_s))
    if worker.is_alive():
        return Guarded(timed_out=True)
    return out
