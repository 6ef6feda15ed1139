"""Wire format and runtime place of the service. Standard library only: the thin hook imports it.

One request per connection: a JSON object on one line (at most `MAX_REQUEST` bytes), answered
by one JSON object on one line (a reply longer than `MAX_REPLY` in parts: `reply_lines`),
which a hook request precedes with an acknowledgement line
(`{"ack": true, "wait_ms": N}`: the service holds the request and will answer within N ms,
its configured deadline). Every request names the caller's version (the handshake: another
version is refused, and the caller replaces the service) and carries the caller: its folder,
root and `LORESTACK_*` environment, which the service applies to that request alone.
The socket lives in a directory only the user can enter (0700, owned by the user), and is
itself 0600; anything else is refused with one line saying what is wrong. The directory is
keyed by the install (version and location), so two installs run two services side by side.
"""

from __future__ import annotations

import os
import stat

try:  # the builtin SHA-256: `hashlib` loads OpenSSL first, ~2 ms of every hook's start
    from _sha256 import sha256  # Python 3.10-3.11
except ImportError:  # pragma: no cover - depends on the Python version
    try:
        from _sha2 import sha256  # type: ignore[import-not-found,no-redef]  # 3.12+
    except ImportError:
        from hashlib import sha256  # type: ignore[assignment]

TYPE_CHECKING = False  # the thin hook path imports this module: no pathlib nor typing here
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

PROTOCOL = 3  # 2: typed operations, the caller's environment as an overlay, hook acks;
# 3: a reply over MAX_REPLY comes in parts (`reply_lines`)
PACKAGE_VERSION = "0.2.0"  # keep equal to pyproject's version (tests/test_service_protocol.py)
# two installs of lorestack (two venvs) are two versions: each gets the service of its own code
_INSTALL = sha256(os.path.dirname(os.path.abspath(__file__)).encode()).hexdigest()[:8]
# the index catalog's format (retrieval/catalog.py CATALOG_VERSION; tests/test_service_units.py):
# a service of the code before a format change must not go on serving a converted store
INDEX_FORMAT = 3
VERSION = f"{PACKAGE_VERSION}+p{PROTOCOL}.c{INDEX_FORMAT}.{_INSTALL}"
IDENTITY = f"{PACKAGE_VERSION}-{_INSTALL}"  # names this install's runtime folder
MAX_REQUEST = 4 * 1024 * 1024
MAX_REPLY = 64 * 1024 * 1024
SOCKET_NAME = "service.sock"
LOCK_NAME = "service.lock"
LOG_NAME = "service.log"
INFO_NAME = "service.json"
# variables that say where the service itself lives, not how memory behaves
_NOT_OVERLAID = ("LORESTACK_ROOT", "LORESTACK_SERVICE__")


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
    """`$LORESTACK_SERVICE__RUNTIME_DIR` as given; else this install's folder under
    `$XDG_RUNTIME_DIR/lorestack/` or `/tmp/lorestack-UID/` (one per version and location)."""
    from pathlib import Path

    return Path(_runtime_dir())


def _runtime_dir() -> str:
    """`runtime_dir()` as a string (the thin hook path works with strings only)."""
    given = os.environ.get("LORESTACK_SERVICE__RUNTIME_DIR")
    if given:
        return os.path.normpath(os.path.expanduser(given))
    xdg = os.environ.get("XDG_RUNTIME_DIR")
    if xdg and os.path.isdir(xdg):
        return os.path.normpath(os.path.join(xdg, "lorestack", IDENTITY))
    return os.path.normpath(os.path.join(os.environ.get("TMPDIR") or "/tmp",
                                         f"lorestack-{os.getuid()}", IDENTITY))


def check_private(path: str | Path, *, want_dir: bool) -> None:
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
    from pathlib import Path

    return Path(private_dir_str(create))


def private_dir_str(create: bool = True) -> str:
    """`private_dir()` as a string (for the thin hook path)."""
    path = _runtime_dir()
    if create and not os.path.lexists(path):
        try:
            parent = os.path.dirname(path)
            if not os.path.lexists(parent):
                os.makedirs(parent, mode=0o700, exist_ok=True)
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
    check_private(path, want_dir=True)
    return path


def socket_path(directory: str | Path) -> Path:
    from pathlib import Path

    return Path(socket_path_str(str(directory)))


def socket_path_str(directory: str) -> str:
    path = os.path.join(directory, SOCKET_NAME)
    if len(os.fsencode(path)) >= 104:  # sun_path is 104-108 bytes depending on the system
        raise UnsafeRuntimeDir(
            f"socket path {path} is too long for a Unix socket; "
            "set LORESTACK_SERVICE__RUNTIME_DIR to a shorter folder"
        )
    return path


def caller_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The overlay a client sends: its LORESTACK_* settings variables and HOME (placement
    variables such as LORESTACK_ROOT and LORESTACK_SERVICE__* left out)."""
    env: Mapping[str, str] = os.environ if environ is None else environ
    out = {k: v for k, v in env.items() if k.startswith("LORESTACK_")
           and not k.startswith(_NOT_OVERLAID)}
    if "HOME" in env:
        out["HOME"] = env["HOME"]
    return out


def env_fingerprint(environ: Mapping[str, str] | None = None) -> str:
    """A short key for a caller's overlay (status and logs name overlays by it)."""
    env = caller_env(environ)
    text = "\n".join(f"{k}={env[k]}" for k in sorted(env))
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


# JSON through `_json`, the C half of the `json` package, when it is there: the package's Python
# half imports `re` and with it `enum`, about 7 ms of every hook's start. The same text as
# `json.dumps(m, ensure_ascii=False, separators=(",", ":"))` and the same values as
# `json.loads` (tests/test_service_protocol.py compares them); anything else goes to `json`.
try:
    import _json
except ImportError:  # pragma: no cover - another Python implementation
    _json = None  # type: ignore[assignment]


class _Unsupported(Exception):
    pass


def _dumps(value, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_json.encode_basestring(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif type(value) is int or (type(value) is float and value == value
                                and value not in (float("inf"), float("-inf"))):
        out.append(repr(value))
    elif type(value) is dict:
        out.append("{")
        for n, (key, item) in enumerate(value.items()):
            if type(key) is not str:
                raise _Unsupported
            out.append("," if n else "")
            out.append(_json.encode_basestring(key))
            out.append(":")
            _dumps(item, out)
        out.append("}")
    elif type(value) in (list, tuple):
        out.append("[")
        for n, item in enumerate(value):
            out.append("," if n else "")
            _dumps(item, out)
        out.append("]")
    else:
        raise _Unsupported


class _ScanContext:
    """What `_json.make_scanner` reads: `json.loads`'s defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    memo: dict = {}

    @staticmethod
    def parse_constant(name: str) -> float:
        return {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}[name]


def _loads(text: str):
    if _json is None:
        import json

        return json.loads(text)
    text = text.strip(" \t\n\r")
    try:
        value, end = _json.make_scanner(_ScanContext())(text, 0)  # type: ignore[arg-type]
    except StopIteration as exc:
        raise ValueError(f"Expecting value at {exc.value}") from None
    if end != len(text):
        raise ValueError(f"Extra data at {end}")
    return value


def encode(message: dict) -> bytes:
    out: list[str] = []
    try:
        if _json is None:
            raise _Unsupported
        _dumps(message, out)
        text = "".join(out)
    except _Unsupported:
        import json

        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
    return text.encode("utf-8") + b"\n"


def reply_lines(reply: dict) -> list[bytes]:
    """The reply as the lines the service sends: one line, or when that line would pass
    MAX_REPLY (a client refuses a longer line), parts `{"part": TEXT}` ending with
    `{"part": TEXT, "last": true}` whose texts, joined, are the reply's line. A part's text is
    at most MAX_REPLY // 8 characters, so even escaped (6 bytes a character) it fits."""
    line = encode(reply)
    if len(line) <= MAX_REPLY:
        return [line]
    text = line[:-1].decode("utf-8")
    size = max(1, MAX_REPLY // 8)
    chunks = [text[i:i + size] for i in range(0, len(text), size)]
    return [encode({"part": chunk, **({"last": True} if n == len(chunks) - 1 else {})})
            for n, chunk in enumerate(chunks)]


class Parts:
    """Gathers a reply sent in parts (`reply_lines`); `add` returns it once the last is in."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def add(self, message: dict) -> dict | None:
        part = message.get("part")
        if not isinstance(part, str):
            raise ProtocolError("a reply part must carry text")
        self.texts.append(part)
        if not message.get("last"):
            return None
        return decode("".join(self.texts).encode("utf-8"))


class LineReader:
    """Newline-terminated JSON objects from one socket, in order (an ack, then the reply)."""

    def __init__(self, sock, limit: int):
        self.sock = sock
        self.limit = limit
        self.buffer = b""

    def next(self) -> dict:
        while b"\n" not in self.buffer:
            if len(self.buffer) > self.limit:
                raise ProtocolError(f"message larger than {self.limit} bytes")
            chunk = self.sock.recv(65536)
            if not chunk:
                if not self.buffer:
                    raise ProtocolError("connection closed before a message")
                raise ProtocolError("message not terminated by a newline")
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        if len(line) > self.limit:
            raise ProtocolError(f"message larger than {self.limit} bytes")
        return decode(line)


def decode(line: bytes) -> dict:
    try:
        message = _loads(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"not JSON ({exc})") from exc
    if not isinstance(message, dict):
        raise ProtocolError("a message must be a JSON object")
    return message


def read_message(sock, limit: int) -> dict:
    """One newline-terminated JSON object from `sock`; ProtocolError for anything else."""
    return LineReader(sock, limit).next()
