"""The viewer without a browser: token rules, headers, pages, pagination, writes (HTTP level).

The browser tests (test_viewer_browser.py) drive the same pages in chromium; these run
everywhere, also where no browser can be installed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import httpx
import pytest
from starlette.testclient import TestClient

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import MemoryItem, Source
from lorestack.memory_layers.operations import log_event, remember

TOKEN = "test-token-123"
BASE = "http://127.0.0.1:8765"
COOKIE = "lorestack_ui_8765"


@pytest.fixture
def app(mem):
    from lorestack.integrations.viewer import create_app

    viewer = create_app(mem, TOKEN, run_doctor=False)
    yield viewer
    viewer.state.close()


@pytest.fixture
def client(app):
    c = TestClient(app, base_url=BASE, follow_redirects=False)
    c.cookies.set(COOKIE, TOKEN)
    return c


@pytest.fixture
def stranger(app):
    return TestClient(app, base_url=BASE, follow_redirects=False)


def test_token_in_the_url_becomes_a_cookie_and_leaves_the_url(stranger):
    assert stranger.get("/").status_code == 403
    assert stranger.get("/?token=wrong").status_code == 403
    answer = stranger.get(f"/items?type=fact&token={TOKEN}")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/items?type=fact"
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={TOKEN}") and "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    stranger.cookies.set(COOKIE, TOKEN)
    assert stranger.get("/items?type=fact").status_code == 200


def test_state_changing_requests_need_the_token_in_the_request(client, stranger, mem):
    written = remember(mem, "Ship on Tuesdays", "decision")
    before = written.path.read_bytes()
    checksum = _checksum(written.path)
    form = {"title": "Ship on Fridays", "body": "Ship on Fridays", "tags": "", "checksum": checksum}
    # the cookie alone (a page on another local port sends it too) is not enough
    assert client.post(f"/items/{written.item.id}/edit", data=form).status_code == 403
    # the token alone without the cookie neither
    assert (
        stranger.post(f"/items/{written.item.id}/edit", data={**form, "_token": TOKEN}).status_code
        == 403
    )
    assert written.path.read_bytes() == before
    ok = client.post(f"/items/{written.item.id}/edit", data={**form, "_token": TOKEN})
    assert ok.status_code == 303
    assert "Ship on Fridays" in written.path.read_text("utf-8")


def test_only_the_loopback_host_is_answered(app):
    evil = TestClient(app, base_url="http://evil.example:8765", follow_redirects=False)
    evil.cookies.set(COOKIE, TOKEN)
    assert evil.get("/").status_code == 403
    assert evil.get(f"/?token={TOKEN}").status_code == 403


def test_every_page_renders_with_safety_headers(client, mem):
    remember(mem, "Search uses OpenSearch", "fact")
    log_event(mem, "fix the flaky test", "todo")
    for path in (
        "/",
        "/context",
        "/context?query=search&budget=300&mode=bm25",
        "/items",
        "/journal",
        "/search?q=search&mode=bm25",
        "/review",
        "/criteria",
        "/criteria?proposal=add+a+cron+job",
    ):
        page = client.get(path)
        assert page.status_code == 200, (path, page.text[-500:])
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert page.headers["x-frame-options"] == "DENY"
        assert page.headers["server-timing"].startswith("app;dur=")


def test_unknown_ids_and_bad_input_get_pages_not_tracebacks(client):
    missing = client.get("/items/no-such-id")
    assert missing.status_code == 404 and "no-such-id" in missing.text
    assert client.get("/no/such/page").status_code == 404
    bad = client.get("/context?budget=lots")
    assert bad.status_code == 400 and "whole number" in bad.text
    assert client.get("/items?page=abc").status_code == 200
    assert client.get("/search?q=x&k=abc").status_code == 200
    nothing = client.post("/review", data={"_token": TOKEN, "action": "accept"})
    assert nothing.status_code == 303


def test_items_paginate(client, mem):
    store = mem.require_project().store
    for n in range(120):
        store.create(
            MemoryItem(
                id=f"fact-p{n:04d}", type="fact", title=f"Paged fact {n}", body=f"Paged fact {n}"
            )
        )
    first = client.get("/items?type=fact&q=paged")
    assert first.text.count('href="/items/fact-p') == 50 and "page 1 of 3" in first.text
    last = client.get("/items?type=fact&q=paged&page=3")
    assert last.text.count('href="/items/fact-p') == 20
    assert "page 3 of 3" in client.get("/items?type=fact&q=paged&page=99").text


def test_stored_markup_is_escaped(client, mem):
    hostile = "<script>alert(1)</script><b onmouseover=x>"
    written = remember(mem, f"Body {hostile}", "fact", title=f"Title {hostile}")
    for path in ("/items", f"/items/{written.item.id}"):
        html = client.get(path).text
        assert "<script>alert(1)</script>" not in html and "<b onmouseover" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_an_edit_against_a_changed_file_is_refused(client, mem):
    written = remember(mem, "Search uses OpenSearch 2.x", "fact")
    shown = _checksum(written.path)
    hand = written.path.read_text("utf-8").replace("2.x", "2.13")
    written.path.write_text(hand, "utf-8")
    answer = client.post(
        f"/items/{written.item.id}/edit",
        data={
            "_token": TOKEN,
            "title": "Search uses Elasticsearch",
            "body": "Search uses Elasticsearch",
            "tags": "",
            "checksum": shown,
        },
    )
    assert answer.status_code == 409 and "changed on disk" in answer.text
    assert written.path.read_text("utf-8") == hand
    archive = client.post(
        f"/items/{written.item.id}/archive",
        data={"_token": TOKEN, "reason": "old", "checksum": shown},
    )
    assert archive.status_code == 409 and written.path.read_text("utf-8") == hand


def test_review_refuses_a_claim_edited_since_the_page_was_shown(client, mem):
    store = mem.require_project().store
    claim = MemoryItem(
        id="dec-pending1",
        type="decision",
        title="Use Redis streams",
        body="Use Redis streams",
        status="pending",
        confidence=0.6,
        source=Source(kind="consolidation", events=[]),
    )
    path = store.create(claim)
    page = client.get("/review")
    assert "dec-pending1" in page.text
    shown = _checksum(path)
    path.write_text(path.read_text("utf-8").replace("Use Redis streams", "Use NATS"), "utf-8")
    answer = client.post(
        "/review",
        data={"_token": TOKEN, "accept_one": "dec-pending1", "sum_dec-pending1": shown},
        follow_redirects=True,
    )
    assert "changed on disk" in answer.text
    assert "status: pending" in path.read_text("utf-8")
    fresh = _checksum(path)
    done = client.post(
        "/review",
        data={
            "_token": TOKEN,
            "reject_one": "dec-pending1",
            "reason_dec-pending1": "not now",
            "sum_dec-pending1": fresh,
        },
        follow_redirects=True,
    )
    assert "rejected dec-pending1" in done.text
    archived = next((mem.project.root / "archive").rglob("*.md")).read_text("utf-8")
    assert "rejected in review: not now" in archived


def test_a_file_added_by_hand_appears_at_once_and_an_in_place_edit_after_a_full_sweep(
    app, client, mem
):
    client.get("/items")
    written = remember(mem, "Added from the CLI", "fact")
    assert written.item.id in client.get("/items").text
    text = written.path.read_text("utf-8").replace("Added from the CLI", "Renamed in place")
    written.path.write_text(text, "utf-8")
    app.state.inventory.refresh(force=True)
    assert "Renamed in place" in client.get("/items").text


def test_lorestack_ui_serves_and_prints_its_url(repo):
    remember(Memory.open(repo), "Served through the command", "fact")
    proc = subprocess.Popen(
        [sys.executable, "-m", "lorestack.cli", "ui", "--no-open", "--json"],
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    try:
        # one JSON line, as `ui --help` says (trial finding: it was indented over five lines,
        # so a script reading the line it was promised got '{')
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        started = json.loads(line)
        assert started["url"].startswith("http://127.0.0.1:")
        with httpx.Client(follow_redirects=True, timeout=30) as http:
            page = _get_when_up(http, started["url"])
            assert page.status_code == 200 and "Overview" in page.text
            base = started["url"].split("?")[0]
            assert http.get(base + "items").status_code == 200
            # a search while the start-up doctor may still hold its own index handle
            found = http.get(base + "search?q=served+command")
            assert found.status_code == 200 and "Served through the command" in found.text
        assert httpx.get(started["url"].split("?")[0]).status_code == 403
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _get_when_up(http: httpx.Client, url: str):
    import time

    deadline = time.monotonic() + 60
    while True:
        try:
            return http.get(url)
        except httpx.ConnectError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _checksum(path) -> str:
    from lorestack.memory_layers.fsutil import file_checksum

    return file_checksum(path)


def test_the_app_can_be_mounted_under_a_prefix(app, mem):
    """How the resident service can serve it: mount the same app; links follow the prefix."""
    from starlette.applications import Starlette
    from starlette.routing import Mount

    written = remember(mem, "Mounted fact", "fact")
    host = Starlette(routes=[Mount("/ui", app=app)])
    client = TestClient(host, base_url=BASE, follow_redirects=False)
    entry = client.get(f"/ui/items?token={TOKEN}")
    assert entry.status_code == 303 and entry.headers["location"] == "/ui/items"
    client.cookies.set(COOKIE, TOKEN)
    page = client.get("/ui/items")
    assert page.status_code == 200 and f'href="/ui/items/{written.item.id}"' in page.text
    assert 'href="/ui/static/viewer.css"' in page.text
    assert client.get("/ui/static/viewer.css").status_code == 200


def test_a_secret_typed_into_a_file_by_hand_is_shown_redacted(app, client, mem):
    # context and search show such a secret redacted; the pages did not (trial finding:
    # /journal, the event page and the cited events showed a ghp_ token typed into a day file)
    secret = "ghp_" + "Zq8rW2mXv4Lk9Tn3Bc7Hs1Pd6Fy0Ju5Ge2Ra"
    event = log_event(mem, "rotated the deploy key", "progress")
    written = remember(mem, "The deploy key lives in the vault", "fact", title="Deploy key")
    day = next((mem.project.root / "journal").glob("*.md"))
    day.write_text(day.read_text("utf-8").replace("rotated the deploy key",
                                                  f"rotated the deploy key to {secret}"), "utf-8")
    item = written.path.read_text("utf-8")
    written.path.write_text(item.replace("lives in the vault", f"is {secret}")
                            .replace("title: Deploy key", f"title: Deploy key {secret}"), "utf-8")
    app.state.inventory.refresh(force=True)
    for path in ("/journal", f"/items/{event.id}", "/items"):
        page = client.get(path).text
        assert "rotated the deploy key to [REDACTED" in page or path == "/items", path
        assert secret not in page, path
    page = client.get(f"/items/{written.item.id}").text
    shown = page.split('id="item-body">', 1)[1].split("</pre>", 1)[0]
    assert "[REDACTED" in shown and secret not in shown
    assert "<h1>Deploy key [REDACTED" in page
    # the edit form alone holds the file's own text: saving it must not rewrite the secret away
    assert secret in page.split("<textarea", 1)[1]


def test_the_review_diff_and_the_frontmatter_show_a_hand_typed_secret_redacted(
        app, client, mem):
    # review finding: the diff against the item a claim would replace and the item page's
    # frontmatter block were built from the raw text
    secret = "ghp_" + "Zq8rW2mXv4Lk9Tn3Bc7Hs1Pd6Fy0Ju5Ge2Ra"
    old = remember(mem, "Deploys read the key from the vault", "fact", title="Deploy key")
    old.path.write_text(old.path.read_text("utf-8").replace("from the vault", f"{secret}")
                        .replace("title: Deploy key", f"title: Deploy key {secret}"), "utf-8")
    store = mem.require_project().store
    store.create(MemoryItem(id="fact-pending2", type="fact", title="Deploys use OIDC",
                            body="Deploys use OIDC", status="pending", confidence=0.6,
                            proposed_supersedes=old.item.id,
                            source=Source(kind="consolidation", events=[])))
    app.state.inventory.refresh(force=True)
    review = client.get("/review").text
    assert 'class="diff"' in review and "[REDACTED" in review and secret not in review
    page = client.get(f"/items/{old.item.id}").text
    front = page.split('class="frontmatter">', 1)[1].split("</pre>", 1)[0]
    assert "[REDACTED" in front and secret not in front
