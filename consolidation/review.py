"""Review of machine claims waiting in `pending`: list, accept, reject.

Accepting makes the claim active; if it was proposed to replace an item (a conflict with a
human-stated item, or any conflict while review is on), the old item moves to archive/ with
links both ways. Rejecting archives the claim with the reason: its key stays on disk, so
the same events never propose it again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lorestack.core.errors import ItemNotFound, LorestackError
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import MemoryItem


@dataclass
class PendingClaim:
    id: str
    type: str
    title: str
    text: str
    confidence: float
    events: list[str]
    replaces: str | None
    replaces_title: str | None
    path: Path
    created: object = None
    merges_into: str | None = None  # a person's item this claim would add its events to


@dataclass
class ReviewResult:
    accepted: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    archived: list[str] = field(default_factory=list)  # items replaced by accepted claims
    notes: list[str] = field(default_factory=list)


def _proposal(item: MemoryItem) -> str | None:
    return (item.model_extra or {}).get("proposed_supersedes")


def _merge_target(item: MemoryItem) -> str | None:
    return (item.model_extra or {}).get("proposed_merge_into")


def list_pending(mem: Memory, loaded=None) -> list[PendingClaim]:
    """Pending claims, oldest first; `loaded`: the project store's active items when the
    caller has read them already (`review` hands the same to `stale_items`)."""
    if loaded is None:
        loaded = mem.require_project().store.load_all(include_archived=False)
    titles = {li.item.id: li.item.title for li in loaded.items}
    out = []
    for li in loaded.items:
        item = li.item
        if item.status != "pending":
            continue
        target = _proposal(item)
        out.append(PendingClaim(
            id=item.id, type=item.type, title=item.title, text=item.body,
            confidence=item.confidence, events=list(item.source.events), replaces=target,
            replaces_title=titles.get(target) if target else None, path=li.path,
            created=item.created, merges_into=_merge_target(item)))
    out.sort(key=lambda p: (p.created, p.id))
    return out


def _pending(mem: Memory, item_id: str):
    """The claim named `item_id`: its id, a short id, or the sealed id review prints for one
    typed around a key (`Memory.get` resolves each)."""
    loaded = mem.get(item_id)
    if loaded.item.status != "pending" or mem.require_project().paths.root not in loaded.path.parents:
        raise LorestackError(f"'{_sealed(mem, loaded.item.id)}' is {loaded.item.status}, not "
                             "pending; `lorestack review` lists what waits for review")
    return loaded


def _sealed(mem: Memory, item_id: str) -> str:
    from lorestack.memory_layers.sealed_names import seal

    return seal(item_id, mem.settings.guard.entropy_threshold)


def _copy(loaded) -> MemoryItem:
    item = loaded.item.model_copy(deep=True)
    item.body = loaded.item.body
    return item


def accept(mem: Memory, ids: list[str]) -> ReviewResult:
    """Make pending claims active; carry out the replacements they proposed."""
    store = mem.require_project().store
    result = ReviewResult()
    for given in ids:
        current = mem.get(given)
        item_id = current.item.id  # links name the id in the file; what is written, its seal
        if current.item.status == "active" and current.item.anchors:
            # an item marked "may be stale": accepting says it still holds after the change
            from lorestack.memory_layers.anchor_edits import reanchor

            reanchor(mem, current.item.id)
            result.accepted.append(current.item.id)
            result.notes.append(f"{current.item.id}: re-anchored to the code as it is now")
            continue
        loaded = _pending(mem, given)
        item = _copy(loaded)
        if _merge_target(item):
            _accept_merge(mem, loaded, item, result)
            continue
        target = _proposal(item)
        data = item.frontmatter()
        data.pop("proposed_supersedes", None)
        data["status"] = "active"
        data["reviewed"] = True
        old = None
        if target:
            try:
                old = mem.require_project().store.find(target)
            except ItemNotFound:
                result.notes.append(f"{item_id}: {target} no longer exists; accepted as new")
            if old is not None and old.item.status == "archived":
                result.notes.append(f"{item_id}: {target} was already archived")
                old = None
            if old is not None:
                data["supersedes"] = sorted(set(data.get("supersedes") or []) | {target})
        new = MemoryItem.model_validate(data)
        new.body = item.body
        store.update(loaded, new)
        if old is not None:
            store.archive(old, reason=f"superseded by {_sealed(mem, item_id)} (accepted in "
                                      "review)", superseded_by=item_id)
            result.archived.append(old.item.id)
        result.accepted.append(item_id)
    return result


def _accept_merge(mem: Memory, loaded, item: MemoryItem, result: ReviewResult) -> None:
    """The person agreed: their item gains the claim's events as evidence (its text is left as
    they wrote it) and the proposal moves to archive/ saying where it went."""
    store = mem.require_project().store
    target_id = _merge_target(item) or ""
    try:
        target = store.find(target_id)
    except ItemNotFound:
        target = None
    if target is None or target.item.status == "archived":
        result.notes.append(f"{item.id}: {target_id} is gone or archived; nothing merged")
        return
    kept = _copy(target)
    events = sorted(set(kept.source.events) | set(item.source.events))
    kept.source = kept.source.model_copy(update={"events": events})
    from lorestack.consolidation.actions import _record_access
    from lorestack.consolidation.reconcile import reinforce

    kept.importance = reinforce(kept.importance, len(item.source.events))
    store.update(target, kept)
    _record_access(mem, [target_id])
    store.archive(loaded, reason=f"merged into {target_id} (accepted in review)")
    result.accepted.append(item.id)
    result.notes.append(f"{item.id}: its events now support {target_id}")


def reject(mem: Memory, ids: list[str], reason: str = "") -> ReviewResult:
    """Archive pending claims (never deleted); the same events will not propose them again."""
    store = mem.require_project().store
    result = ReviewResult()
    why = mem.guard(reason.strip(), redact=True, where="reason") if reason else "no reason given"
    for given in ids:
        loaded = _pending(mem, given)
        store.archive(loaded, reason=f"rejected in review: {why}")
        result.rejected.append(loaded.item.id)
    return result
