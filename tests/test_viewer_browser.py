"""The viewer end to end, in a real headless browser (Debian's chromium driven by Playwright).

Each test serves a seeded memory with `ViewerServer` on 127.0.0.1 and drives the pages as a
person would. Screenshots of every page land in $LORESTACK_TEST_ARTIFACTS (default: a
`lorestack-viewer-artifacts` folder in the temp dir).
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import yaml

from tests.conftest import run_cli
from tests.viewer_helpers import artifacts_dir, pending_claims, seed_memory, system_browser

BROWSER = system_browser()
try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the dev extra installs it
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(
        sync_playwright is None, reason="playwright is not installed (pip install -e '.[dev]')"
    ),
    pytest.mark.skipif(
        BROWSER is None, reason="no system chromium (apt-get install -y chromium; .ci/run does it)"
    ),
]


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def seeded(isolated):
    return seed_memory(isolated)


@pytest.fixture
def viewer(seeded, isolated):
    from lorestack.integrations.viewer.server import ViewerServer
    from lorestack.memory_layers.memory import Memory

    server = ViewerServer(Memory.open(isolated), run_doctor=False)
    started = server.start()
    yield started
    server.stop()


@pytest.fixture
def page(browser, viewer):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(viewer.url)  # sets the cookie, redirects to the bare URL
    yield page
    context.close()
    assert errors == [], f"script errors on the page: {errors}"


def shot(page, name: str) -> None:
    page.screenshot(path=str(artifacts_dir() / f"{name}.png"), full_page=True)


def url(viewer, path: str) -> str:
    return viewer.base.rstrip("/") + path


def read_item(repo: Path, item_id: str) -> tuple[Path, dict, str]:
    for path in (repo / ".memory").rglob("*.md"):
        text = path.read_text("utf-8")
        if f"\nid: {item_id}\n" in text:
            head, body = text.split("---\n", 2)[1:]
            return path, yaml.safe_load(head), body
    raise AssertionError(f"{item_id} not found on disk")


# ---- tests ---------------------------------------------------------------------------------
def test_overview_loads_with_every_layer(page, viewer):
    assert page.url == viewer.base  # the token left the address bar
    assert page.locator("h1").inner_text() == "Overview"
    rows = page.locator("table.layers tbody tr")
    assert rows.count() == 4
    layers = [rows.nth(i).locator("th").inner_text() for i in range(4)]
    assert layers == ["L1", "L2", "L3", "L4"]
    assert rows.nth(2).locator("td.num").first.inner_text() == "7"  # the seven events
    assert "3 claim(s) wait for review" in page.content()
    shot(page, "overview")


def test_requests_without_the_token_are_refused(browser, viewer, page):
    stranger = browser.new_context()
    try:
        response = stranger.new_page().goto(viewer.base)
        assert response.status == 403
        wrong = stranger.new_page().goto(viewer.base + "?token=not-the-token")
        assert wrong.status == 403
    finally:
        stranger.close()
    # a change from a page that knows the cookie but not the token (another local page)
    response = page.request.post(
        url(viewer, "/review"), form={"action": "reject", "ids": "x", "reason": "forged"}
    )
    assert response.status == 403
    # plain HTTP without anything, and a rebinding Host header even with the token
    assert httpx.post(url(viewer, "/doctor")).status_code == 403
    assert httpx.get(viewer.url, headers={"Host": f"evil.example:{viewer.port}"}).status_code == 403


def test_context_page_matches_the_cli(page, viewer, isolated):
    page.goto(url(viewer, "/context"))
    page.fill("input[name=query]", "job queue")
    page.fill("input[name=budget]", "400")
    page.click("button:text('assemble')")
    shown = page.locator("#context-text").text_content()
    shot(page, "context")
    cli = run_cli("context", "--query", "job queue", "--budget", "400", "--report", cwd=isolated)
    assert cli.returncode == 0, cli.stderr
    assert shown == cli.stdout
    assert (
        page.locator("#cli-command").inner_text()
        == "lorestack context --query 'job queue' --budget 400 --report"
    )
    # the same numbers per tier as the report
    report = cli.stderr
    assert page.locator("#budget-line").inner_text().split(";")[1].strip() in report
    for tier in ("resident", "catalog", "topk"):
        row = page.locator(f"tr.tier[data-tier={tier}]")
        used = row.locator(".used").inner_text()
        assert any(line.split()[:2] == [tier, used] for line in report.splitlines()), (tier, report)


def test_search_shows_the_explain_table(page, viewer, isolated, seeded):
    page.goto(url(viewer, "/search"))
    page.fill("input[name=q]", "PostgreSQL job queue")
    page.click("button:text('search')")
    table = page.locator("#explain")
    headers = table.locator("thead th").all_inner_texts()
    for column in ("BM25 rank", "vector rank", "fused", "decay", "final"):
        assert column in headers
    rows = table.locator("tbody tr")
    assert rows.count() >= 3
    ids = [rows.nth(i).locator("td").nth(1).inner_text() for i in range(rows.count())]
    assert ids[0] == seeded["decision"]
    shot(page, "search")
    cli = run_cli("search", "PostgreSQL job queue", "--explain", "--json", cwd=isolated)
    assert cli.returncode == 0, cli.stderr
    assert [hit["id"] for hit in json.loads(cli.stdout)] == ids
    first = json.loads(cli.stdout)[0]["explain"]
    cells = rows.nth(0).locator("td").all_inner_texts()
    assert cells[4] == str(first["bm25_rank"]) and cells[10] == f"{first['final']:.4f}"


def test_accept_and_reject_pending_claims(page, viewer, isolated, seeded):
    claims = {c.title: c for c in pending_claims(isolated)}
    redis = next(c for t, c in claims.items() if "Redis" in t)
    css = next(c for t, c in claims.items() if "tailwind" in t)
    page.goto(url(viewer, "/review"))
    card = page.locator(f"#claim-{redis.id}")
    assert seeded["decision"] in card.locator("h3").first.inner_text()  # what it replaces
    assert card.locator(".diff .d-add").inner_text().startswith("+Switch the job queue")
    assert "ev-" in card.locator("ul.events").inner_text()  # the cited event is shown
    shot(page, "review")
    card.locator("button[name=accept_one]").click()
    assert f"accepted {redis.id}" in page.locator(".flash").inner_text()
    # the files changed as `lorestack review accept` changes them
    path, head, _ = read_item(isolated, redis.id)
    assert head["status"] == "active" and head["supersedes"] == [seeded["decision"]]
    assert "proposed_supersedes" not in head and head["reviewed"] is True
    old_path, old_head, _ = read_item(isolated, seeded["decision"])
    assert "archive" in old_path.parts and old_head["superseded_by"] == redis.id

    page.locator(f"#claim-{css.id} input.pick").check()
    page.fill("fieldset.bulk input[name=reason]", "build detail, not worth keeping")
    page.click("fieldset.bulk button[value=reject]")
    assert f"rejected {css.id}" in page.locator(".flash").inner_text()
    path, head, _ = read_item(isolated, css.id)
    assert "archive" in path.parts and head["status"] == "archived"
    assert head["archived_reason"] == "rejected in review: build detail, not worth keeping"
    listed = json.loads(run_cli("review", "--json", cwd=isolated).stdout)["pending"]
    assert {c["id"] for c in listed} == {c.id for c in claims.values()} - {redis.id, css.id}
    shot(page, "review-after")


def test_an_edit_colliding_with_a_hand_edit_is_refused(page, viewer, isolated, seeded):
    item_id = seeded["fact"]
    page.goto(url(viewer, f"/items/{item_id}"))
    shot(page, "item")
    path, _, _ = read_item(isolated, item_id)
    hand = path.read_text("utf-8").replace("OpenSearch 2.x", "OpenSearch 2.13 (edited by hand)")
    path.write_text(hand, "utf-8")
    page.fill("textarea[name=body]", "Search uses Elasticsearch now")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.click("#edit-form button[type=submit]")
    assert answer.value.status == 409
    assert "changed on disk" in page.locator("#conflict").inner_text()
    assert path.read_text("utf-8") == hand  # nothing overwritten
    assert "edited by hand" in page.locator("#item-body").inner_text()  # shows the file as it is
    shot(page, "item-conflict")
    # now that the page shows the current file, the same edit goes through the store
    page.fill("textarea[name=body]", "Search uses Elasticsearch now")
    page.click("#edit-form button[type=submit]")
    assert "saved" in page.locator(".flash").inner_text()
    _, head, body = read_item(isolated, item_id)
    assert body.strip() == "Search uses Elasticsearch now" and head["id"] == item_id


def test_an_edit_with_a_secret_is_refused(page, viewer, isolated, seeded):
    item_id = seeded["fact"]
    path, _, _ = read_item(isolated, item_id)
    before = path.read_bytes()
    page.goto(url(viewer, f"/items/{item_id}"))
    page.fill(
        "textarea[name=body]",
        "the key is AKIAIOSFODNN7EXAMPLE with wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    )
    page.click("#edit-form button[type=submit]")
    assert "secret" in page.locator("#conflict").inner_text()
    assert path.read_bytes() == before


def test_stored_markup_is_text_never_script(page, viewer, seeded):
    for path in (
        "/items",
        f"/items/{seeded['hostile']}",
        "/search?q=Hostile+template",
        "/context?query=hostile+template",
    ):
        page.goto(url(viewer, path))
        assert page.evaluate("window.__pwned") is None, path
        assert "<script>window.__pwned = 1</script>" in page.locator("main").inner_text(), path
        assert page.locator("main script").count() == 0 and page.locator("main img").count() == 0
    shot(page, "escaping")


def test_other_pages_render(page, viewer, seeded, isolated):
    page.goto(url(viewer, "/journal"))
    assert page.locator("h2.day").count() == 4
    assert page.locator("aside .kind-blocker").count() == 1  # open blocker listed
    shot(page, "journal")
    page.goto(url(viewer, "/items?type=fact"))
    assert page.locator("table.items tbody tr").count() >= 3
    shot(page, "items")
    page.goto(url(viewer, "/criteria"))
    page.fill("#proposal", "Add a crontab entry to run the one-off backfill")
    page.click("button:text('check')")
    assert "block" in page.locator("#verdict").inner_text()
    page.click("table.criteria a:text('trace')")
    assert "crontab" in page.locator("#trace").inner_text()  # the forbidden term it found
    shot(page, "criteria")
    missing = page.goto(url(viewer, "/items/no-such-id"))
    assert missing.status == 404 and "no-such-id" in page.locator("main").inner_text()
    # a 1 MB body typed into the file by hand: the page renders the excerpt the store reads
    # (limits.max_file_bytes, 256 kB by default), never hangs or fails
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember

    written = remember(Memory.open(isolated), "Huge note", "fact")
    with open(written.path, "a", encoding="utf-8") as fh:
        fh.write("lorem ipsum dolor " * 58255)
    assert written.path.stat().st_size > 1_000_000
    response = page.goto(url(viewer, f"/items/{written.item.id}"))
    assert response.status == 200
    shown = len(page.locator("#item-body").text_content())
    assert 200_000 < shown < 300_000
