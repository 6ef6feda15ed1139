"""The MCP tools as plain functions: `tool(mem, **arguments) -> dict`.

Each calls the same operations as the CLI (so the secret guard, input limits and locks
apply alike) and raises `LorestackError` for anything the caller did wrong; the server
(`mcp_server.py`) opens the memory, turns those errors into tool errors, and takes each
tool's argument schema from its signature here (minus `mem`). Annotations are real objects
(no `from __future__ import annotations`) so the SDK reads them without evaluating strings.
"""

from typing import Any, Literal

from lorestack.app.opening import given as _given  # the server holds its memory open
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import FileItemType as ItemType
from lorestack.memory_layers.models import ItemType as AnyItemType


def remember(mem: Memory, text: str, type: ItemType = "fact", title: str | None = None,
             tags: list[str] | None = None, scope: Literal["project", "global"] = "project",
             supersedes: str | None = None, importance: float = 0.5,
             keywords: list[str] | None = None, paths: list[str] | None = None,
             forbid: list[str] | None = None, require: list[str] | None = None,
             verdict: Literal["warn", "block"] = "warn", rationale: str = "") -> dict[str, Any]:
    from lorestack.app.models import CriterionFields, RememberRequest
    from lorestack.app.writing import remember as app_remember

    written = app_remember(RememberRequest(
        text=text, type=type, title=title, tags=tags or [], scope=scope, supersedes=supersedes,
        importance=max(0.0, min(1.0, importance)), source="mcp",
        criterion=CriterionFields(paths=paths or [], keywords=keywords or [],
                                  forbid=forbid or [], require=require or [], verdict=verdict,
                                  rationale=rationale),
    ), _given(mem))
    item = written.item
    out: dict[str, Any] = {"id": item["id"], "type": item["type"], "title": item["title"],
                           "path": written.path, "archived": written.archived}
    if written.duplicate_of:
        out["duplicate_of"] = written.duplicate_of
        out["note"] = "already remembered: the existing item was reinforced instead of storing a copy"
    spec = item.get("criterion")
    if written.draft is not None and spec is not None:
        out["draft"] = {"drafted_by": written.draft.drafted_by, "notes": written.draft.notes,
                        "applies_to": spec.get("applies_to", {}), "forbid": spec.get("forbid", []),
                        "require": spec.get("require", []), "unless": spec.get("unless", [])}
    return out


def recall(mem: Memory, query: str = "", mode: Literal["search", "context"] = "search",
           k: int | None = None, budget: int | None = None,
           types: list[ItemType] | None = None) -> dict[str, Any]:
    """k defaults to the configured `retrieval.k`, the budget to `loader.budget`."""
    from datetime import datetime

    from lorestack.app.item_json import core
    from lorestack.app.models import ContextRequest, SearchRequest
    from lorestack.app.reading import context, search
    from lorestack.memory_layers.models import now_utc
    from lorestack.retrieval.render_context import age_label

    if mode == "context" or not query.strip():
        result = context(ContextRequest(query=query or None, budget=budget), _given(mem))
        return {"context": result.text, "tokens": result.tokens, "budget": result.budget,
                "ids": [_shown(mem, i) for i in result.ids]}
    found = search(SearchRequest(query=query, k=max(1, min(k, 50)) if k else None),
                   _given(mem))
    now = now_utc()
    wanted = set(types or [])
    # ids and paths holding a key typed by hand come redacted from `search` and `list_`
    items = [{**core(h), "age": age_label(datetime.fromisoformat(h["time"]), now),
              "score": h["score"]}
             for h in found.hits if not wanted or h["type"] in wanted]
    return {"results": items, "warnings": found.warnings}


def _shown(mem: Memory, name: str) -> str:
    """An id as the model sees it: one typed around a key by hand is sealed, as `list_memories`
    names it and `forget` finds it (an id the context named is sealed already)."""
    from lorestack.memory_layers.sealed_names import seal

    return seal(name, mem.settings.guard.entropy_threshold)


def forget(mem: Memory, id: str, reason: str) -> dict[str, Any]:
    from lorestack.app.models import ChangeRequest
    from lorestack.app.writing import change

    done = change(ChangeRequest(action="forget", id=id, reason=reason), _given(mem))
    return {"id": done.id, "archived_to": done.archived}  # sealed, as `list_memories` names it


def list_memories(mem: Memory,
                  type: AnyItemType | None = None,
                  layer: Literal["L1", "L2", "L3"] | None = None,
                  limit: int = 50) -> dict[str, Any]:
    from datetime import datetime

    from lorestack.app.item_json import core
    from lorestack.app.models import ListRequest
    from lorestack.app.reading import list_
    from lorestack.memory_layers.models import now_utc
    from lorestack.retrieval.render_context import age_label

    limit = max(1, min(limit, 500))
    # the last `limit` of the listing: only those are redacted and sent
    listing = list_(ListRequest(type=type, layer=layer, offset=-limit, limit=limit), _given(mem))
    now = now_utc()
    rows = [{**core(i), "age": age_label(datetime.fromisoformat(i["updated"]), now)}
            for i in listing.items]
    return {"items": rows, "total": listing.total}


def check(mem: Memory, proposal: str, paths: list[str] | None = None) -> dict[str, Any]:
    from lorestack.app.models import CheckRequest
    from lorestack.app.reading import check as app_check
    from lorestack.core.errors import LorestackError

    if not proposal.strip() and not paths:  # 'pass' would say something was checked
        raise LorestackError("nothing to check: give the proposal (a plan, a design or a diff) "
                             "or the paths it touches")
    answer = app_check(CheckRequest(text=proposal, label="mcp", paths=list(paths or [])),
                       _given(mem))
    out = dict(answer.result)
    if answer.judge_request is not None:
        out["judge_request"] = answer.judge_request
    return out


def read_special(mem: Memory, name: str) -> str | None:
    """project.md / profile.md, global first then the project's, redacted for the model;
    None when neither exists. Read through the safe reader: never through a link out of the
    memory folder, never a FIFO (InvalidItem / OSError name the file)."""
    import os

    from lorestack.memory_layers.safefiles import read_memory_file
    from lorestack.memory_layers.secret_guard import redact_for_reading

    parts = []
    for paths in filter(None, (mem.home, mem.project)):
        path = paths.root / name
        if not os.path.lexists(path):
            continue
        data = read_memory_file(path, paths.root, mem.settings.limits.max_file_bytes).data
        # a hand-edited card may hold a secret: the model sees it redacted
        parts.append(redact_for_reading(data.decode("utf-8", errors="replace"),
                                        mem.settings.guard.entropy_threshold)[0])
    return "\n\n".join(parts) if parts else None
