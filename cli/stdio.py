"""Standard streams per request, for the service that runs forwarded command lines.

The service answers several callers at once, so it cannot swap `sys.stdin/stdout/stderr`
per request. Instead `install()` replaces them once, at start, with proxies that write to
(and read from) the streams of the request running in the current context (`capture`),
and to the real streams otherwise. `quiet_stdout()` sends what a library prints on stdout
to stderr for the current request only.
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

_streams: ContextVar[dict[str, Any] | None] = ContextVar("lorestack_streams", default=None)
_real: dict[str, Any] = {}


class _Proxy:
    """Looks like a text stream; every attribute comes from the current request's stream."""

    def __init__(self, name: str):
        self._name = name

    def _target(self) -> Any:
        streams = _streams.get()
        if streams is not None and self._name in streams:
            return streams[self._name]
        return _real[self._name]

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._target(), attr)

    def write(self, text: str) -> int:
        return self._target().write(text)

    def flush(self) -> None:
        self._target().flush()

    def isatty(self) -> bool:
        return self._target().isatty()

    def __iter__(self):
        return iter(self._target())


def install() -> None:
    """Put the proxies in place of this process's standard streams (once)."""
    if _real:
        return
    for name in ("stdin", "stdout", "stderr"):
        _real[name] = getattr(sys, name)
        setattr(sys, name, _Proxy(name))


def sink() -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace", write_through=True)


def drained(stream: io.TextIOWrapper) -> str:
    stream.flush()
    return stream.buffer.getvalue().decode("utf-8", "replace")  # type: ignore[attr-defined]


@contextlib.contextmanager
def capture(stdin: Any, stdout: Any, stderr: Any) -> Iterator[None]:
    """Inside the block (and the threads it starts with its context) the standard streams of
    this request are these."""
    token = _streams.set({"stdin": stdin, "stdout": stdout, "stderr": stderr})
    try:
        yield
    finally:
        _streams.reset(token)


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """What libraries print (litellm does on errors) goes to stderr, never into JSON or a
    hook reply on stdout."""
    streams = _streams.get()
    if streams is None:
        with contextlib.redirect_stdout(sys.stderr):
            yield
        return
    token = _streams.set({**streams, "stdout": streams["stderr"]})
    try:
        yield
    finally:
        _streams.reset(token)
