"""One JSON shape for a memory item (or journal event) wherever a list of them leaves lorestack:
`list --json`, `search --json`, the MCP tools `list_memories` and `recall`.

Every such item carries the same core keys with the same meaning (docs/guide.md, "Items in
--json"); each surface adds its own on top (`list`: the whole frontmatter and `body`;
`search`: `score`, `explain`; MCP: `age`), and keeps the keys it printed before.
"""

from __future__ import annotations

from typing import Any

# id, type, layer (L1 | L2 | L3), scope, status (active | pending | archived | superseded),
# title, text (title and body, as indexed and shown), path (its file), time (last updated; an
# event's time; ISO 8601), confidence, tags
ITEM_KEYS = ("id", "type", "layer", "scope", "status", "title", "text", "path", "time",
             "confidence", "tags")


def listed_item(item, frontmatter: dict[str, Any], path: str) -> dict[str, Any]:
    """A `list` row: the frontmatter and body as before, with the core keys added."""
    # an event's text is the event as written (its title is only its first line)
    text = item.body.strip() if item.type == "event" else item.text
    return {**frontmatter, "body": item.body, "path": path, "layer": item.layer,
            "status": item.current_status, "text": text, "time": item.updated.isoformat(),
            "tags": list(item.tags)}


def hit_item(hit: dict[str, Any], tags: list[str]) -> dict[str, Any]:
    """A `search` hit (`ScoredDoc.as_dict()`) with the core keys it lacked."""
    return {**hit, "tags": list(tags)}


def core(row: dict[str, Any]) -> dict[str, Any]:
    """The core keys of a row from either, in their order."""
    return {key: row.get(key) for key in ITEM_KEYS}


def named(row: dict[str, Any], threshold: float) -> dict[str, Any]:
    """`row` with its id and path redacted when its id or file name holds a key typed by hand
    (the sync tells the user to rename the file); every surface shows such an item alike, the
    path one folder or file name at a time (`secret_spots.shown_name`)."""
    from lorestack.retrieval.secret_spots import shown_name

    item_id, path = str(row.get("id") or ""), str(row.get("path") or "")
    shown_id, shown_path = shown_name(item_id, path, threshold)
    if (shown_id, shown_path) == (item_id, path):
        return row
    return {**row, "id": shown_id, "path": shown_path if path else row.get("path")}
