"""Forgetting: move what has served its purpose to `archive/`. Nothing is ever deleted.

- A journal day file moves to `archive/journal/` whole, once it is older than the TTL and
  every event in it has been consolidated (a file is append-only: it is renamed, never
  rewritten, and a day with an unparseable entry stays where a person can see it).
- An item is archived when its decayed importance (importance × Ebbinghaus retention, with
  recall reinforcement from the index's usage counts) falls below the threshold — except
  caveats, criteria and human-confirmed items, and the identity card/profile.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from lorestack.consolidation.actions import Action, World
from lorestack.memory_layers.memory import Memory

PROTECTED_TYPES = {"caveat", "criterion"}
SPECIAL_IDS = {"project", "profile"}


def _usage(mem: Memory, ids: list[str]) -> dict:
    """Access counts kept by the retrieval index, if it has any (best effort)."""
    path = mem.require_project().paths.index_dir / "usage.sqlite"
    if not path.exists() or not ids:
        return {}
    try:
        from lorestack.retrieval.usage import UsageStore

        store = UsageStore(path)
        try:
            return store.get(ids)
        finally:
            store.close()
    except Exception:  # noqa: BLE001 - a missing or busy usage file only means no reinforcement
        return {}


def _retention(mem: Memory, item, now: datetime, count: int, last) -> float:
    try:
        from lorestack.retrieval.decay import retention

        return retention(item.type, item.updated, now, mem.settings.decay, access_count=count,
                         last_access=last, human_confirmed=item.human_confirmed)
    except ImportError:  # retrieval not installed: same formula without reinforcement
        strength = float(getattr(mem.settings.decay, item.type, 0.0) or 0.0)
        if strength <= 0:
            return 1.0
        return math.exp(-max(0.0, (now - item.updated).total_seconds() / 86400) / strength)


def plan_forgetting(mem: Memory, world: World, processed: set[str], now: datetime) -> list[Action]:
    """Archive steps for expired, fully consolidated journal days and faded items."""
    settings = mem.settings.consolidation
    actions: list[Action] = []
    cutoff = (now - timedelta(days=settings.ttl_days)).date()
    journal = mem.require_project().journal
    for day in journal.days():
        if day >= cutoff:
            continue
        parsed = journal.read_day(day)
        if parsed.problems:
            continue
        if all(event.id in processed for event in parsed.events):
            actions.append(Action(op="archive_day", day=f"{day.isoformat()}.md",
                                  reason=f"older than {settings.ttl_days} days and consolidated"))
    live = []
    for item_id in sorted(world.by_id):
        loaded = world.live(item_id)
        if loaded is None or item_id in SPECIAL_IDS:
            continue
        item = loaded.item
        if item.type in PROTECTED_TYPES or item.human_confirmed:
            continue
        live.append(loaded)
    usage = _usage(mem, [li.item.id for li in live])
    for loaded in live:
        item = loaded.item
        count, last = usage.get(item.id, (0, None))
        decayed = item.importance * _retention(mem, item, now, count, last)
        if decayed < settings.archive_threshold:
            actions.append(Action(
                op="archive_item", target=item.id,
                reason=f"faded: decayed importance {decayed:.3f} < {settings.archive_threshold}"))
    return actions
