"""Neighbour-aware recall for conversational turns (retrieval/neighbours.py), on real files,
real tantivy, real Chroma and the real ONNX model: a short answer turn is found by what the
turns around it say, coding notes stay alone, and the settings switch each part off."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from lorestack.consolidation.bulk_import import ImportEvent, import_events
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import JournalEvent
from lorestack.memory_layers.operations import log_event
from lorestack.retrieval.documents import event_doc
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.neighbours import link_turns

START = datetime(2024, 5, 8, 18, 0, tzinfo=timezone.utc)
ASKED = datetime(2024, 6, 1, 9, 0, tzinfo=timezone.utc)

DAYS = {"s1": 0, "s2": 7, "s3": 14}  # the sessions' days after START
TALK = [  # (session, speaker, text)
    ("s1", "Bo", "We adopted a puppy last weekend, the kids are thrilled!"),
    ("s1", "Sami", "Really? What breed?"),
    ("s1", "Bo", "A corgi, two years old."),
    ("s1", "Sami", "Lovely. How is work going?"),
    ("s1", "Bo", "Busy, the quarterly report is due on Friday."),
    ("s2", "Sami", "I started pottery classes at the community centre."),
    ("s2", "Bo", "Which day?"),
    ("s2", "Sami", "Every Thursday evening."),
    ("s2", "Bo", "The traffic on the ring road was awful today."),
    ("s2", "Sami", "I finally fixed the leaking kitchen tap."),
    ("s3", "Bo", "The kids want a pet hamster for their birthday."),
    ("s3", "Sami", "Our neighbour's dog barks all night."),
    ("s3", "Bo", "I walked past the new pet shop on Elm Street."),
    ("s3", "Sami", "We are thinking about getting a cat."),
]


def _talk(mem: Memory) -> dict[str, str]:
    """Import the conversation through the bulk path; text -> event id."""
    events = [
        ImportEvent(
            id=f"t{n}",
            time=START + timedelta(days=DAYS[s], minutes=n),
            session=s,
            speaker=who,
            text=text,
        )
        for n, (s, who, text) in enumerate(TALK)
    ]
    result = import_events(mem, events, index=False)
    assert not result.warnings
    stored = {source: stored for stored, source in result.stored_ids.items()}
    return {text: stored[f"t{n}"] for n, (_s, _w, text) in enumerate(TALK)}


def _open(repo, **settings) -> Memory:
    return Memory.open(repo, **{f"retrieval.{k}": v for k, v in settings.items()})


def _search(mem: Memory, query: str, mode: str = "default"):
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        return index.search(query, k=10, mode=mode, now=ASKED, record_access=False), index
    finally:
        index.close()


def _ranked(hits, text: str):
    return next((n for n, h in enumerate(hits) if h.text == text), None)


# ---- linking ------------------------------------------------------------------------------
def test_turns_link_within_their_session_in_time_order_and_notes_stay_alone():
    t = START
    events = [
        JournalEvent(text="Bo: Guess what, we got a dog.", session="a", speaker="Bo", time=t),
        JournalEvent(text="Sami: no way", session="b", speaker="Sami", time=t),
        # written later in the file but said earlier: time order wins
        JournalEvent(
            text="Sami: What breed?", session="a", speaker="Sami", time=t + timedelta(minutes=2)
        ),
        JournalEvent(
            text="Bo: A corgi, two years old.",
            session="a",
            speaker="Bo",
            time=t + timedelta(minutes=3),
        ),
        JournalEvent(
            text="Bo: It is so small", session="a", speaker="Bo", time=t + timedelta(minutes=1)
        ),
        # a coding session's notes carry a session but no speaker: not a conversation
        JournalEvent(text="Refactored auth_service.py", session="a", time=t),
        JournalEvent(text="Pinned fastapi to 0.109.1", session="a", time=t),
    ]
    docs = [event_doc(e, START) for e in events]  # type: ignore[arg-type]
    link_turns(events, docs, chars=12)
    dog, other, breed, corgi, small, note1, note2 = docs
    assert (dog.prev_id, dog.next_id) == ("", small.id)
    assert (small.prev_id, small.next_id) == (dog.id, breed.id)
    assert (breed.prev_id, breed.next_id) == (small.id, corgi.id)
    assert (corgi.prev_id, corgi.next_id) == (breed.id, "")
    assert other.prev_id == other.next_id == ""
    for note in (note1, note2):
        assert (note.prev_id, note.next_id, note.before, note.after) == ("", "", "", "")
    # a little of each neighbour, cut at a word: the end of the one before, the start after
    assert corgi.before == "What breed?" and corgi.after == ""
    assert breed.after == "A corgi, two" and breed.before == "is so small"
    assert corgi.text == "Bo: A corgi, two years old."  # what is stored and shown is untouched


def test_no_neighbour_text_when_switched_off():
    events = [
        JournalEvent(text="Which day?", session="s", speaker="Bo", time=START),
        JournalEvent(
            text="Thursday.", session="s", speaker="Sami", time=START + timedelta(minutes=1)
        ),
    ]
    docs = [event_doc(e, START) for e in events]  # type: ignore[arg-type]
    link_turns(events, docs, chars=0)
    assert docs[1].prev_id == docs[0].id and docs[1].before == "" and docs[0].after == ""


# ---- BM25 over the neighbour field ---------------------------------------------------------
def test_answer_turn_is_found_by_the_question_before_it_and_the_setting_turns_it_off(repo):
    _talk(Memory.open(repo))
    on = _open(
        repo, neighbour_chars=200, neighbour_weight=0.3
    )
    hits, _ = _search(on, "Which breed is the dog?")
    corgi = next(h for h in hits if h.text == "A corgi, two years old.")
    # its own words share nothing with the query: BM25 reached it through "What breed?"
    assert corgi.explain["bm25_rank"] is not None
    assert corgi.text == "A corgi, two years old."
    # off: the index follows the setting on the next search (re-parsed, re-indexed)
    off = _open(repo, neighbour_chars=0)
    hits, _ = _search(off, "Which breed is the dog?")
    corgi = next((h for h in hits if h.text == "A corgi, two years old."), None)
    assert corgi is None or corgi.explain["bm25_rank"] is None


def test_plain_bm25_mode_ignores_the_neighbour_field(repo):
    _talk(Memory.open(repo))
    on = _open(repo, neighbour_chars=200, neighbour_weight=0.3)
    hits, _ = _search(on, "Which breed is the dog?", mode="bm25")
    assert "A corgi, two years old." not in [h.text for h in hits]


def test_coding_notes_in_a_session_are_indexed_alone(repo):
    mem = _open(repo, neighbour_chars=200, neighbour_weight=0.3)
    log_event(
        mem,
        "Investigated the flaky login test in tests/test_auth.py",
        "progress",
        session="claude-1",
        time=START,
    )
    log_event(
        mem,
        "Decided to retry ERR_POOL_TIMEOUT three times",
        "decision",
        session="claude-1",
        time=START + timedelta(minutes=1),
    )
    hits, index = _search(mem, "flaky login test")
    assert [h.text for h in hits][0].startswith("Investigated the flaky login test")
    assert all(
        "retry ERR_POOL_TIMEOUT" not in h.text or h.explain["bm25_rank"] is None for h in hits
    )
