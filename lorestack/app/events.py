"""Each hook event as an operation: the client's payload in, the client's reply out.

The work (what a session start or a prompt receives, the deadline and the cheaper recall
kept for it) is `lorestack.app.hooks.run_hook`; this maps a `HookRequest` onto it with the
caller's memory. The deadline is the configured one (`hooks.deadline_ms`,
`hooks.prompt_deadline_ms`) for the caller's settings, never a front end's own number.
"""

from __future__ import annotations

from pathlib import Path

from lorestack.app.models import Caller, HookRequest, HookResponse
from lorestack.app.opening import Opener, open_memory
from lorestack.core.errors import ConfigError


def hook_opener(caller: Caller, opener: Opener):
    """`run_hook`'s opener for this caller: the payload's folder first, then the caller's;
    no model download; None when there is no memory at all (the hook answers empty)."""

    def open_for(payload, root):
        cwd = payload.cwd if payload.cwd and Path(payload.cwd).is_dir() else caller.cwd
        flags = {**caller.flags, "embedding.allow_download": False}
        who = caller.model_copy(update={"cwd": cwd, "root": root or caller.root, "flags": flags})
        try:
            mem = opener(who, False)
        except ConfigError:
            # a broken config.toml: not kept warm (the service opens it again once it is
            # fixed), opened here with what is broken left out, and the session told
            mem = open_memory(who, False, lenient_config=True)
        if mem.project is None and not mem.home.root.is_dir():
            return None
        return mem

    return open_for


def deadline_ms(request: HookRequest) -> int:
    """The configured deadline for this event and caller (read without opening the store)."""
    from lorestack.app.hooks import _configured_hooks
    from lorestack.core.clients import parse_payload

    payload = parse_payload(request.stdin, request.client or _default_client(), request.event)
    if payload.cwd is None and request.caller.cwd:
        payload.cwd = request.caller.cwd
    hooks = _configured_hooks(payload, request.caller.root)
    return hooks.prompt_deadline_ms if request.event == "prompt" else hooks.deadline_ms


def _default_client() -> str:
    from lorestack.core.clients import DEFAULT_CLIENT

    return DEFAULT_CLIENT


def hook(request: HookRequest, opener: Opener = open_memory, *, spent_ms: float = 0.0) -> HookResponse:
    """Run one hook event for the caller and answer in the client's format."""
    from lorestack.app.hooks import run_hook

    run = run_hook(request.event, request.client or _default_client(), request.stdin,
                   root=request.caller.root, deadline_ms=request.deadline_ms,
                   open_memory=hook_opener(request.caller, opener), spent_ms=spent_ms)
    return HookResponse(output=run.output, ok=run.ok, timed_out=run.timed_out, error=run.error,
                        elapsed_ms=run.elapsed_ms)
