"""A small shared corpus for the retrieval tests."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from lorestack.memory_layers.operations import log_event, remember

NOW = datetime.now(timezone.utc).replace(microsecond=0)

ITEMS = {
    "user": ("getUserById in auth_service.py must use the read replica, never the primary",
             "caveat"),
    "conn": ("Retries on ERR_CONN_RESET are capped at three attempts with jitter", "decision"),
    "jwt": ("API tokens are signed with RS256; the public keys live in keys/jwks.json", "decision"),
    "deploy": ("Releases ship to production through GitHub Actions deploying to Fly.io", "fact"),
    "tests": ("Run the unit tests with `make test`; integration tests need docker compose up",
              "fact"),
    "style": ("I prefer short pull requests with one concern each and a clear description",
              "preference"),
    "db": ("The primary database is PostgreSQL 16 with pgvector for embeddings", "fact"),
}
EVENTS = {
    "queue": "Discussed moving the background job queue from Celery to Redis streams",
    "rejected": "Rejected GraphQL for the public API: the team knows REST and OpenAPI tooling",
    "todo": "Todo: add rate limiting to the login endpoint before the launch",
}


def build_corpus(mem) -> dict[str, str]:
    """Write the corpus; return key -> id."""
    ids = {}
    for key, (text, item_type) in ITEMS.items():
        ids[key] = remember(mem, text, item_type).item.id
    for n, (key, text) in enumerate(EVENTS.items()):
        ids[key] = log_event(mem, text, "discussion", time=NOW - timedelta(hours=n + 1)).id
    return ids
