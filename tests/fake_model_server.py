"""A fake model endpoint on 127.0.0.1 for driving the real clients offline.

Speaks just enough of three APIs to answer every request with one short text, and records
every request it receives (method, path, body) so a test can see what reached the model:
- Anthropic Messages (`POST /v1/messages`, streaming SSE or not; `count_tokens`), as Claude
  Code uses it;
- Gemini (`POST /v1beta/models/M:generateContent` and `:streamGenerateContent?alt=sse`,
  `:countTokens`), as Gemini CLI uses it (a request with a response schema — its model
  router — gets the smallest JSON value the schema allows);
- OpenAI Responses (`POST /v1/responses`, streaming SSE), as Codex CLI uses it.
Anything else gets `{}` (GET) or a small JSON 404, which the clients treat as optional.

Bounded: it stops itself after `max_requests` requests or `max_seconds`, whichever comes
first, so a test that goes wrong cannot leave a server behind.

    with FakeModelServer(reply="OK") as server:
        ... ANTHROPIC_BASE_URL=server.url ...
        assert any("fact" in r.body for r in server.requests)
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Recorded:
    method: str
    path: str
    body: str
    at: float


class FakeModelServer:
    def __init__(
        self,
        reply: str = "Noted.",
        *,
        max_requests: int = 300,
        max_seconds: float = 600,
        tool_calls: list[dict] | None = None,
    ):
        self.reply = reply
        # answer the first model requests that offer tools with these tool calls
        # ({"name": "Bash", "input": {...}}), one per request, then with `reply` (Anthropic
        # tool_use, Gemini functionCall, a Responses function_call for Codex)
        self.tool_calls = list(tool_calls or [])
        self.max_requests = max_requests
        self.max_seconds = max_seconds
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._threads: list[threading.Thread] = []
        self._stopped = threading.Event()

    # ---- lifecycle --------------------------------------------------------------------------
    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def __enter__(self) -> FakeModelServer:
        owner = self

        class Handler(_Handler):
            server_owner = owner

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        serve = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.1},
            name="fake-model-server",
            daemon=True,
        )
        watchdog = threading.Thread(target=self._watchdog, name="fake-model-watchdog", daemon=True)
        self._threads = [serve, watchdog]
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def stop(self) -> None:
        if self._stopped.is_set():
            return
        self._stopped.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def _watchdog(self) -> None:
        deadline = time.monotonic() + self.max_seconds
        while not self._stopped.wait(0.2):
            if time.monotonic() > deadline or len(self.requests) >= self.max_requests:
                threading.Thread(target=self.stop, daemon=True).start()
                return

    # ---- what was received ------------------------------------------------------------------
    def record(self, method: str, path: str, body: str) -> None:
        with self._lock:
            self.requests.append(Recorded(method, path, body, time.time()))

    def model_requests(self) -> list[Recorded]:
        """Requests that asked the model for an answer (not token counts or metadata)."""
        return [
            r
            for r in self.requests
            if r.method == "POST"
            and (
                r.path.startswith("/v1/messages")
                and "count_tokens" not in r.path
                or "generateContent" in r.path
                or "streamGenerateContent" in r.path
                or r.path.startswith("/v1/responses")
            )
        ]

    def received(self, text: str) -> bool:
        """Did any model request carry TEXT (also as JSON-escaped text)?"""
        escaped = json.dumps(text)[1:-1]
        return any(text in r.body or escaped in r.body for r in self.model_requests())


class _Handler(BaseHTTPRequestHandler):
    server_owner: FakeModelServer
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    # ---- plumbing ----------------------------------------------------------------------------
    def _body(self) -> str:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            return self.rfile.read(length).decode("utf-8", errors="replace")
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks).decode("utf-8", errors="replace")
        return ""

    def _json(self, status: int, payload: dict) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _sse(self, events: list[tuple[str | None, dict]]) -> None:
        out = []
        for name, payload in events:
            if name:
                out.append(f"event: {name}\n")
            out.append(f"data: {json.dumps(payload)}\n\n")
        data = "".join(out).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802
        self.server_owner.record("GET", self.path, "")
        if self.path.startswith("/v1/models") or "/models" in self.path:
            self._json(200, {"data": [], "models": []})
        else:
            self._json(200, {})

    def do_HEAD(self) -> None:  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:  # noqa: N802
        body = self._body()
        self.server_owner.record("POST", self.path, body)
        try:
            request = json.loads(body) if body.strip() else {}
        except ValueError:
            request = {}
        path = self.path.split("?", 1)[0]
        reply = self.server_owner.reply
        if path.endswith("/count_tokens"):
            self._json(200, {"input_tokens": 12})
        elif path.startswith("/v1/messages"):
            self._anthropic(request, reply)
        elif path.endswith(":countTokens"):
            self._json(200, {"totalTokens": 12})
        elif path.endswith(":streamGenerateContent"):
            owner = self.server_owner
            if owner.tool_calls and request.get("tools"):
                call = owner.tool_calls.pop(0)  # Gemini's function call: {"name", "args"}
                self._sse([(None, _gemini_call(call["name"], call["input"]))])
            else:
                self._sse([(None, _gemini_chunk(_gemini_reply(request, reply)))])
        elif path.endswith(":generateContent"):
            self._json(200, _gemini_chunk(_gemini_reply(request, reply)))
        elif path.startswith("/v1/responses") or path.endswith("/responses"):
            self._responses(request, reply)
        else:
            self._json(404, {"error": {"message": f"fake model server: no route {path}"}})

    # ---- the three APIs ----------------------------------------------------------------------
    def _anthropic(self, request: dict, reply: str) -> None:
        msg_id = f"msg_{uuid.uuid4().hex[:20]}"
        model = request.get("model", "claude-fake")
        usage = {"input_tokens": 12, "output_tokens": 3}
        owner = self.server_owner
        if owner.tool_calls and request.get("tools") and request.get("stream"):
            call = owner.tool_calls.pop(0)
            tool_id = f"toolu_{uuid.uuid4().hex[:20]}"
            self._sse(
                [
                    (
                        "message_start",
                        {
                            "type": "message_start",
                            "message": {
                                "id": msg_id,
                                "type": "message",
                                "role": "assistant",
                                "model": model,
                                "content": [],
                                "stop_reason": None,
                                "stop_sequence": None,
                                "usage": {"input_tokens": 12, "output_tokens": 1},
                            },
                        },
                    ),
                    (
                        "content_block_start",
                        {
                            "type": "content_block_start",
                            "index": 0,
                            "content_block": {
                                "type": "tool_use",
                                "id": tool_id,
                                "name": call["name"],
                                "input": {},
                            },
                        },
                    ),
                    (
                        "content_block_delta",
                        {
                            "type": "content_block_delta",
                            "index": 0,
                            "delta": {
                                "type": "input_json_delta",
                                "partial_json": json.dumps(call["input"]),
                            },
                        },
                    ),
                    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                    (
                        "message_delta",
                        {
                            "type": "message_delta",
                            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
                            "usage": {"output_tokens": 5},
                        },
                    ),
                    ("message_stop", {"type": "message_stop"}),
                ]
            )
            return
        if not request.get("stream"):
            self._json(
                200,
                {
                    "id": msg_id,
                    "type": "message",
                    "role": "assistant",
                    "model": model,
                    "content": [{"type": "text", "text": reply}],
                    "stop_reason": "end_turn",
                    "stop_sequence": None,
                    "usage": usage,
                },
            )
            return
        self._sse(
            [
                (
                    "message_start",
                    {
                        "type": "message_start",
                        "message": {
                            "id": msg_id,
                            "type": "message",
                            "role": "assistant",
                            "model": model,
                            "content": [],
                            "stop_reason": None,
                            "stop_sequence": None,
                            "usage": {"input_tokens": 12, "output_tokens": 1},
                        },
                    },
                ),
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": {"type": "text", "text": ""},
                    },
                ),
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "text_delta", "text": reply},
                    },
                ),
                ("content_block_stop", {"type": "content_block_stop", "index": 0}),
                (
                    "message_delta",
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                        "usage": {"output_tokens": 3},
                    },
                ),
                ("message_stop", {"type": "message_stop"}),
            ]
        )

    def _responses_call(self, resp_id: str, model: str, call: dict) -> None:
        self._sse(_responses_call_events(resp_id, model, call))

    def _responses(self, request: dict, reply: str) -> None:
        resp_id = f"resp_{uuid.uuid4().hex[:20]}"
        item_id = f"msg_{uuid.uuid4().hex[:20]}"
        model = request.get("model", "gpt-fake")
        owner = self.server_owner
        if owner.tool_calls and request.get("tools") and request.get("stream"):
            self._responses_call(resp_id, model, owner.tool_calls.pop(0))
            return
        item = {
            "type": "message",
            "id": item_id,
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": reply, "annotations": []}],
        }
        usage = {
            "input_tokens": 12,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 3,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        }
        base = {
            "id": resp_id,
            "object": "response",
            "created_at": int(time.time()),
            "model": model,
            "output": [],
            "status": "in_progress",
        }
        if not request.get("stream"):
            self._json(200, {**base, "status": "completed", "output": [item], "usage": usage})
            return
        self._sse(
            [
                ("response.created", {"type": "response.created", "response": base}),
                (
                    "response.output_item.added",
                    {
                        "type": "response.output_item.added",
                        "output_index": 0,
                        "item": {**item, "status": "in_progress", "content": []},
                    },
                ),
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item_id,
                        "output_index": 0,
                        "content_index": 0,
                        "delta": reply,
                    },
                ),
                (
                    "response.output_item.done",
                    {"type": "response.output_item.done", "output_index": 0, "item": item},
                ),
                (
                    "response.completed",
                    {
                        "type": "response.completed",
                        "response": {
                            **base,
                            "status": "completed",
                            "output": [item],
                            "usage": usage,
                        },
                    },
                ),
            ]
        )


def _responses_call_events(resp_id: str, model: str, call: dict) -> list[tuple[str, dict]]:
    """A Responses stream whose one output is a function call ({"name", "input"})."""
    item = {"type": "function_call", "id": f"fc_{uuid.uuid4().hex[:20]}", "status": "completed",
            "call_id": f"call_{uuid.uuid4().hex[:20]}", "name": call["name"],
            "arguments": json.dumps(call["input"])}
    base = {"id": resp_id, "object": "response", "created_at": int(time.time()), "model": model,
            "output": [], "status": "in_progress"}
    usage = {"input_tokens": 12, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 3,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
    return [
        ("response.created", {"type": "response.created", "response": base}),
        ("response.output_item.added",
         {"type": "response.output_item.added", "output_index": 0, "item": item}),
        ("response.output_item.done",
         {"type": "response.output_item.done", "output_index": 0, "item": item}),
        ("response.completed", {"type": "response.completed", "response": {
            **base, "status": "completed", "output": [item], "usage": usage}}),
    ]


def _from_schema(schema: dict):
    """The smallest value that fits a JSON schema (Gemini's upper-case type names too)."""
    kind = str(schema.get("type", "object")).lower()
    if schema.get("enum"):
        return schema["enum"][0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: _from_schema(sub) for name, sub in props.items()}
    if kind == "array":
        return []
    if kind == "integer":
        return max(int(schema.get("minimum", 10)), 10)
    if kind == "number":
        return 0.5
    if kind == "boolean":
        return False
    return "A simple, bounded request."


def _gemini_reply(request: dict, reply: str) -> str:
    """Requests for JSON (Gemini CLI's "auto" model router asks for a complexity score or a
    model choice first) get the smallest answer their schema allows; the rest the reply."""
    config = request.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if isinstance(schema, dict):
        return json.dumps(_from_schema(schema))
    return reply


def _gemini_call(name: str, args: dict) -> dict:
    return {
        "candidates": [{"content": {"role": "model", "parts": [
            {"functionCall": {"name": name, "args": args}}]}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 3, "totalTokenCount": 15},
        "modelVersion": "gemini-fake",
    }


def _gemini_chunk(reply: str) -> dict:
    return {
        "candidates": [
            {
                "content": {"role": "model", "parts": [{"text": reply}]},
                "finishReason": "STOP",
                "index": 0,
            }
        ],
        "usageMetadata": {"promptTokenCount": 12, "candidatesTokenCount": 3, "totalTokenCount": 15},
        "modelVersion": "gemini-fake",
    }
