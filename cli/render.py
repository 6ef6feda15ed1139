"""One place that prints results: JSON for scripts, short text for people. Logs go to stderr."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timezone
from typing import Any

import click


def to_jsonable(value: Any) -> Any:
    """What `--json` prints: the application layer's JSON form of a library result."""
    from lorestack.app.opening import jsonable

    return jsonable(value)


def read_piped_stdin(refuse_undecodable: str = "", limit: int | None = None,
                     replace_undecodable: bool = False, prefix: bool = False) -> str | None:
    """A hook's piped payload, or None for a terminal or no stdin at all (closed under CI or
    cron). Bytes that are not UTF-8 read as None too, unless `refuse_undecodable` says what
    did not happen: then they are refused with the one line `check -` gives (InputRejected).
    A payload over `limit` bytes stands as a small one saying so, or with `prefix` as its
    first `limit` bytes (core/hook_stdin.py).
    `replace_undecodable` (a hook): such bytes read as U+FFFD, as the thin path reads them."""
    import sys

    stream = sys.stdin
    if stream is None or stream.closed:
        return None
    try:
        if stream.isatty():
            return None
        buffer = getattr(stream, "buffer", None)
        try:
            fd = buffer.fileno()  # type: ignore[union-attr]
        except (AttributeError, OSError, ValueError):  # a stream in memory (tests, the service)
            if buffer is None or not refuse_undecodable:
                return stream.read()
            raw = buffer.read()
        else:
            from lorestack.core.hook_stdin import read_payload

            # a client that keeps stdin open after its payload must not hold the hook
            raw = read_payload(fd, limit=limit, prefix=prefix)
        if refuse_undecodable:
            from lorestack.memory_layers.input_check import decode_input_bytes

            return decode_input_bytes(raw, where="stdin", outcome=refuse_undecodable)
        return raw.decode("utf-8-sig", errors="replace" if replace_undecodable else "strict")
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def read_stdin_input(where: str = "stdin", outcome: str = "nothing was written") -> str:
    """Piped text for a write or a check: strict UTF-8 without NUL bytes, refused with one line
    otherwise (`outcome` says what did not happen, as a file's refusal does)."""
    import sys

    from lorestack.memory_layers.input_check import check_input_text, decode_input_bytes

    stream = sys.stdin
    if stream is None or stream.closed:
        return ""
    try:
        if stream.isatty():
            return ""
        buffer = getattr(stream, "buffer", None)
        if buffer is None:
            text = stream.read()
        else:
            text = decode_input_bytes(buffer.read(), where=where, outcome=outcome)
    except (OSError, ValueError):
        return ""
    check_input_text(text, where=where, outcome=outcome)
    return text


def words_argument(name: str):
    """A free-text argument that takes the rest of the line: `search postgres lock` needs no
    quotes. The words are joined by one space; none at all is None (the argument was omitted),
    and a single '-' (stdin) or '' (an empty query) is kept as given."""

    def join(_ctx, _param, words: tuple[str, ...]) -> str | None:
        return " ".join(words) if words else None

    return click.argument(name, nargs=-1, callback=join)


def emit_json(value: Any, *, plain: bool = False) -> None:
    """`value` as JSON on stdout; `plain`: it holds only JSON values already (not walked)."""
    click.echo(json.dumps(value if plain else to_jsonable(value), ensure_ascii=False, indent=2))


def warn(message: str) -> None:
    click.echo(f"warning: {message}", err=True)


def ago(count: float, unit: str) -> str:
    """`1 minute ago`, `2 minutes ago`: the unit agrees with the number shown."""
    n = int(count)
    return f"{n} {unit}{'' if n == 1 else 's'} ago"


def humanize_age(when: datetime, now: datetime | None = None) -> str:
    now = now or datetime.now(timezone.utc)
    seconds = max(0, (now - when).total_seconds())
    if seconds < 90:
        return "just now"
    minutes = seconds / 60
    if minutes < 90:
        return ago(minutes, "minute")
    hours = minutes / 60
    if hours < 36:
        return ago(hours, "hour")
    days = hours / 24
    if days < 60:
        return ago(days, "day")
    months = days / 30.4
    if months < 24:
        return ago(months, "month")
    return ago(days / 365, "year")


# ---- colour and progress: for a person at a terminal only ------------------------------------
TYPE_COLOURS = {"fact": "cyan", "decision": "blue", "caveat": "yellow", "preference": "magenta",
                "criterion": "green", "event": "white"}
VERDICT_COLOURS = {"block": "red", "warn": "yellow", "pass": "green", "ok": "green",
                   "superseded": "yellow", "archived": "bright_black", "pending": "yellow"}


# the caller's terminal when the service runs a forwarded command for it (`client_terminal`):
# the service's own streams are buffers and its environment is not the caller's
_client_terminal: ContextVar[dict | None] = ContextVar("lorestack_client_terminal", default=None)


@contextmanager
def client_terminal(terminal: dict | None) -> Iterator[None]:
    """Inside the block, colour follows the caller's terminal (`{"stdout": bool, "stderr":
    bool, "no_color": bool}`, what the thin client sends) instead of this process's."""
    token = _client_terminal.set(terminal)
    try:
        yield
    finally:
        _client_terminal.reset(token)


def colour_enabled(err: bool = False) -> bool:
    """Colour only on a terminal, never in pipes or files, and never with NO_COLOR set."""
    import os
    import sys

    terminal = _client_terminal.get()
    if terminal is not None:
        return not terminal.get("no_color") and bool(terminal.get("stderr" if err else "stdout"))
    if os.environ.get("NO_COLOR"):
        return False
    stream = sys.stderr if err else sys.stdout
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):
        return False


def paint(text: str, colour: str | None, *, bold: bool = False, err: bool = False) -> str:
    if not colour or not colour_enabled(err):
        return text
    return click.style(text, fg=colour, bold=bold)


def paint_type(item_type: str) -> str:
    return paint(item_type, TYPE_COLOURS.get(item_type))


def paint_verdict(verdict: str, *, err: bool = False) -> str:
    return paint(verdict, VERDICT_COLOURS.get(verdict), bold=verdict == "block", err=err)


class _Silent:
    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, n: int) -> None:
        return None

    pos = 0


def progress(total: int, label: str):
    """A progress bar on stderr when it is a terminal; nothing at all when piped or redirected
    (not even the label), so logs and scripts stay clean."""
    import sys

    try:
        terminal = sys.stderr is not None and sys.stderr.isatty()
    except (ValueError, OSError):
        terminal = False
    if not terminal or total <= 0:
        return _Silent()
    return click.progressbar(length=total, label=label, file=sys.stderr)


def table(rows: list[list[str]], headers: list[str]) -> str:
    if not rows:
        return ""
    widths = [len(h) for h in headers]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = min(max(widths[i], len(cell)), 60)
    def fmt(row):
        return "  ".join(
            (c if len(c) <= widths[i] else c[: widths[i] - 1] + "…").ljust(widths[i])
            for i, c in enumerate(row)
        ).rstrip()
    return "\n".join([fmt(headers), *(fmt(r) for r in rows)])


class ProgressCallback:
    """A `(done, total[, phase])` callback for library code: draws a bar on a terminal, nothing
    when stderr is piped. Each phase (an index sync's reading, writing, embedding) gets a bar of
    its own, so its rate and ETA are that work's, not an average over faster work before it.
    Use as a context manager so the bar's line is closed on every exit."""

    def __init__(self, label: str):
        self.label = label
        self.bar: Any = None
        self.phase: str | None = None

    def __call__(self, done: int, total: int, phase: str | None = None) -> None:
        if self.bar is not None and phase != self.phase:
            self.__exit__()  # the phase before is over: its line stays, finished
        if self.bar is None:
            if total <= 0:
                return
            self.phase = phase
            label = f"{self.label} ({phase})".ljust(len(self.label) + 12) if phase else self.label
            self.bar = progress(total, label)
            self.bar.__enter__()
        if isinstance(self.bar, _Silent):
            return
        self.bar.update(max(0, done - self.bar.pos))

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None
