"""Run state under `.memory/.index/consolidation/`: lock, checkpoint, current plan.

- `state.json`: which events have been consolidated (event id → claim key, "" for none),
  failure counts per cluster, the clusters given up (`given_up.py`), the last run's summary.
  It is a cache like the rest of `.index/`: lost, it is rebuilt from the event ids every item
  cites (and given-up events are simply asked about again).
- `plan.json`: the steps of the window being applied. It is written (atomically) before
  the first step, so a crash at any point resumes the same steps; each step is idempotent.
- `run.lock`: one run at a time.

`LORESTACK_CONSOLIDATE_CRASH_AT=N` makes the process SIGKILL itself at the N-th crash point
(after the plan is written, after each step, after the state is saved): the crash tests use
it to stop a real run at exact places.
"""

from __future__ import annotations

import json
import os
import signal
from contextlib import contextmanager
from typing import Any

from filelock import FileLock, Timeout
from pydantic import BaseModel, Field

from lorestack.consolidation.actions import Action
from lorestack.core.errors import LorestackError
from lorestack.core.paths import MemoryPaths
from lorestack.memory_layers.fsutil import write_atomic

# bumped only for a change that files written before cannot be read by: a run refuses any
# other version. A field added with a default (`dropped`) is not one.
STATE_VERSION = 1
CRASH_ENV = "LORESTACK_CONSOLIDATE_CRASH_AT"


class RunLocked(LorestackError):
    pass


class CheckpointError(LorestackError):
    pass


class State(BaseModel):
    version: int = STATE_VERSION
    processed: dict[str, str] = Field(default_factory=dict)
    failures: dict[str, int] = Field(default_factory=dict)
    # clusters given up after max_failures refused replies: key -> events, reason, at
    dropped: dict[str, dict[str, Any]] = Field(default_factory=dict)
    last_run: dict[str, Any] | None = None


class Plan(BaseModel):
    version: int = STATE_VERSION
    run: str
    stage: str  # "claims" (one day window) or "forget"
    window: str = ""
    actions: list[Action] = Field(default_factory=list)
    processed: dict[str, str] = Field(default_factory=dict)
    failures: dict[str, int] = Field(default_factory=dict)
    skipped: list[dict[str, Any]] = Field(default_factory=list)
    dropped: dict[str, dict[str, Any]] = Field(default_factory=dict)  # given up in this window
    stopped: str = ""  # why the run stops after this window (budget), if it does


class CrashPoints:
    """Counts crash points; kills the process at the configured one (tests only)."""

    def __init__(self, at: int | None = None):
        env = os.environ.get(CRASH_ENV, "")
        self.at = at if at is not None else (int(env) if env.strip().isdigit() else None)
        self.count = 0
        self.names: list[str] = []

    def __call__(self, name: str) -> None:
        self.count += 1
        self.names.append(name)
        if self.at is not None and self.count == self.at:
            os.kill(os.getpid(), signal.SIGKILL)


class Checkpoint:
    def __init__(self, paths: MemoryPaths):
        self.dir = paths.index_dir / "consolidation"
        self.state_path = self.dir / "state.json"
        self.plan_path = self.dir / "plan.json"

    def _read(self, path, model):
        try:
            data = json.loads(path.read_text("utf-8"))
        except FileNotFoundError:
            return None
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CheckpointError(
                f"{path} is unreadable ({exc}); delete it and the run restarts from the items' "
                "cited events") from exc
        if data.get("version") != STATE_VERSION:
            raise CheckpointError(
                f"{path} has version {data.get('version')!r}, this lorestack writes "
                f"{STATE_VERSION}; delete it to start over")
        return model.model_validate(data)

    def load_state(self) -> State:
        return self._read(self.state_path, State) or State()

    def save_state(self, state: State) -> None:
        write_atomic(self.state_path, state.model_dump_json(indent=1).encode("utf-8"))

    def load_plan(self) -> Plan | None:
        return self._read(self.plan_path, Plan)

    def save_plan(self, plan: Plan) -> None:
        write_atomic(self.plan_path, plan.model_dump_json(indent=1).encode("utf-8"))

    def clear_plan(self) -> None:
        try:
            os.unlink(self.plan_path)
        except FileNotFoundError:
            pass

    @contextmanager
    def lock(self):
        self.dir.mkdir(parents=True, exist_ok=True)
        lock = FileLock(str(self.dir / "run.lock"))
        try:
            lock.acquire(timeout=0.5)
        except Timeout as exc:
            raise RunLocked(
                "another `lorestack consolidate` is running on this memory; wait for it to "
                "finish (one run at a time)") from exc
        try:
            yield
        finally:
            lock.release()
