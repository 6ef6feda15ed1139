"""Teams: two clones of one repository share memory through git and vectors through a real
Chroma server (`chroma run`, started here on 127.0.0.1 behind a token-checking proxy, the
way Chroma documents auth for its 1.x server); journal days merge without conflicts."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # builds indexes / runs servers: minutes under load

TOKEN = "team-token-5b1e"
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.invalid",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.invalid",
}


def _git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
        timeout=60,
    )
    assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    return proc.stdout


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ChromaServer:
    """`chroma run` (the CLI chromadb ships) on 127.0.0.1 with a temporary path."""

    def __init__(self, path: Path):
        self.path = path
        self.port = _free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> bool:
        code = "import sys; from chromadb.cli.cli import app; sys.exit(app())"
        log = open(self.path.parent / "chroma-server.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                code,
                "run",
                "--path",
                str(self.path),
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            stdout=log,
            stderr=log,
            stdin=subprocess.DEVNULL,
        )
        log.close()
        for _ in range(240):  # readiness poll, not a timing assertion
            if self.proc.poll() is not None:
                return False
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                conn.request("GET", "/api/v2/heartbeat")
                if conn.getresponse().status == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.25)
        return False

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


class TokenProxy:
    """Rejects requests without `X-Chroma-Token: TOKEN`, forwards the rest to the server."""

    def __init__(self, upstream_port: int):
        proxy = self
        self.upstream_port = upstream_port
        self.rejected = 0

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def _forward(self):
                if self.headers.get("X-Chroma-Token") != TOKEN:
                    proxy.rejected += 1
                    body = b'{"error": "Unauthorized"}'
                    self.send_response(401)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                length = int(self.headers.get("Content-Length") or 0)
                data = self.rfile.read(length) if length else None
                headers = {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower() not in ("host", "content-length", "connection")
                }
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", proxy.upstream_port, timeout=60)
                    conn.request(self.command, self.path, body=data, headers=headers)
                    resp = conn.getresponse()
                    payload = resp.read()
                except OSError:
                    self.send_response(502)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                self.send_response(resp.status)
                for key, value in resp.getheaders():
                    if key.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(key, value)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def chroma(tmp_path):
    server = ChromaServer(tmp_path / "chroma-data")
    if not server.start():
        server.stop()
        pytest.skip("`chroma run` did not start on 127.0.0.1 (see chroma-server.log)")
    proxy = TokenProxy(server.port)
    yield server, proxy
    proxy.close()
    server.stop()


@pytest.fixture
def teammates(tmp_path):
    """A bare origin and two clones of it (alice/app, bob/app) with .memory/ committed."""
    origin = tmp_path / "origin.git"
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    alice = tmp_path / "alice" / "app"
    bob = tmp_path / "bob" / "app"
    alice.parent.mkdir()
    bob.parent.mkdir()
    _git(alice.parent, "clone", "-q", str(origin), "app")
    assert run_cli("init", cwd=alice).returncode == 0
    assert (alice / ".memory" / ".gitattributes").read_text().count("merge=union") == 1
    _git(alice, "add", "-A")
    _git(alice, "commit", "-q", "-m", "memory")
    _git(alice, "push", "-q", "origin", "HEAD:main")
    _git(bob.parent, "clone", "-q", "-b", "main", str(origin), "app")
    return alice, bob


def test_two_teammates_share_a_chroma_server(chroma, teammates, monkeypatch):
    server, proxy = chroma
    alice, bob = teammates
    monkeypatch.setenv("LORESTACK_RETRIEVAL__CHROMA_URL", proxy.url)
    monkeypatch.setenv("LORESTACK_RETRIEVAL__CHROMA_TOKEN_ENV", "TEAM_CHROMA_TOKEN")
    monkeypatch.setenv("TEAM_CHROMA_TOKEN", TOKEN)

    proc = run_cli(
        "remember",
        "The payments service retries webhooks with exponential backoff for up to a day",
        "--type",
        "decision",
        cwd=alice,
    )
    assert proc.returncode == 0, proc.stderr
    assert run_cli("reindex", cwd=alice, timeout=300).returncode == 0
    _git(alice, "add", "-A")
    _git(alice, "commit", "-q", "-m", "webhook retries")
    _git(alice, "push", "-q", "origin", "HEAD:main")

    _git(bob, "pull", "-q", "--no-rebase", "origin", "main")
    query = "what happens when a webhook delivery keeps failing"
    proc = run_cli("search", query, "--mode", "vector", cwd=bob, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "webhooks with exponential backoff" in proc.stdout, proc.stdout + proc.stderr
    assert "warning" not in proc.stderr, proc.stderr

    import chromadb

    from lorestack.retrieval.vectors import chroma_settings

    direct = chromadb.HttpClient(host="127.0.0.1", port=server.port, settings=chroma_settings())
    names = sorted(c.name if hasattr(c, "name") else str(c) for c in direct.list_collections())
    ours = [n for n in names if n.startswith("lorestack-app-")]
    assert len(ours) == 2, names  # one namespace per project, one collection per clone
    assert proxy.rejected == 0

    # server down: search falls back to BM25 with a warning; nothing fails
    server.stop()
    proc = run_cli(
        "remember",
        "Nightly exports land in the cold storage bucket by 03:00",
        "--type",
        "fact",
        cwd=bob,
    )
    assert proc.returncode == 0, proc.stderr
    proc = run_cli("search", "cold storage bucket exports", cwd=bob, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "cold storage bucket" in proc.stdout
    assert "vector" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr

    # back up (same data path): the item written meanwhile is embedded on the next sync
    assert server.start(), "the Chroma server did not come back"
    proxy.upstream_port = server.port
    proc = run_cli(
        "search",
        "where do the nightly backups get copied",
        "--mode",
        "vector",
        cwd=bob,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "cold storage bucket" in proc.stdout, proc.stdout + proc.stderr


def test_a_wrong_token_degrades_to_bm25(chroma, teammates, monkeypatch):
    _server, proxy = chroma
    alice, _bob = teammates
    monkeypatch.setenv("LORESTACK_RETRIEVAL__CHROMA_URL", proxy.url)
    monkeypatch.setenv("LORESTACK_RETRIEVAL__CHROMA_TOKEN_ENV", "TEAM_CHROMA_TOKEN")
    monkeypatch.setenv("TEAM_CHROMA_TOKEN", "not-the-token")
    assert run_cli("remember", "Feature flags live in the flags service", cwd=alice).returncode == 0
    proc = run_cli("search", "feature flags service", cwd=alice, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "feature flags" in proc.stdout.lower()
    assert "vector" in proc.stderr and "Traceback" not in proc.stderr
    assert proxy.rejected > 0


def test_journal_days_merge_cleanly_between_teammates(teammates):
    alice, bob = teammates
    assert run_cli("log", "Alice moved the queue to redis streams", cwd=alice).returncode == 0
    assert (
        run_cli("log", "Bob found the flaky login test", "--kind", "blocker", cwd=bob).returncode
        == 0
    )
    for clone, msg in ((alice, "alice log"), (bob, "bob log")):
        _git(clone, "add", "-A")
        _git(clone, "commit", "-q", "-m", msg)
    _git(alice, "push", "-q", "origin", "HEAD:main")
    _git(bob, "pull", "-q", "--no-rebase", "origin", "main")  # a real merge of the same day
    assert "<<<<<<<" not in "".join(
        p.read_text() for p in (bob / ".memory" / "journal").glob("*.md")
    )
    proc = run_cli("list", "--type", "event", "--json", cwd=bob)
    assert proc.returncode == 0 and "warning" not in proc.stderr, proc.stderr
    texts = [e["body"] for e in json.loads(proc.stdout)]
    assert any("redis streams" in t for t in texts) and any("flaky login" in t for t in texts)
    _git(bob, "push", "-q", "origin", "HEAD:main")
    _git(alice, "pull", "-q", "--no-rebase", "origin", "main")
    proc = run_cli("list", "--type", "event", "--json", cwd=alice)
    assert len(json.loads(proc.stdout)) == 2


def test_a_server_that_never_answers_degrades_instead_of_hanging(repo, monkeypatch):
    """A host that accepts connections and then says nothing (a stuck proxy, a blackhole):
    chroma's own client would wait forever; lorestack gives up after chroma_timeout_s."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)  # the kernel completes handshakes; nobody ever answers
    try:
        port = listener.getsockname()[1]
        monkeypatch.setenv("LORESTACK_RETRIEVAL__CHROMA_URL", f"http://127.0.0.1:{port}")
        monkeypatch.setenv("LORESTACK_RETRIEVAL__CHROMA_TIMEOUT_S", "1")
        assert (
            run_cli("remember", "Invoices are archived after seven years", cwd=repo).returncode == 0
        )
        proc = run_cli("search", "invoice archive retention", cwd=repo, timeout=300)
        assert proc.returncode == 0, proc.stderr
        assert "seven years" in proc.stdout
        assert "unreachable" in proc.stderr and "Traceback" not in proc.stderr
    finally:
        listener.close()
