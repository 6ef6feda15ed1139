"""Tell a session, once, what the user must fix and no one else would say: a secret typed by
hand into a memory file (file and line only), a broken config.toml.

Indexes and context hold such a secret redacted, and the sync that read the file warned in
its report; but that sync is usually the resident service's, behind a watcher, where nobody
reads it. So the hooks pass the places on (retrieval/secret_spots.py keeps them): each
session is told once per place, outside the fenced memory, to ask the user to remove it.
A hook opens memory leniently (`core.settings_lenient`): what it left out of a broken
config.toml is told the same way, once per session per problem.
"""

from __future__ import annotations

from lorestack.app.sessions import load_session, save_session


def session_notice(mem, session_id: str | None) -> str | None:
    """Every notice not yet told this session (a broken config file, then secrets)."""
    return with_notice(config_notice(mem, session_id), secret_notice(mem, session_id))


def config_notice(mem, session_id: str | None) -> str | None:
    """One line per problem a lenient opening left out of a config file. Never raises."""
    try:
        problems = [" ".join(p.split()) for p in getattr(mem, "config_problems", [])]
        new = _untold(mem, session_id, "config_told", problems)
        return "\n".join(config_lines(new)) or None
    except Exception as exc:  # noqa: BLE001 - a notice must not cost the session its memory
        from lorestack.app.hooks import log_failure

        log_failure(f"config notice skipped: {type(exc).__name__}: {exc}", mem=mem)
        return None


def config_lines(problems: list[str]) -> list[str]:
    """One line for the assistant per problem left out of the settings (redacted)."""
    from lorestack.memory_layers.secret_guard import redact_for_reading

    return [f"lorestack notice: {_what(p)} is broken; the rest of lorestack's settings apply "
            f"meanwhile. Tell the user to fix it: {redact_for_reading(' '.join(p.split()))[0]}"
            for p in problems]


def _what(problem: str) -> str:
    return "an environment setting" if problem.startswith("environment ") else "a settings file"


def _untold(mem, session_id: str | None, slot: str, places: list[str]) -> list[str]:
    """The places not yet told this session (by digest, under `slot`), now marked told."""
    if not places:
        return []
    state = load_session(mem, session_id)
    told = set(state.get(slot, []))
    new = [p for p in places if _key(p) not in told]
    if new:
        save_session(mem, session_id, {**state, slot: sorted(told | {_key(p) for p in new})})
    return new


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
    from lorestack.retrieval.secret_spots import load

    spots = load(mem)
    if not spots:
        return None
    untold = set(_untold(mem, session_id, "secrets_told", [s.where() for s in spots]))
    new = [s for s in spots if s.where() in untold]
    if not new:
        return None
    base = mem.project.repo_dir if mem.project is not None else None
    # a file named after the key it holds would carry it here: the place is redacted too
    places = "\n".join(f"- {s.shown_where(base)} ({', '.join(s.kinds)})"
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
