"""Neighbouring turns of a conversation.

A turn often means nothing alone: "A corgi." answers "What breed?", and "Every Thursday."
says when the class the previous turn named takes place. At index time (`link_turns`) every
event with a session and a speaker learns the ids of the previous and next turn of that
session and a little of their text (`before` / `after`, `retrieval.neighbour_chars`); BM25
indexes that text in a separate field (`retrieval.neighbour_weight`, 2.5: on locomo-dev an
answer turn is best found by the words of the turn that asked it, docs/recall.md §13). The
loader no longer adds adjacent turns to the context (it changed nothing on locomo-dev,
docs/recall.md §16). The stored and displayed
text is untouched. Events without a session and a speaker (coding notes, prompts, decisions)
stand alone.

(A second vector per short turn and a query-time spread of a hit's score to its neighbours
were settings, off by default; they were removed with their code.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.models import JournalEvent
    from lorestack.retrieval.documents import IndexDoc


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
