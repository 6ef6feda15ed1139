"""Tell a session about a secret typed by hand into a memory file (file and line only).

Indexes and context hold such a secret redacted, and the sync that read the file warned in
its report; but that sync is usually the resident service's, behind a watcher, where nobody
reads it. So the hooks pass the places on (retrieval/secret_spots.py keeps them): each
session is told once per place, outside the fenced memory, to ask the user to remove it.
"""

from __future__ import annotations

from lorestack.app.sessions import load_session, save_session


def secret_notice(mem, session_id: str | None) -> str | None:
    """A few lines for the assistant naming the files and lines not yet told this session."""
    from lorestack.retrieval.secret_spots import load

    spots = load(mem)
    if not spots:
        return None
    state = load_session(mem, session_id)
    told = set(state.get("secrets_told", []))
    new = [s for s in spots if s.where() not in told]
    if not new:
        return None
    save_session(mem, session_id, {**state, "secrets_told": sorted(told | {s.where() for s in new})})
    base = mem.project.repo_dir if mem.project is not None else None
    places = "\n".join(f"- {s.where(base)} ({', '.join(s.kinds)})" for s in new)
    return ("lorestack notice: a memory file holds what looks like a secret (shown redacted; "
            "the file keeps it and may be committed to git). Tell the user to remove it:\n"
            f"{places}")


def with_notice(text: str | None, notice: str | None) -> str | None:
    if not notice:
        return text
    return f"{text}\n\n{notice}" if text else notice
