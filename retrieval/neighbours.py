"""Neighbour-aware recall for conversational turns.

A turn of a conversation often means nothing alone: "A corgi." answers "What breed?", and
"Every Thursday." says when the class the previous turn named takes place. A question about
the dog's breed shares no word with the turn that holds the answer. Two remedies, each with
its own setting (`retrieval.neighbour_*`):

- index time (`link_turns`): every event with a session and a speaker learns the ids of the previous and
  next turn of that session, and a little of their text (`before` / `after`). BM25 indexes
  that text in a separate, low-weight field, and the dense index holds a second vector of a
  short turn (no longer than the neighbour text kept per side) in its window — the end of
  the previous turn, then the turn — next to the turn's own vector, so it is found by either
  (`window_text`).
  Long turns say enough alone and skip it, which bounds the embedding cost. The stored and
  displayed text is untouched.
- query time (`spread`): after fusion, a hit's adjacent turns gain a share of its fused score,
  so the answer right after a matching question (or the question before a matching answer)
  joins the candidates.

Events without a session and a speaker (coding notes, prompts, decisions) get neither:
they stand alone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.models import JournalEvent
    from lorestack.retrieval.documents import IndexDoc
    from lorestack.retrieval.fusion import Fused


def _head(text: str, chars: int) -> str:
    text = " ".join(text.split())
    if len(text) <= chars:
        return text
    cut = text[: chars + 1]  # one more: a space right after the limit is a clean cut
    return cut[: cut.rfind(" ")] if " " in cut else cut[:chars]


def _tail(text: str, chars: int) -> str:
    text = " ".join(text.split())
    if len(text) <= chars:
        return text
    cut = text[-(chars + 1) :]
    return cut[cut.find(" ") + 1 :] if " " in cut else cut[-chars:]


def link_turns(events: Sequence[JournalEvent], docs: Sequence[IndexDoc], chars: int) -> None:
    """Link each session's turns (in time order, file order on ties) to their neighbours.

    `docs[i]` is the indexed view of `events[i]` (already redacted, so the neighbour text
    never carries a secret). `chars` = how much of each neighbour's text to keep; 0 keeps
    the links only.
    """
    sessions: dict[str, list[int]] = {}
    for i, event in enumerate(events):
        # a conversation's turns name their speaker; a coding session's notes do not, and
        # there adjacent notes are often unrelated (linking them cost the code bench recall)
        if event.session and event.speaker:
            sessions.setdefault(event.session, []).append(i)
    for members in sessions.values():
        members.sort(key=lambda i: events[i].time)  # stable: file order among equal times
        for a, b in zip(members, members[1:]):
            first, second = docs[a], docs[b]
            first.next_id, second.prev_id = second.id, first.id
            if chars > 0:
                # the end of the turn before leads into this one; the start of the next answers it
                # (what was said: a "Speaker: " prefix is left to the speaker field)
                second.before = _tail(first.said[1], chars)
                first.after = _head(second.said[1], chars)


def wants_window(doc: IndexDoc, chars: int) -> bool:
    """Whether a linked turn is short enough to get a vector of its window too."""
    return bool(doc.before) and len(doc.text) <= chars


def window_text(doc: IndexDoc) -> str:
    """The turn after the end of the one before it: the second vector of a short turn.

    Only the turn before (the question it answers, the topic it continues): with the next
    turn too, every neighbour of a strong turn carried it and crowded other evidence out of
    the candidates (generated chat, seeds 1-5: context_all@2000 .998 -> .991), at more cost.
    """
    return "\n".join(part for part in (doc.before, doc.said[1]) if part)


def spread(
    hits: list[Fused],
    docs: dict[str, IndexDoc],
    share: float,
    fetch: Callable[[list[str]], dict[str, IndexDoc]],
) -> list[Fused]:
    """Hits re-scored: each gains `share` x the best fused score of its adjacent turns.

    A neighbour that was not a hit joins with that gain alone (its doc fetched and added to
    `docs`). Scores use the fused values from before the spread, so gains do not chain.
    """
    from lorestack.retrieval.fusion import Fused

    if share <= 0 or not hits:
        return hits
    base = {h.id: h.score for h in hits}
    gain: dict[str, float] = {}
    source: dict[str, int] = {}
    for rank, h in enumerate(hits, start=1):
        doc = docs.get(h.id)
        if doc is None:
            continue
        for near in (doc.prev_id, doc.next_id):
            if near and share * h.score > gain.get(near, 0.0):
                gain[near] = share * h.score
                source[near] = rank
    if not gain:
        return hits
    missing = [i for i in gain if i not in base]
    if missing:
        docs.update(fetch(missing))
    by_id = {h.id: h for h in hits}
    for doc_id, extra in gain.items():
        entry = by_id.get(doc_id)
        if entry is None:
            if doc_id not in docs:
                continue  # a link to a turn no longer indexed
            entry = by_id[doc_id] = Fused(doc_id, 0.0)
        entry.score += extra
        entry.ranks["neighbour"] = source[doc_id]
    ranked = sorted(by_id.values(), key=lambda f: (-f.score, min(f.ranks.values())))
    return ranked[: len(hits)]
