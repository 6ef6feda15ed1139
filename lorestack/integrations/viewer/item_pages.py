"""The item pages: the list of items (filtered, paged) and one item with its history."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timezone
from urllib.parse import quote

from starlette.exceptions import HTTPException
from starlette.requests import Request

from lorestack.core.errors import LorestackError
from lorestack.integrations.viewer.app import redirect, render
from lorestack.integrations.viewer.inventory import ItemSummary
from lorestack.integrations.viewer.pages import (
    ITEM_TYPES,
    STATUSES,
    _page,
    _paginate,
    _state,
)
from lorestack.integrations.viewer.state import ViewerState
from lorestack.memory_layers.sealed_names import seal


def items(request: Request):
    state = _state(request)
    params = request.query_params
    snap = state.inventory.snapshot()
    kind = params.get("type") or None
    layer = params.get("layer") or None
    status = params.get("status", "active") or None
    scope = params.get("scope") or None
    tag = (params.get("tag") or "").strip().lower() or None
    text = (params.get("q") or "").strip().lower() or None
    rows = [
        s
        for s in snap.items
        if (kind is None or s.type == kind)
        and (layer is None or s.layer == layer)
        and (status is None or s.status == status)
        and (scope is None or s.scope == scope)
        and (tag is None or tag in (t.lower() for t in s.tags))
        and (text is None or text in s.title.lower() or text == s.id)
    ]
    shown, pager = _paginate(rows, _page(request))
    tags = Counter(t for s in snap.items for t in s.tags).most_common(30)
    return render(
        request,
        "items.html",
        active="items",
        rows=shown,
        pager=pager,
        params=dict(params),
        status_filter=status or "",
        types=ITEM_TYPES,
        statuses=STATUSES,
        tags=tags,
        problems=snap.problems,
    )


def _chain(snap, start: ItemSummary, direction: str) -> list[ItemSummary | str]:
    """Older items this one replaced (`back`) or newer ones that replaced it (`forward`)."""
    out: list[ItemSummary | str] = []
    seen = {start.id}
    frontier = [start]
    while frontier and len(out) < 50:
        current = frontier.pop(0)
        if direction == "back":
            nxt = list(current.supersedes)
        else:
            nxt = (
                [current.superseded_by] if current.superseded_by else []
            ) + snap.superseded_by.get(current.id, [])
        for ref in nxt:
            if ref in seen:
                continue
            seen.add(ref)
            found = snap.by_id.get(ref)
            out.append(found if found is not None else ref)
            if found is not None:
                frontier.append(found)
    return out


def find_summary(state: ViewerState, item_id: str) -> ItemSummary | None:
    """The item a page address names: the id the pages print, or any name `show` takes (a seal
    printed under another guard.entropy_threshold, a short id), resolved by Memory.get."""
    snap = state.inventory.snapshot()
    summary = snap.by_id.get(item_id)
    if summary is not None:
        return summary
    try:
        found = state.mem.get(item_id)
    except LorestackError:
        return None
    return snap.by_id.get(seal(found.item.id, state.mem.settings.guard.entropy_threshold))


def _event_named(state: ViewerState, name: str) -> str | None:
    """The id the pages give the journal event `name` names (a raw id typed around a key, a
    seal printed under another threshold, a short id), found as `show` finds it."""
    from lorestack.memory_layers.event_archive import find_event

    try:
        found = find_event(state.mem, name)
    except LorestackError:
        return None
    if found is None:
        return None
    return seal(found.event.id, state.mem.settings.guard.entropy_threshold)


def item(request: Request):
    state = _state(request)
    item_id = request.path_params["item_id"]
    snap = state.inventory.snapshot()
    summary = snap.by_id.get(item_id)
    if summary is None:
        event = state.inventory.event(item_id)
        if event is None:
            threshold = state.mem.settings.guard.entropy_threshold
            summary = find_summary(state, item_id)
            named = summary.id if summary is not None else _event_named(state, item_id)
            if named is not None:  # to the page's own address (which its forms post to)
                return redirect(request, f"/items/{quote(named, safe='')}")
            raise HTTPException(404, "no memory item or journal event with id "
                                     f"'{seal(item_id, threshold)}'")
        return render(
            request,
            "event.html",
            active="journal",
            event=event,
            cited_by=[s for s in snap.items if event.id in s.events],
        )
    return render(request, "item.html", active="items", **item_context(request, summary))


def item_context(request: Request, summary: ItemSummary) -> dict:
    """Everything the item page shows, read from the file as it is now."""
    from lorestack.integrations.viewer.charts import retention_curve, retention_points

    state = _state(request)
    snap = state.inventory.snapshot()
    loaded = load_current(state, summary)
    count, last = state.usage(summary.id)
    now = datetime.now(timezone.utc)
    it = loaded.item
    anchor = max(it.updated, last) if last else it.updated
    points, age_now = retention_points(
        it.type,
        anchor,
        now,
        state.mem.settings.decay,
        access_count=count,
        human_confirmed=it.human_confirmed,
    )
    return {
        "it": it,
        "loaded": loaded,
        "summary": summary,
        "older": _chain(snap, summary, "back"),
        "newer": _chain(snap, summary, "forward"),
        "access_count": count,
        "last_access": last,
        "retention_now": _at(points, age_now),
        "curve": retention_curve(points, age_now),
        "events": [state.inventory.cited(eid) for eid in it.source.events],
        "frontmatter": _yaml(it.frontmatter()),
        "editable": it.status != "archived",
        "archivable": it.status != "archived" and it.id not in ("project", "profile"),
        "conflict": None,
        "form": None,
        "anchors": _anchor_states(state, it),
    }


def _anchor_states(state: ViewerState, item) -> list:
    """The code the item is about and whether it changed since ("may be stale")."""
    if not item.anchors or item.scope != "project":
        return []
    from lorestack.memory_layers.anchors import index_for, item_states

    # a page opened by the user is their own look, as `lorestack anchors` is: a moved symbol is
    # searched again (bounded as there), not read as the "not found" a hook kept
    index = index_for(state.mem, look_again=True)
    if index is None:
        return []
    states = item_states(index, item)
    index.save()
    return states


def load_current(state: ViewerState, summary: ItemSummary):
    """The item file as it is on disk now (with its checksum), found through the inventory."""
    store = state.mem.store_for("global" if summary.scope == "global" else "project")
    try:
        loaded = store.load_file(summary.path)
    except FileNotFoundError:  # moved or removed since the last sweep
        return state.mem.get(summary.id)
    if seal(loaded.item.id, state.mem.settings.guard.entropy_threshold) != summary.id:  # the file changed under us: look it up properly
        return state.mem.get(summary.id)
    return loaded


def _at(points, day: float) -> float:
    best = min(points, key=lambda p: abs(p.day - day))
    return best.retention


def _yaml(data: dict) -> str:
    import yaml

    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)
