"""A local OpenAI-compatible server on 127.0.0.1 with scripted replies.

litellm talks to it over real HTTP, so tests exercise litellm's own request and response
handling. A reply is a string (the assistant content), or a dict with any of:
`content`, `status` (HTTP error code), `delay` (seconds before answering), `raw` (body).
When the script runs out, `responder(request_json) -> str` answers (default: "{}").
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeLLM:
    def __init__(self, script: list[Any] | None = None,
                 responder: Callable[[dict], str] | None = None):
        self.script = list(script or [])
        self.responder = responder or (lambda request: "{}")
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def api_base(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def _next(self, request: dict) -> Any:
        with self._lock:
            self.requests.append(request)
            if self.script:
                return self.script.pop(0)
        return self.responder(request)

    def __enter__(self) -> FakeLLM:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output clean
                pass

            def do_POST(self):  # noqa: N802 - http.server naming
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                reply = fake._next(body)
                if isinstance(reply, str):
                    reply = {"content": reply}
                if reply.get("delay"):
                    time.sleep(reply["delay"])
                status = reply.get("status", 200)
                if "raw" in reply:
                    payload = reply["raw"].encode()
                elif status != 200:
                    payload = json.dumps({"error": {"message": "scripted failure",
                                                    "type": "server_error"}}).encode()
                else:
                    content = reply.get("content", "")
                    payload = json.dumps({
                        "id": f"chatcmpl-{len(fake.requests)}", "object": "chat.completion",
                        "created": int(time.time()), "model": body.get("model", "fake"),
                        "choices": [{"index": 0, "finish_reason": "stop",
                                     "message": {"role": "assistant", "content": content}}],
                        "usage": {"prompt_tokens": reply.get("prompt_tokens", 100),
                                  "completion_tokens": reply.get("completion_tokens", 20),
                                  "total_tokens": reply.get("prompt_tokens", 100)
                                  + reply.get("completion_tokens", 20)},
                    }).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def prompts(self) -> list[str]:
        """All message contents the server received, joined per request."""
        return ["\n".join(str(m.get("content", "")) for m in r.get("messages", []))
                for r in self.requests]
