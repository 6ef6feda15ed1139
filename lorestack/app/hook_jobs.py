"""The background jobs a hook starts, opening memory the way a hook does.

    python -m lorestack.app.hook_jobs warm ROOT                      (a cold index)
    python -m lorestack.app.hook_jobs extract ROOT TRANSCRIPT CLIENT (a session's end)

A broken config.toml is read leniently (what is broken is left out), as the hook that started
the job read it. Both jobs used to run a command (`lorestack search`, `lorestack extract`),
which stops on a broken config file: the index stayed cold for every prompt, and what the
user asked to remember in the session was never written, until the file was fixed.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory


def open_leniently(root: str, *, require_project: bool = False) -> Memory:
    """The memory at ROOT as a hook opens it: lenient config, no model download."""
    from lorestack.memory_layers.memory import Memory

    no_download: dict[str, Any] = {"embedding.allow_download": False}  # as a hook: no network
    return Memory.open(root, require_project=require_project, lenient_config=True, **no_download)


def warm(root: str) -> None:
    """Bring the index up to date (a BM25 search syncs it)."""
    from lorestack.retrieval.index import search

    search(open_leniently(root), "index warm-up", k=1, mode="bm25", record_access=False)


def extract(root: str, transcript: str, client: str) -> str:
    """Write what the session's user messages state; the line `lorestack extract` prints."""
    from lorestack.consolidation.extract import extract_session

    result = extract_session(open_leniently(root, require_project=True), transcript, client)
    return (f"{result.messages} user message(s): {len(result.events)} event(s), "
            f"{len(result.items)} item(s) written, {result.duplicates} already known"
            + (f", {result.redacted} redacted" if result.redacted else ""))


def tell_failure(root: str, transcript: str, exc: BaseException) -> None:
    """One line in the memory's hooks.log, where `lorestack doctor` looks: a failed extraction
    left only a traceback in extract.log (or the service's log), and the session's words were
    never written without a word to the user."""
    from pathlib import Path

    from lorestack.app.hooks import log_failure
    from lorestack.core.paths import MemoryPaths

    log_failure(f"session-end: extraction of {transcript} failed ({type(exc).__name__}: "
                f"{exc}); `lorestack extract --transcript {transcript}` runs it again",
                path=MemoryPaths(Path(root)).index_dir / "hooks.log")


def tell_traceback(exc: BaseException | None = None) -> None:
    """The traceback on stderr, which is extract.log: redacted as hooks.log is (a transcript's
    name or an error quoting a line can hold a key, and the log is a derived file). An error
    lorestack names for the user (a transcript gone, a file not UTF-8) is one line, no trace."""
    import traceback

    from lorestack.core.errors import LorestackError

    try:
        from lorestack.memory_layers.secret_guard import redact_for_reading

        told = (f"{type(exc).__name__}: {exc}\n" if isinstance(exc, LorestackError)
                else traceback.format_exc())
        text = redact_for_reading(told)[0]
    except Exception as exc:  # noqa: BLE001 - the redaction failed: its kind only, no text
        text = f"traceback not shown ({type(exc).__name__} redacting it)\n"
    print(text, end="", file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    if len(argv) == 2 and argv[0] == "warm":
        warm(argv[1])
        return 0
    if len(argv) == 4 and argv[0] == "extract":
        try:
            print(extract(argv[1], argv[2], argv[3]), flush=True)
        except Exception as exc:
            tell_failure(argv[1], argv[2], exc)
            tell_traceback(exc)
            return 1
        return 0
    print("usage: python -m lorestack.app.hook_jobs warm ROOT | extract ROOT TRANSCRIPT CLIENT",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
