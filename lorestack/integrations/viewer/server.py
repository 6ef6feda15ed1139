"""`lorestack ui` standalone: the viewer app on 127.0.0.1 under uvicorn, until Ctrl-C."""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass

from lorestack.core.errors import LorestackError

HOST = "127.0.0.1"


@dataclass
class Started:
    url: str  # with the token: what to open
    base: str  # without it
    port: int


def free_port(host: str = HOST) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class ViewerServer:
    """uvicorn serving `create_app(mem, token)`; `start()` in a thread or `run()` in this one."""

    def __init__(self, mem, *, port: int = 0, token: str | None = None, run_doctor: bool = True):
        import uvicorn

        from lorestack.integrations.viewer.app import create_app
        from lorestack.integrations.viewer.security import new_token

        self.token = token or new_token()
        self.port = port or free_port()
        self.app = create_app(mem, self.token, run_doctor=run_doctor)
        self._bind_check()
        config = uvicorn.Config(
            self.app,
            host=HOST,
            port=self.port,
            log_level="warning",
            access_log=False,
            lifespan="off",
            server_header=False,
        )
        self.server = uvicorn.Server(config)
        self._thread: threading.Thread | None = None

    def _bind_check(self) -> None:
        """Fail with one clear line when the port is taken (uvicorn would log and exit)."""
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind((HOST, self.port))
            except OSError as exc:
                raise LorestackError(
                    f"cannot listen on {HOST}:{self.port} ({exc.strerror}); "
                    "pick another --port or leave it out for a free one"
                ) from exc

    @property
    def started(self) -> Started:
        base = f"http://{HOST}:{self.port}/"
        return Started(url=f"{base}?token={self.token}", base=base, port=self.port)

    def open_browser_when_up(self, timeout: float = 20) -> None:
        """Open the URL in the default browser once the server listens (in the background)."""

        def wait_and_open() -> None:
            import time
            import webbrowser

            deadline = time.monotonic() + timeout
            while not self.server.started and time.monotonic() < deadline:
                time.sleep(0.05)
            if self.server.started:
                try:
                    webbrowser.open(self.started.url)
                except Exception:  # noqa: BLE001, S110 - no browser: the printed URL is enough
                    pass

        threading.Thread(target=wait_and_open, name="lorestack-ui-open", daemon=True).start()

    def run(self) -> None:
        try:
            self.server.run()
        finally:
            self.app.state.close()

    def start(self, timeout: float = 20) -> Started:
        import time

        self._thread = threading.Thread(target=self.server.run, name="lorestack-ui", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise LorestackError(f"the viewer did not start on {HOST}:{self.port}")
            time.sleep(0.05)
        return self.started

    def stop(self) -> None:
        self.server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self.app.state.close()
