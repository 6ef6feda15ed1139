"""Who may use the viewer: whoever holds the per-start token, from this machine's loopback.

- The URL printed by `lorestack ui` carries `?token=…`; the first request with it sets an
  HttpOnly, SameSite=Strict cookie and redirects to the same URL without the token, so it
  does not linger in the address bar or history.
- Every request needs that cookie (or the token in the query); otherwise 403. Another local
  user can reach the port but not the token.
- Every state-changing request (anything but GET/HEAD) must also carry the token in its
  form body (`_token`, written into each form) or an `X-Lorestack-Token` header. A page on
  another local port is "same-site" for cookies, but it cannot read our pages, so it cannot
  know the token: no cross-site request forgery.
- The Host header must name the loopback (a DNS-rebinding page arrives with its own name).
- Every response says: no framing, no referrer, scripts only from this server (CSP).
"""

from __future__ import annotations

import hmac
import secrets
from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlencode

FORM_FIELD = "_token"
HEADER = "x-lorestack-token"
MAX_BODY = 16 * 1024 * 1024  # a form carrying a 1 MB item body fits with room to spare
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")
SAFE_METHODS = ("GET", "HEAD")

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    ),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


def new_token() -> str:
    return secrets.token_urlsafe(24)


def cookie_name(host: str) -> str:
    """One cookie per port: cookies ignore ports, and two viewers may run side by side."""
    port = host.rsplit(":", 1)[1] if ":" in host and not host.endswith("]") else "80"
    return f"lorestack_ui_{port if port.isdigit() else 'x'}"


def _same(given: str | None, token: str) -> bool:
    return given is not None and bool(given) and hmac.compare_digest(given.encode(), token.encode())


def _headers(scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


class TokenGuard:
    """ASGI middleware enforcing the rules in the module docstring."""

    def __init__(self, app, token: str, *, allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS):
        self.app = app
        self.token = token
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send = _with_security_headers(send)
        headers = _headers(scope)
        host = headers.get("host", "")
        hostname = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        if hostname not in self.allowed_hosts:
            await _deny(send, "this viewer only answers on the loopback address it printed")
            return
        cookies = SimpleCookie()
        try:
            cookies.load(headers.get("cookie", ""))
        except Exception:  # noqa: BLE001 - a malformed cookie header is just no cookie
            cookies = SimpleCookie()
        name = cookie_name(host)
        has_cookie = name in cookies and _same(cookies[name].value, self.token)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        query_token = (query.get("token") or [None])[0]

        if scope["method"] in SAFE_METHODS:
            if _same(query_token, self.token):
                rest = {k: v for k, v in query.items() if k != "token"}
                root, path = scope.get("root_path", ""), scope["path"]
                # mounted: newer Starlette keeps the full path (prefix included) in "path"
                location = path if root and path.startswith(root) else root + path
                if rest:
                    location += "?" + urlencode(rest, doseq=True)
                await _redirect_with_cookie(send, location, name, self.token)
                return
            if not has_cookie:
                await _deny(
                    send,
                    "open the viewer through the URL `lorestack ui` printed "
                    "(it carries this run's token)",
                )
                return
            await self.app(scope, receive, send)
            return

        # state-changing: read the body (bounded), check the token in it, replay it
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MAX_BODY:
                await _deny(send, "request body too large", status=413)
                return
        given = headers.get(HEADER)
        if given is None and headers.get("content-type", "").startswith(
            "application/x-www-form-urlencoded"
        ):
            fields = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
            given = (fields.get(FORM_FIELD) or [None])[0]
        if not (has_cookie and _same(given, self.token)):
            await _deny(
                send,
                "this change was not sent from a viewer page of this run "
                "(missing or wrong token); nothing was changed",
            )
            return
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _with_security_headers(send):
    async def wrapped(message):
        if message["type"] == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", [])}
            extra = [(k, v) for k, v in SECURITY_HEADERS if k not in present]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return wrapped


_DENIED = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>403 · lorestack</title>
</head><body><h1>{status} — refused</h1><p>{reason}</p></body></html>"""


async def _deny(send, reason: str, status: int = 403) -> None:
    from html import escape

    body = _DENIED.format(status=status, reason=escape(reason)).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def _redirect_with_cookie(send, location: str, name: str, token: str) -> None:
    cookie = f"{name}={token}; Path=/; HttpOnly; SameSite=Strict"
    await send(
        {
            "type": "http.response.start",
            "status": 303,
            "headers": [
                (b"location", (location or "/").encode("latin-1")),
                (b"set-cookie", cookie.encode("latin-1")),
                (b"content-length", b"0"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": b""})
