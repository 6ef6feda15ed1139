"""The MCP tools as plain functions: `tool(mem, **arguments) -> dict`.

Each calls the same operations as the CLI (so the secret guard, input limits and locks
apply alike) and raises `LorestackError` for anything the caller did wrong; the server
(`mcp_server.py`) opens the memory, turns those errors into tool errors, and takes each
tool's argument schema from its signature here (minus `mem`). Annotations are real objects
(no `from __future__ import annotations`) so the SDK reads them without evaluating strings.
"""

from typing import Any, Literal

from lorestack.memory_layers.memory import Memory

ItemType = Literal["fact", "decision", "caveat", "preference", "criterion"]


def remember(mem: Memory, text: str, type: ItemType = "fact", title: str | None = None,
             tags: list[str] | None = None, scope: Literal["project", "global"] = "project",
             supersedes: str | None = None, importance: float = 0.5,
             keywords: list[str] | None = None, paths: list[str] | None = None,
             forbid: list[str] | None = None, require: list[str] | None = None,
             verdict: Literal["warn", "block"] = "warn", rationale: str = "") -> dict[str, Any]:
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec, Source
    from lorestack.memory_layers.operations import remember as do_remember

    criterion = None
    drafted = None
    if type == "criterion":
        criterion = CriterionSpec(applies_to=AppliesTo(paths=paths or [], keywords=keywords or []),
                                  forbid=forbid or [], require=require or [], verdict=verdict,
                                  rationale=rationale)
        if mem.settings.guardrail.draft:
            from lorestack.guardrail.drafting import draft_criterion

            drafted = draft_criterion(mem.settings, text, criterion)
            criterion = drafted.spec
    written = do_remember(mem, text, type, title=title, tags=tags or [], scope=scope,
                          supersedes=supersedes, importance=max(0.0, min(1.0, importance)),
                          criterion=criterion, source=Source(kind="mcp"))
    out: dict[str, Any] = {
        "id": written.item.id, "type": written.item.type, "title": written.item.title,
        "path": str(written.path), "archived": str(written.archived) if written.archived else None}
    if written.duplicate_of:
        out["duplicate_of"] = written.duplicate_of
        out["note"] = "already remembered: the existing item was reinforced instead of storing a copy"
    spec = written.item.criterion
    if drafted is not None and spec is not None:
        out["draft"] = {"drafted_by": drafted.drafted_by, "notes": drafted.notes,
                        "applies_to": spec.applies_to.model_dump(), "forbid": spec.forbid,
                        "require": spec.require, "unless": spec.unless}
    return out


def recall(mem: Memory, query: str = "", mode: Literal["search", "context"] = "search",
           k: int = 8, budget: int | None = None,
           types: list[ItemType] | None = None) -> dict[str, Any]:
    from lorestack.memory_layers.models import now_utc
    from lorestack.retrieval.loader import assemble_context, search_hits
    from lorestack.retrieval.render_context import age_label

    if mode == "context" or not query.strip():
        result = assemble_context(mem, query=query or None, budget=budget)
        return {"context": result.text, "tokens": result.tokens, "budget": result.budget,
                "ids": result.ids}
    warnings: list[str] = []
    hits = search_hits(mem, query, k=max(1, min(k, 50)), mode="hybrid", sync=True,
                       warnings=warnings)
    now = now_utc()
    wanted = set(types or [])
    items = [{"id": h.id, "type": h.type, "title": h.title, "text": h.text,
              "age": age_label(h.time, now), "confidence": h.confidence,
              "score": h.score, "path": h.path}
             for h in hits if not wanted or h.type in wanted]
    return {"results": items, "warnings": warnings}


def forget(mem: Memory, id: str, reason: str) -> dict[str, Any]:
    from lorestack.memory_layers.operations import forget as do_forget

    return {"id": id, "archived_to": str(do_forget(mem, id, reason))}


def list_memories(mem: Memory,
                  type: Literal["fact", "decision", "caveat", "preference", "criterion",
                                "event"] | None = None,
                  layer: Literal["L1", "L2", "L3"] | None = None,
                  limit: int = 50) -> dict[str, Any]:
    from lorestack.memory_layers.models import now_utc
    from lorestack.memory_layers.operations import list_items
    from lorestack.retrieval.render_context import age_label

    listing = list_items(mem, item_type=type, layer=layer,
                         include_events=type == "event" or layer == "L3", redact=True)
    now = now_utc()
    rows = [{"id": i.id, "type": i.type, "layer": i.layer, "scope": i.scope, "title": i.title,
             "age": age_label(i.updated, now), "confidence": i.confidence}
            for i in listing.items]
    limit = max(1, min(limit, 500))
    return {"items": rows[-limit:], "total": len(rows)}


def check(mem: Memory, proposal: str, paths: list[str] | None = None) -> dict[str, Any]:
    from lorestack.guardrail.check import check as do_check
    from lorestack.guardrail.proposals import Proposal

    result = do_check(mem, Proposal(source="text", text=proposal, label="mcp",
                                    paths=list(paths or [])))
    out = result.model_dump(mode="json")
    if result.undecided:
        from lorestack.guardrail.replies import judge_request

        out["judge_request"] = judge_request(result)
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
