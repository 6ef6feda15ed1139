"""The session-start hook's work: what the session is about, and what it is given.

A session start is answered twice over when it has to be. First the context that needs no
index and no model — the resident tier (identity, criteria, caveats), the catalog of facts and
decisions, today's journal and open todos, all read from the loader's cache and the files —
then the same context with the session's query searched (`hooks.session_retrieval`). The first
is kept: when the deadline passes during the second, it is the answer; when it passes before
even the first is made (a cold process at load ~12 spent the whole 1.5 s starting up), the hook
waits for the first, within the client's own limit (`hooks.client_timeout_s`), rather than
answer empty.
"""

from __future__ import annotations

import subprocess
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

from lorestack.core.clients import HookPayload

# how much of the client's limit a session start may use before it answers without its
# resident tier: the rest is left for the client to read the answer before it gives up
CLIENT_SHARE = 0.8


def _git(args: list[str], cwd: Path) -> str:
    try:
        out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                             timeout=0.5, stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def session_query(mem, cwd: Path, now: datetime | None = None) -> str:
    """What the session is probably about: branch name, recent commit subjects, open todos."""
    from lorestack.retrieval.loader import open_todos

    parts = []
    branch = _git(["rev-parse", "--abbrev-ref", "HEAD"], cwd)
    if branch and branch not in ("HEAD", "main", "master", "trunk"):
        parts.append(branch.replace("/", " ").replace("-", " ").replace("_", " "))
    subjects = _git(["log", "-5", "--format=%s"], cwd)
    if subjects:
        parts.extend(subjects.splitlines())
    parts.extend(e.text.splitlines()[0] for e in open_todos(mem, now)[:5] if e.text.strip())
    return "\n".join(p for p in parts if p.strip())


def session_context(mem, payload: HookPayload, retrieval: str) -> tuple[str | None, list[str], list[str]]:
    """(context, ids shown whole, ids to reinforce) of a session start with one retrieval mode
    (`none`: nothing searched, no query asked of git); records nothing (`answered` does, once
    this is the answer sent)."""
    from lorestack.app.hooks import _log_degraded
    from lorestack.retrieval.loader import assemble_context

    query = None
    if retrieval != "none":
        query = session_query(mem, Path(payload.cwd) if payload.cwd else Path.cwd()) or None
    result = assemble_context(mem, query=query, retrieval=retrieval, k=mem.settings.retrieval.k,
                              sync=False, record=False)
    _log_degraded(mem, f"session-start ({payload.client})", result)
    return result.text or None, list(result.full_ids), list(result.reinforce)


def answered(mem, payload: HookPayload, chosen: tuple[str | None, list[str], list[str]]) -> str | None:
    """The reply's text for the chosen context, and what is recorded once it is out: a new (or
    compacted, cleared, resumed) context starts from what it was just given (a reply lost to
    the deadline leaves the session's record as it was), and the usage of what it showed."""
    from lorestack.app.hooks import record_usage
    from lorestack.app.secret_notice import hand_on, session_notice, with_notice
    from lorestack.app.sessions import reset_session

    text, shown, reinforce = chosen
    hand_on([partial(reset_session, mem, payload.session_id, shown),
             partial(record_usage, mem, reinforce)])
    return with_notice(text, session_notice(mem, payload.session_id))


def session_start(mem, payload: HookPayload) -> str | None:
    """The whole session start (no deadline of its own): the searched context, answered."""
    from lorestack.app.sessions import _prune_sessions

    text = answered(mem, payload, session_context(mem, payload, mem.settings.hooks.session_retrieval))
    _prune_sessions(mem)
    return text


def wait_for_kept(box: dict[str, Any], deadline, spent_ms: float, payload: HookPayload,
                  root: str | None) -> None:
    """A session start whose deadline passed before its kept answer was made waits for that
    answer, up to its share of the client's own limit counted from the hook's start: the resident
    tier costs a few ms of CPU, but a cold process on a loaded machine spent the whole deadline
    starting up (load ~12: 1.5 s), and an empty answer leaves the session without its criteria."""
    from lorestack.app.hook_settings import _configured_hooks

    mem = box.get("mem")
    hooks = mem.settings.hooks if mem is not None else _configured_hooks(payload, root)
    used_s = (spent_ms + deadline.elapsed_ms()) / 1000
    box["ready"].wait(max(0.0, hooks.client_timeout_s * CLIENT_SHARE - used_s))
