"""Tell a session, once, what the user must fix and no one else would say: a secret typed by
hand into a memory file (file and line only), a broken config.toml.

Indexes and context hold such a secret redacted, and the sync that read the file warned in
its report; but that sync is usually the resident service's, behind a watcher, where nobody
reads it. So the hooks pass the places on (retrieval/secret_spots.py keeps them): each
session is told once per place, outside the fenced memory, to ask the user to remove it.
A hook opens memory leniently (`core.settings_lenient`): what it left out of a broken
config.toml is told the same way, once per session per problem.

A notice is marked told only once the reply that carries it is out (`told_after_reply`): the
one who writes the reply (the in-process hook after flushing stdout, the service after its
`sendall`, `check --hook pre-tool` after its flush) delivers the marks; a reply lost to a
deadline or a kill before that leaves the notice to the next hook. The window left is after
that write: a thin client killed between the service's `sendall` and its own stdout write
loses the notice for good (a few microseconds, the thin client's read and write).

Hooks of one session run at once (a turn's parallel tool calls each run the pre-tool hook):
each claims what it tells in one locked step of the session file (`sessions.update_session`),
so one tells it and the others see the claim. A reply not written gives its claims back
(`give_back`); a hook killed before either leaves a claim that lapses after CLAIM_S.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial

from lorestack.app.sessions import update_session

Mark = Callable[[], None]
# the marks of notices put into the reply being written (None: no writer holds them, mark now)
_HELD: ContextVar[list[Mark] | None] = ContextVar("lorestack_told_after_reply", default=None)


@contextmanager
def told_after_reply() -> Iterator[list[Mark]]:
    """Hold the "told" marks of every notice made inside; the writer of the reply hands them
    on (`hand_on`) once its reply is out, or drops them when the reply was not sent."""
    marks: list[Mark] = []
    token = _HELD.set(marks)
    try:
        yield marks
    finally:
        _HELD.reset(token)


def hand_on(marks: list[Mark]) -> None:
    """The reply carrying these notices is written: to an outer writer when there is one (the
    service sends what a forwarded command wrote), else the notices are now told."""
    outer = _HELD.get()
    if outer is not None:
        outer.extend(marks)
        return
    for mark in marks:
        try:
            mark()
        except Exception as exc:  # noqa: BLE001 - told again next time, no more
            from lorestack.app.hooks import log_failure

            log_failure(f"notice not marked told: {type(exc).__name__}: {exc}")
    marks.clear()


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


def model_notice(mem, session_id: str | None, unjudged: int) -> str | None:
    """Once a session: the guardrail could not judge `unjudged` criteria by meaning because no
    sentence model is loaded, so a violation their words do not name passes unseen. Never
    raises."""
    if unjudged <= 0:
        return None
    try:
        if not _untold(mem, session_id, "model_told", ["no sentence model"]):
            return None
    except Exception as exc:  # noqa: BLE001 - a notice must not cost the hook its verdict
        from lorestack.app.hooks import log_failure

        log_failure(f"model notice skipped: {type(exc).__name__}: {exc}", mem=mem)
        return None
    return (f"lorestack notice: the guardrail could not judge {unjudged} criteri"
            f"{'on' if unjudged == 1 else 'a'} by meaning (no sentence model is loaded), so a "
            "violation their words do not name passes unseen. Tell the user to set "
            "LORESTACK_EMBEDDING__MODEL_DIR (or [embedding] model_dir) to an all-MiniLM-L6-v2 "
            "onnx folder, or to run `lorestack reindex` once on a networked machine.")


def config_lines(problems: list[str]) -> list[str]:
    """One line for the assistant per problem left out of the settings (redacted)."""
    from lorestack.memory_layers.secret_guard import redact_for_reading

    return [f"lorestack notice: {_what(p)} is broken; the rest of lorestack's settings apply "
            f"meanwhile. Tell the user to fix it: {redact_for_reading(' '.join(p.split()))[0]}"
            for p in problems]


def _what(problem: str) -> str:
    return "an environment setting" if problem.startswith("environment ") else "a settings file"


def _untold(mem, session_id: str | None, slot: str, places: list[str]) -> list[str]:
    """The places neither told this session (by digest, under `slot`) nor claimed by a hook of
    it whose reply is still on its way. They are claimed now, in one locked step of the session
    file, so two hooks started at once (parallel tool calls) tell each once; marked told when
    the reply is out (`told_after_reply`), given back when it is not (`give_back`). A claim of a
    hook killed before either lapses after CLAIM_S, and a later hook tells it."""
    if not places:
        return []
    if not session_id:  # nowhere to keep what was told: told every time
        return list(places)
    claim_slot = slot + "_claimed"
    new: list[str] = []

    def claim(state: dict) -> dict | None:
        told = set(state.get(slot, []))
        now = time.time()
        claims = {k: t for k, t in (state.get(claim_slot) or {}).items()
                  if isinstance(t, (int, float)) and 0 <= now - t < CLAIM_S}
        new.extend(p for p in places if _key(p) not in told and _key(p) not in claims)
        if not new:
            return None
        return {**state, claim_slot: {**claims, **{_key(p): now for p in new}}}

    update_session(mem, session_id, claim)
    if new:
        keys = [_key(p) for p in new]
        hand_on([Told(partial(_settle, mem, session_id, slot, keys, True),
                      partial(_settle, mem, session_id, slot, keys, False))])
    return new


CLAIM_S = 60.0  # a claim whose hook never answered (killed at the client's deadline) lapses


class Told:
    """Marks a notice told when called (its reply is out); `release` gives its claim back (its
    reply was not sent), so the next hook tells it."""

    def __init__(self, mark: Mark, release: Mark):
        self.mark, self.release = mark, release

    def __call__(self) -> None:
        self.mark()


def give_back(marks: list[Mark]) -> None:
    """The reply carrying these notices was not sent: their claims go back. Never raises."""
    for mark in marks:
        release = getattr(mark, "release", None)
        try:
            if release is not None:
                release()
        except Exception:  # noqa: BLE001, S110 - the claim lapses after CLAIM_S instead
            pass
    marks.clear()


def _settle(mem, session_id: str | None, slot: str, keys: list[str], told: bool) -> None:
    """Told (the reply is out) or given back: either way the claim is done."""
    claim_slot = slot + "_claimed"

    def settle(state: dict) -> dict:
        claims = {k: t for k, t in (state.get(claim_slot) or {}).items() if k not in keys}
        done = sorted(set(state.get(slot, [])) | set(keys)) if told else state.get(slot, [])
        return {**state, slot: done, claim_slot: claims}

    update_session(mem, session_id, settle)


SHOWN_PLACES = 10  # places named in one notice; the rest are counted (all are marked told)


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
    threshold = mem.settings.guard.entropy_threshold
    lines = [f"- {s.shown_where(base, threshold)} ({', '.join(s.kinds)})"
             for s in new[:SHOWN_PLACES]]
    if len(new) > SHOWN_PLACES:  # a pasted dump must not fill the prompt: doctor has them all
        lines.append(f"- and {len(new) - SHOWN_PLACES} more: `lorestack doctor` lists every one")
    places = "\n".join(lines)
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
