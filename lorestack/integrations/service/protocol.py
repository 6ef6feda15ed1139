"""Wire format and runtime place of the service. Standard library only: the thin hook imports it.

One request per connection: a JSON object on one line (at most `MAX_REQUEST` bytes), answered
by one JSON object on one line. Every request names the caller's version and environment
fingerprint; the service refuses a mismatch instead of answering with other code or settings.
The socket lives in a directory only the user can enter (0700, owned by the user), and is
itself 0600; anything else is refused with one line saying what is wrong.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path

PROTOCOL = 1
PACKAGE_VERSION = "0.2.0"  # keep equal to pyproject's version (tests/test_service_protocol.py)
# two installs of lorestack (two venvs) are two versions: each gets the service of its own code
_INSTALL = hashlib.sha256(os.path.dirname(os.path.abspath(__file__)).encode()).hexdigest()[:8]
VERSION = f"{PACKAGE_VERSION}+p{PROTOCOL}.{_INSTALL}"
MAX_REQUEST = 4 * 1024 * 1024
MAX_REPLY = 64 * 1024 * 1024
SOCKET_NAME = "service.sock"
LOCK_NAME = "service.lock"
LOG_NAME = "service.log"
INFO_NAME = "service.json"
# variables that say where the service itself lives, not how memory behaves
_NOT_FINGERPRINTED = ("LORESTACK_ROOT", "LORESTACK_SERVICE__")


class UnsafeRuntimeDir(Exception):
    """The runtime directory or socket is not private to this user."""


class ProtocolError(Exception):
    """A request or reply that is not one JSON object on one line within the size cap."""


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or not value.strip():
        return default
    return value.strip().lower() not in ("0", "false", "no", "off")


def service_enabled() -> bool:
    """`LORESTACK_SERVICE__ENABLED=false` keeps every command in-process (and starts nothing)."""
    return env_flag("LORESTACK_SERVICE__ENABLED", True)


def runtime_dir() -> Path:
    """`$LORESTACK_SERVICE__RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/lorestack`, else /tmp/lorestack-UID."""
    given = os.environ.get("LORESTACK_SERVICE__RUNTIME_DIR")
    if given:
        return Path(given).expanduser()
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isdir(xdg):
        return Path(xdg) / "lorestack"
    return Path(os.environ.get("TMPDIR") or "/tmp") / f"lorestack-{os.getuid()}"


def check_private(path: Path, *, want_dir: bool) -> None:
    """Refuse a path that another user owns or that others may read or write."""
    info = os.lstat(path)
    kind = "directory" if want_dir else "socket"
    if want_dir and not stat.S_ISDIR(info.st_mode):
        raise UnsafeRuntimeDir(
            f"{path} is not a directory (a symlink or file is refused); remove it"
        )
    if not want_dir and not stat.S_ISSOCK(info.st_mode):
        raise UnsafeRuntimeDir(f"{path} is not a socket; remove it")
    if info.st_uid != os.geteuid():
        raise UnsafeRuntimeDir(
            f"service {kind} {path} is owned by uid {info.st_uid}, not you "
            f"(uid {os.geteuid()}); refusing to use it"
        )
    if info.st_mode & 0o077:
        raise UnsafeRuntimeDir(
            f"service {kind} {path} has mode {stat.S_IMODE(info.st_mode):o}; "
            f"it must be private (chmod {'700' if want_dir else '600'}) — refusing"
        )


def private_dir(create: bool = True) -> Path:
    """The runtime directory, created 0700 if missing, checked private either way."""
    path = runtime_dir()
    if create and not os.path.lexists(path):
        try:
            os.makedirs(path.parent, exist_ok=True)
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
    check_private(path, want_dir=True)
    return path


def socket_path(directory: Path) -> Path:
    path = directory / SOCKET_NAME
    if len(os.fsencode(path)) >= 104:  # sun_path is 104-108 bytes depending on the system
        raise UnsafeRuntimeDir(
            f"socket path {path} is too long for a Unix socket; "
            "set LORESTACK_SERVICE__RUNTIME_DIR to a shorter folder"
        )
    return path


def env_fingerprint(environ: Mapping[str, str] | None = None) -> str:
    """What in the environment changes how memory behaves: LORESTACK_* settings and HOME."""
    env: Mapping[str, str] = os.environ if environ is None else environ
    keys = sorted(
        k for k in env if k.startswith("LORESTACK_") and not k.startswith(_NOT_FINGERPRINTED)
    )
    text = "\n".join(f"{k}={env[k]}" for k in keys) + f"\nHOME={env.get('HOME', '')}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def encode(message: dict) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


def read_message(sock, limit: int) -> dict:
    """One newline-terminated JSON object from `sock`; ProtocolError for anything else."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            if not chunks:
                raise ProtocolError("connection closed before a message")
            raise ProtocolError("message not terminated by a newline")
        end = chunk.find(b"\n")
        if end >= 0:
            chunk = chunk[:end]
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise ProtocolError(f"message larger than {limit} bytes")
        if end >= 0:
            break
    try:
        message = json.loads(b"".join(chunks).decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"not JSON ({exc})") from exc
    if not isinstance(message, dict):
        raise ProtocolError("a message must be a JSON object")
    return message
