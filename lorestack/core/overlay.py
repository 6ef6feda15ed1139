"""The caller's environment and working folder, per request rather than per process.

A one-shot command reads `os.environ` and `os.getcwd()`. The resident service answers many
callers at once, each with its own `LORESTACK_*` variables and folder: it runs each request
inside `caller(env, cwd)`, and everything that looks up a variable, the memory root or the
settings reads them through `getenv` / `environ` / `working_dir` here. No process-wide state
is changed, so concurrent requests cannot see each other's environment.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_env: ContextVar[Mapping[str, str] | None] = ContextVar("lorestack_env", default=None)
_cwd: ContextVar[Path | None] = ContextVar("lorestack_cwd", default=None)


def environ() -> Mapping[str, str]:
    """The environment that applies: the caller's overlay inside `caller`, else the process's."""
    env = _env.get()
    return os.environ if env is None else env


def getenv(name: str, default: str | None = None) -> str | None:
    return environ().get(name, default)


def working_dir() -> Path:
    """The caller's working folder inside `caller`, else this process's."""
    cwd = _cwd.get()
    return cwd if cwd is not None else Path.cwd()


def fingerprint(env: Mapping[str, str]) -> str:
    """A short stable key for an overlay (the service caches settings per key)."""
    text = "\n".join(f"{k}={env[k]}" for k in sorted(env))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@contextmanager
def caller(env: Mapping[str, str] | None, cwd: str | os.PathLike | None = None) -> Iterator[None]:
    """Run the block as the caller: `env` replaces the process's `LORESTACK_*` view (variables
    not in it are unset for the block), `cwd` is where a memory root is looked for. None keeps
    what applies already (the process's, or an enclosing caller's)."""
    env_token = _env.set(dict(env)) if env is not None else None
    cwd_token = _cwd.set(Path(cwd)) if cwd else None
    try:
        yield
    finally:
        if cwd_token is not None:
            _cwd.reset(cwd_token)
        if env_token is not None:
            _env.reset(env_token)
