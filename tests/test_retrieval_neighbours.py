"""Neighbour-aware recall for conversational turns (retrieval/neighbours.py), on real files,
real tantivy, real Chroma and the real ONNX model: a short answer turn is found by what the
turns around it say, coding notes stay alone, and the settings switch each part off."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from lorestack.consolidation.bulk_import import ImportEvent, import_events
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import JournalEvent
from lorestack.memory_layers.operations import log_event
from lorestack.retrieval.documents import event_doc
from lorestack.retrieval.fusion import Fused
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.neighbours import link_turns, spread

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
        repo, neighbour_chars=200, neighbour_weight=0.3, neighbour_embed=False, neighbour_spread=0.0
    )
    hits, _ = _search(on, "Which breed is the dog?")
    corgi = next(h for h in hits if h.text == "A corgi, two years old.")
    # its own words share nothing with the query: BM25 reached it through "What breed?"
    assert corgi.explain["bm25_rank"] is not None
    assert corgi.text == "A corgi, two years old."
    # off: the index follows the setting on the next search (re-parsed, re-indexed)
    off = _open(repo, neighbour_chars=0, neighbour_embed=False, neighbour_spread=0.0)
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


# ---- the window vector ---------------------------------------------------------------------
def _chunks(mem: Memory, embedded: list[int] | None = None) -> dict[str, int]:
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        report = index.sync()
        if embedded is not None:
            embedded.append(report.embedded)
        return {doc_id: state.chunks for doc_id, state in index.catalog.doc_states().items()}
    finally:
        index.close()


def _similarities(mem: Memory, query: str) -> dict[str, float]:
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
        return dict(index.vectors.search(index._embed_query(query), 50))
    finally:
        index.close()


def test_window_vector_brings_a_short_answer_closer_to_its_question_and_follows_the_setting(repo):
    ids = _talk(Memory.open(repo))
    note = log_event(
        Memory.open(repo),
        "Reviewed the billing dashboard copy.",
        "progress",
        session="claude-1",
        time=START,
    ).id
    query = "On which day of the week is Sami's pottery class?"
    plain = _open(repo, neighbour_chars=200, neighbour_embed=False)
    assert set(_chunks(plain).values()) == {1}
    before = _similarities(plain, query)

    window = _open(repo, neighbour_chars=200, neighbour_embed=True)
    embedded: list[int] = []
    chunks = _chunks(window, embedded)
    firsts = {ids[text] for (_s, _w, text) in (TALK[0], TALK[5], TALK[10])}  # open a session
    assert embedded == [len(ids) - len(firsts)]  # switching it on re-embeds those turns only
    # every turn after another has its own vector and one of (turn before + turn); the
    # first turn of a session and the coding note only their own
    assert all(chunks[i] == (1 if i in firsts else 2) for i in ids.values())
    assert chunks[note] == 1
    after = _similarities(window, query)
    # "Which day?" means little alone; in its window it names the class and its day
    which_day = ids["Which day?"]
    assert after[which_day] > before[which_day] + 0.1
    # a turn's own vector still counts: one that matches by its own words keeps its score
    started = ids["I started pottery classes at the community centre."]
    assert after[started] >= before[started] - 1e-6
    assert after[note] == pytest.approx(before[note], abs=1e-5)

    # switched off again: the window vectors go away
    assert set(_chunks(plain).values()) == {1}
    assert _similarities(plain, query)[which_day] == pytest.approx(before[which_day], abs=1e-5)


# ---- spreading scores at query time ----------------------------------------------------------
def _doc(doc_id: str, prev_id: str = "", next_id: str = ""):
    event = JournalEvent(id=doc_id, text=doc_id, time=START)
    doc = event_doc(event, START)  # type: ignore[arg-type]
    doc.prev_id, doc.next_id = prev_id, next_id
    return doc


def test_spread_gives_adjacent_turns_a_share_and_brings_in_the_missing_answer():
    docs = {"q": _doc("q", "a0", "ans"), "x": _doc("x"), "a0": _doc("a0", "", "q")}
    store = {"ans": _doc("ans", "q", "")}
    fetched: list[list[str]] = []

    def fetch(ids):
        fetched.append(list(ids))
        return {i: store[i] for i in ids if i in store}

    hits = [
        Fused("q", 1.0, {"bm25": 1}),
        Fused("x", 0.45, {"bm25": 2}),
        Fused("a0", 0.2, {"vector": 5}),
    ]
    out = spread(hits, docs, 0.5, fetch)
    assert fetched == [["ans"]]
    scores = {f.id: round(f.score, 3) for f in out}
    # the answer after the question joins with half its score; the turn before gains too;
    # the unlinked hit keeps its own; the list keeps its length
    assert [f.id for f in out] == ["q", "a0", "ans"]
    assert scores == {"q": 1.1, "a0": 0.7, "ans": 0.5}
    assert out[2].ranks == {"neighbour": 1}
    assert spread(hits, docs, 0.0, fetch) is hits


def test_spread_in_the_default_pipeline_names_the_hit_it_came_from(repo):
    _talk(Memory.open(repo))
    mem = _open(repo, neighbour_chars=0, neighbour_embed=False, neighbour_spread=0.5)
    hits, _ = _search(mem, "pottery classes community centre")
    reached = [h for h in hits if "neighbour_of_rank" in h.explain]
    assert reached, [h.explain for h in hits]
    off = _open(repo, neighbour_chars=0, neighbour_embed=False, neighbour_spread=0.0)
    hits, _ = _search(off, "pottery classes community centre")
    assert not [h for h in hits if "neighbour_of_rank" in h.explain]


def test_only_short_turns_get_a_window_vector(repo):
    ids = _talk(Memory.open(repo))
    chunks = _chunks(_open(repo, neighbour_chars=20, neighbour_embed=True))
    assert chunks[ids["Which day?"]] == 2
    assert chunks[ids["Lovely. How is work going?"]] == 1
