"""The viewer as one Starlette app: `create_app(memory, token)`.

`lorestack ui` serves it alone with uvicorn on 127.0.0.1; the resident service can serve the
same object (see `lorestack.integrations.viewer.__init__` for how to hook it up). Pages are
rendered on the server with Jinja2 (autoescaping on, so memory text is always text), forms
work without JavaScript, and every write goes through the library the CLI uses.
"""

from __future__ import annotations

import time
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from lorestack.core.errors import ConcurrentEdit, ItemNotFound, LorestackError, SecretDetected
from lorestack.integrations.viewer.security import FORM_FIELD, TokenGuard
from lorestack.integrations.viewer.state import ViewerState

HERE = Path(__file__).resolve().parent
PAGE_SIZE = 50
NAV = [
    ("overview", "/", "Overview"),
    ("context", "/context", "What a session receives"),
    ("items", "/items", "Items"),
    ("journal", "/journal", "Journal"),
    ("search", "/search", "Search"),
    ("review", "/review", "Review"),
    ("criteria", "/criteria", "Criteria"),
]


def _environment() -> Environment:
    from lorestack.integrations.viewer import filters

    env = Environment(
        loader=FileSystemLoader(str(HERE / "templates")),
        autoescape=select_autoescape(["html", "svg"], default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    filters.install(env)
    from lorestack.integrations.viewer.charts import tier_bar

    env.globals["bar"] = tier_bar
    return env


def render(request: Request, name: str, status: int = 200, **context) -> HTMLResponse:
    state: ViewerState = request.app.state.viewer
    env: Environment = request.app.state.env
    base = request.scope.get("root_path", "").rstrip("/")
    context.setdefault("flash", state.take_flash(request.query_params.get("flash")))
    html = env.get_template(name).render(
        request=request,
        base=base,
        nav=NAV,
        token=state.token,
        token_field=FORM_FIELD,
        mem=state.mem,
        **context,
    )
    return HTMLResponse(html, status_code=status)


def redirect(request: Request, path: str, message: str = "") -> RedirectResponse:
    state: ViewerState = request.app.state.viewer
    base = request.scope.get("root_path", "").rstrip("/")
    target = base + path
    if message:
        target += ("&" if "?" in target else "?") + "flash=" + state.flash(message)
    return RedirectResponse(target, status_code=303)


def error_page(request: Request, status: int, title: str, message: str) -> HTMLResponse:
    return render(request, "error.html", status=status, title=title, message=message)


async def _not_found(request: Request, exc: Exception) -> HTMLResponse:
    if not isinstance(exc, HTTPException):  # registered for HTTPException only
        raise exc
    if exc.status_code == 404:
        return error_page(
            request,
            404,
            "Not found",
            exc.detail
            if exc.detail and exc.detail != "Not Found"
            else f"nothing at {request.url.path}",
        )
    return error_page(request, exc.status_code, "Refused", str(exc.detail))


async def _domain_error(request: Request, exc: Exception) -> HTMLResponse:
    if isinstance(exc, ItemNotFound):
        return error_page(request, 404, "Not found", str(exc))
    if isinstance(exc, ConcurrentEdit):
        return error_page(request, 409, "Changed on disk", str(exc))
    if isinstance(exc, SecretDetected):
        return error_page(request, 422, "Refused: looks like a secret", str(exc))
    return error_page(request, 400, "Could not do that", str(exc))


class _CatchAll:
    """An unexpected error becomes a one-line 500 page (and one log line), not a traceback."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        started = False

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception as exc:  # noqa: BLE001 - last line of defence for the page
            if started or scope["type"] != "http":
                raise
            import sys

            print(
                f"lorestack ui: error on {scope.get('path')}: {type(exc).__name__}: {exc}",
                file=sys.stderr,
            )
            response = error_page(
                Request(scope),
                500,
                "Unexpected error",
                f"{type(exc).__name__}: {exc} (this is a bug in lorestack; please report it)",
            )
            await response(scope, receive, send)


class _Timed:
    """Measures server time per request: a `Server-Timing` header and the overview's table."""

    def __init__(self, app, state: ViewerState):
        self.app = app
        self.state = state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed_send(message):
            if message["type"] == "http.response.start":
                took = time.perf_counter() - started
                path = scope["path"]
                root = scope.get("root_path", "")
                if root and path.startswith(root):
                    path = path[len(root) :]
                route = path.split("/")[1] if path.count("/") else ""
                route = route or "overview"
                if route not in ("static", "favicon.ico"):
                    self.state.timing.add(route, took)
                message = {
                    **message,
                    "headers": [
                        *message.get("headers", []),
                        (b"server-timing", f"app;dur={took * 1000:.1f}".encode()),
                    ],
                }
            await send(message)

        await self.app(scope, receive, timed_send)


def create_app(
    memory, token: str, *, run_doctor: bool = True, allowed_hosts: tuple[str, ...] | None = None
):
    """The viewer for `memory` (a `Memory`), usable only with `token` (see `security`).

    Returns an ASGI app (Starlette inside, wrapped by the token guard). Its `.state` is the
    `ViewerState`; call `.state.close()` when the server stops.
    """
    from lorestack.integrations.viewer import actions, pages, review
    from lorestack.integrations.viewer.security import LOOPBACK_HOSTS

    state = ViewerState(memory, token, run_doctor=run_doctor)
    routes = [
        Route("/", pages.overview),
        Route("/favicon.ico", lambda _request: Response(status_code=204)),
        Route("/context", pages.context),
        Route("/items", pages.items),
        Route("/items/{item_id}", pages.item),
        Route("/items/{item_id}/edit", actions.edit_item, methods=["POST"]),
        Route("/items/{item_id}/archive", actions.archive_item, methods=["POST"]),
        Route("/journal", pages.journal),
        Route("/search", pages.search),
        Route("/review", review.review),
        Route("/review", actions.review, methods=["POST"]),
        Route("/criteria", pages.criteria),
        Route("/doctor", actions.rerun_doctor, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=[Middleware(_CatchAll)],
        exception_handlers={HTTPException: _not_found, LorestackError: _domain_error},
    )
    app.state.viewer = state
    app.state.env = _environment()
    guarded = TokenGuard(_Timed(app, state), token, allowed_hosts=allowed_hosts or LOOPBACK_HOSTS)
    guarded.state = state  # type: ignore[attr-defined]
    guarded.starlette = app  # type: ignore[attr-defined]
    return guarded
