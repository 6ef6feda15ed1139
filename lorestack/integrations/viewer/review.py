"""The review page: claims consolidation left pending, what they replace, what they cite.

Listing comes from the inventory (no parse of every file); accepting and rejecting are in
`actions.review`, through `consolidation.review.accept` / `reject` as `lorestack review` does.
"""

from __future__ import annotations

import difflib

from starlette.requests import Request

from lorestack.core.errors import LorestackError
from lorestack.integrations.viewer.app import render
from lorestack.integrations.viewer.pages import _state, load_current
from lorestack.integrations.viewer.state import ViewerState


def pending_claims(state: ViewerState) -> list:
    """What `consolidation.review.list_pending` returns, from the inventory (no full parse)."""
    from lorestack.consolidation.review import PendingClaim

    snap = state.inventory.snapshot()
    project = state.mem.project.root if state.mem.project else None
    out = []
    for s in snap.items:
        if s.status != "pending" or project is None or project not in s.path.parents:
            continue
        try:
            loaded = load_current(state, s)
        except LorestackError:
            continue
        it = loaded.item
        target = s.proposed_supersedes
        replaced = snap.by_id.get(target) if target else None
        # ids as the summary holds them, sealed as `list` and `lorestack review` print them (a
        # claim typed around a key by hand); the form posts them back, `Memory.get` resolves them
        out.append(
            PendingClaim(
                id=s.id,
                type=it.type,
                title=it.title,
                text=it.body,
                confidence=it.confidence,
                events=list(s.events),
                replaces=target,
                replaces_title=replaced.title if replaced else None,
                path=loaded.path,
                created=it.created,
            )
        )
    out.sort(key=lambda p: (p.created, p.id))
    return out


def review_rows(state: ViewerState) -> list[dict]:
    from lorestack.memory_layers.fsutil import file_checksum

    rows = []
    snap = state.inventory.snapshot()
    for claim in pending_claims(state):
        old = snap.by_id.get(claim.replaces) if claim.replaces else None
        diff: list[tuple[str, str]] = []
        if old is not None:
            old_text = load_current(state, old).item.text
            new_text = (
                f"{claim.title}\n\n{claim.text}".strip()
                if claim.text.strip() != claim.title
                else claim.title
            )
            for line in difflib.unified_diff(
                old_text.splitlines(),
                new_text.splitlines(),
                fromfile=old.id,
                tofile=claim.id,
                lineterm="",
                n=3,
            ):
                kind = (
                    "head"
                    if line.startswith(("---", "+++", "@@"))
                    else "add"
                    if line.startswith("+")
                    else "del"
                    if line.startswith("-")
                    else "same"
                )
                diff.append((kind, line))
        rows.append(
            {
                "claim": claim,
                "checksum": file_checksum(claim.path) or "",
                "events": [state.inventory.cited(eid) for eid in claim.events],
                "old": old,
                "diff": diff,
            }
        )
    return rows


def review(request: Request):
    state = _state(request)
    return render(request, "review.html", active="review", rows=review_rows(state))
