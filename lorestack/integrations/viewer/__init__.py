"""The memory viewer: a local web page over the same library the CLI uses.

`create_app(memory, token)` returns the ASGI app (Starlette inside, wrapped by the token
guard). Standalone, `lorestack ui` serves it with uvicorn on 127.0.0.1 (`server.ViewerServer`).

Hooking it into the resident service: build the app once per served memory with the
service's per-start token and hand it to the service's uvicorn/Starlette, e.g.
`Mount("/ui", app=create_app(mem, token))` or its own TCP listener on 127.0.0.1 (the viewer
needs a loopback TCP port: browsers do not speak Unix sockets). Links honour the ASGI
`root_path`, so a mount under a prefix works; the cookie is per port. Call
`app.state.close()` at shutdown (joins the doctor thread, closes the index).
"""

from __future__ import annotations

from lorestack.integrations.viewer.app import create_app

__all__ = ["create_app"]
