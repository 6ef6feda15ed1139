"""The application layer: one function per operation, pydantic request in, response out.

Every front end (the CLI, the MCP server, the client hooks, the viewer, the resident
service) maps its input to a request from `lorestack.app.models`, calls the operation here
and renders the response. All policy lives in the operations: criterion drafting, redaction,
limits, k and budget defaults, hook deadlines (from settings only).

`call(name, payload)` runs an operation from plain JSON (what the service receives); the
caller's environment and folder apply for the whole operation (`core.overlay`).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Literal

from lorestack.app import models
from lorestack.app.opening import Opener, open_memory


@dataclass(frozen=True)
class Operation:
    name: str
    request: type[models.Request]
    target: str  # "module.function" in this package: imported when the operation runs, so a
    # hook process does not import every operation's module (~50 ms of a cold hook)
    access: Literal["read", "write"]

    @property
    def run(self) -> Any:
        """(request, opener) -> response model."""
        module, _, function = self.target.partition(".")
        return getattr(importlib.import_module(f"lorestack.app.{module}"), function)


OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation("remember", models.RememberRequest, "writing.remember", "write"),
        Operation("log", models.LogRequest, "writing.log", "write"),
        Operation("change", models.ChangeRequest, "writing.change", "write"),
        Operation("list", models.ListRequest, "reading.list_", "read"),
        Operation("show", models.ShowRequest, "reading.show", "read"),
        Operation("search", models.SearchRequest, "reading.search", "read"),
        Operation("context", models.ContextRequest, "reading.context", "read"),
        Operation("check", models.CheckRequest, "reading.check", "read"),
        Operation("hook", models.HookRequest, "events.hook", "read"),
        Operation("export", models.ExportRequest, "upkeep.export", "read"),
        Operation("import", models.ImportRequest, "upkeep.import_", "write"),
        Operation("import_memory", models.ImportMemoryRequest, "upkeep.import_memory", "write"),
        Operation("consolidate", models.ConsolidateRequest, "upkeep.consolidate", "write"),
        Operation("review", models.ReviewRequest, "upkeep.review", "write"),
    )
}


def run(request: models.Request, opener: Opener = open_memory, **extras: Any) -> Any:
    """Run the operation a request belongs to, as its caller; its response model (the type
    the operation names: `RememberResponse` for a `RememberRequest`, …). `extras` are what
    only an in-process front end can hand over (a progress callback for `consolidate`)."""
    from lorestack.core.overlay import caller

    for op in OPERATIONS.values():
        if type(request) is op.request:
            with caller(request.caller.env, request.caller.cwd):
                return op.run(request, opener, **extras)
    raise TypeError(f"no operation takes {type(request).__name__}")


def parse(name: str, payload: dict[str, Any]) -> tuple[Operation, models.Request]:
    """The operation called `name` and its request validated from JSON (ValueError if bad)."""
    op = OPERATIONS.get(name)
    if op is None:
        raise ValueError(f"unknown operation {name!r}; known: {', '.join(OPERATIONS)}")
    return op, op.request.model_validate(payload)


def call(name: str, payload: dict[str, Any], opener: Opener = open_memory) -> dict[str, Any]:
    """Run an operation from JSON and answer JSON (the service's path)."""
    _op, request = parse(name, payload)
    return run(request, opener).model_dump(mode="json")


__all__ = ["OPERATIONS", "Operation", "call", "models", "parse", "run"]
