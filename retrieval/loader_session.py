"""Session start without a query: remembered items before routine journal lines.

With no query there is no ranking to fill the top-k tier, and the journal alone would take
it: on a busy day forty "ran the tests" lines pushed every remembered fact out of a session
start. So, when nothing was searched:

- the remembered items the resident tier does not show (decisions, facts, preferences) come
  first, whole, in catalog priority (important, then recently updated);
- a day of many routine events (progress, note, discussion) keeps its notable events
  (todos, blockers, decisions, rejections) and its newest routine lines, and says how many
  others there were, of which kind, in one line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import datetime

from lorestack.memory_layers.sealed_names import unseal_path
from lorestack.retrieval.hits import LightHit
from lorestack.retrieval.render_context import (
    TokenMemo,
    bullet,
    event_group_heading,
    today_utc,
)

REMEMBERED_TYPES = ("decision", "fact", "preference")  # criteria and caveats are resident
REMEMBERED_MAX = 30
ROUTINE_KINDS = frozenset({"progress", "note", "discussion"})
ROUTINE_KEEP = 5  # newest routine events of a busy day shown whole


def remembered_hits(views, limit: int = REMEMBERED_MAX) -> list[LightHit]:
    """Active non-resident items, in catalog priority, as hits for the top-k tier."""
    out: list[LightHit] = []
    for view in views:
        for row in view.rows():
            if row.type in REMEMBERED_TYPES:
                path = unseal_path(str(view.root / row.path) if view.root else row.path)
                out.append(LightHit(row.id, "item", path))
                if len(out) >= limit:
                    return out
    return out


def summarise_routine(events: Sequence, now: datetime, memo: TokenMemo):
    """(events to show whole, one summary block per busy day) from a day-sorted journal."""
    from lorestack.retrieval.loader_blocks import Block

    by_day: dict = {}
    for event in events:
        by_day.setdefault(today_utc(event.time), []).append(event)
    keep: list = []
    summaries: list = []
    for day, day_events in by_day.items():
        routine = [e for e in day_events if e.kind in ROUTINE_KINDS]
        if len(routine) <= 2 * ROUTINE_KEEP:
            keep.extend(day_events)
            continue
        hidden = routine[:-ROUTINE_KEEP]
        hidden_ids = {e.id for e in hidden}
        keep.extend(e for e in day_events if e.id not in hidden_ids)
        kinds = Counter(e.kind for e in hidden)
        spelled = ", ".join(f"{n} {kind}" for kind, n in kinds.most_common())
        text = bullet(f"{len(hidden)} earlier routine events not shown ({spelled})")
        head = event_group_heading(day, None, now)
        summaries.append(Block(
            "topk", None, "event", text, memo(text), "journal", hidden[0].time.timestamp(),
            group=f"ev\x1f{day}\x1f", head=head, head_tokens=memo(head),
            group_order=f"1{day}", raw=text))
    return keep, summaries
