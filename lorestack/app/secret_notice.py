"""Tell a session about a secret typed by hand into a memory file (file and line only).

Indexes and context hold such a secret redacted, and the sync that read the file warned in
its report; but that sync is usually the resident service's, behind a watcher, where nobody
reads it. So the hooks pass the places on (retrieval/secret_spots.py keeps them): each
session is told once per place, outside the fenced memory, to ask the user to remove it.
"""

from __future__ import annotations

from lorestack.app.sessions import load_session, save_session


def secret_notice(mem, session_id: str | None) -> str | None:
    """A few lines for the assistant naming the files and lines not yet told this session.
    Never raises: a notice must not cost the session its memory (a failure is logged)."""
    try:
        return _notice(mem, session_id)
    except Exception as exc:  # e.g. a secrets.json of another shape
        from lorestack.app.hooks import log_failure

        log_failure(f"secret notice skipped: {type(exc).__name__}: {exc}", mem=mem)
        return None


def _notice(mem, session_id: str | None) -> str | None:
    from lorestack.memory_layers.secret_guard import redact_for_reading
    from lorestack.retrieval.secret_spots import load

    spots = load(mem)
    if not spots:
        return None
    state = load_session(mem, session_id)
    told = set(state.get("secrets_told", []))
    new = [s for s in spots if _key(s.where()) not in told]
    if not new:
        return None
    save_session(mem, session_id,
                 {**state, "secrets_told": sorted(told | {_key(s.where()) for s in new})})
    base = mem.project.repo_dir if mem.project is not None else None
    # a file named after the key it holds would carry it here: the place is redacted too
    places = "\n".join(f"- {redact_for_reading(s.where(base))[0]} ({', '.join(s.kinds)})"
                       for s in new)
    return ("lorestack notice: a memory file holds what looks like a secret (shown redacted; "
            "the file keeps it and may be committed to git). Tell the user to remove it:\n"
            f"{places}")


def _key(place: str) -> str:
    """What the session file keeps of a place told: a digest (a file may be named after a key)."""
    import hashlib

    return hashlib.sha256(place.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def with_notice(text: str | None, notice: str | None) -> str | None:
    if not notice:
        return text
    return f"{text}\n\n{notice}" if text else notice
