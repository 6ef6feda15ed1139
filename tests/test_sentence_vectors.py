"""Sentence vectors (retrieval.sentence_vectors, docs/recall.md §20): a turn that greets,
tells one thing and asks back is found by a question about the one thing it tells, where its
single whole-text vector loses to a one-topic turn nearer the question's words. Real parts:
the bulk import, Chroma and the MiniLM ONNX model."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from lorestack.consolidation.bulk_import import ImportEvent, import_events
from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.sentences import sentence_pieces

ASKED = datetime(2023, 7, 1, 9, 0, tzinfo=timezone.utc)
QUESTION = "Did Caroline get a new pet dog?"
LONG_TURN = ("Caroline: Hey Mel, so good to see you again! Work has been crazy this month and "
             "the kids keep me busy all day. Last Saturday I finally adopted a puppy from the "
             "shelter near the park. Anyway, how was your trip to Spain with your sister?")


def _turn(n: int, speaker: str, text: str) -> ImportEvent:
    return ImportEvent(id=f"D1:{n}", time=datetime(2023, 5, 8, 13, n, tzinfo=timezone.utc),
                       session=f"session_{n}", speaker=speaker, text=text)


CHAT = [
    _turn(1, "Caroline", LONG_TURN),
    _turn(2, "Melanie", "Melanie: My neighbour's cat keeps sneaking into our garden at night."),
    _turn(3, "Caroline", "Caroline: We went to the zoo and watched the lions being fed."),
    _turn(4, "Melanie", "Melanie: The vet said our old hamster needs a special diet now."),
    _turn(5, "Caroline", "Caroline: I bought a bird feeder for the balcony and the sparrows love it."),
    _turn(6, "Melanie", "Melanie: Spain was lovely, we ate paella every single day by the sea."),
]


@pytest.fixture
def chat_index(repo):
    def make(**settings):
        mem = Memory.open(repo, **settings)
        if not mem.journal.day_file(datetime(2023, 5, 8).date()).exists():
            result = import_events(mem, CHAT)
            assert result.events == len(CHAT) and not result.warnings
        index = MemoryIndex(mem, warn=lambda _m: None)
        index.sync()
        return index
    return make


def _dense_first(index) -> str:
    hits = index.search(QUESTION, k=3, mode="vector", now=ASKED, sync=False,
                        record_access=False)
    return hits[0].doc.id


def test_the_pieces_of_a_turn():
    pieces = sentence_pieces(LONG_TURN, "Caroline")
    assert pieces == [
        "Caroline: Hey Mel, so good to see you again!",
        "Caroline: Work has been crazy this month and the kids keep me busy all day.",
        "Caroline: Last Saturday I finally adopted a puppy from the shelter near the park.",
        "Caroline: Anyway, how was your trip to Spain with your sister?",
    ]
    assert sentence_pieces("Caroline: Wow. I love the new pottery class, it is so calming.",
                           "Caroline") == []  # "Wow." joins the next part: one piece
    assert sentence_pieces("Moved linting from flake8 to ruff.") == []  # one sentence
    # a piece under MIN_WORDS gets no vector; the whole text keeps its own
    assert sentence_pieces("Fixed the login bug. It was a race between two workers on the "
                           "session table.") == [
        "It was a race between two workers on the session table."]


def test_a_turn_is_found_by_the_sentence_a_question_is_about(chat_index):
    index = chat_index(**{"retrieval.sentence_vectors": True})
    try:
        assert index.vectors.count() == index.catalog.count_docs() + 4  # the long turn: 4 sentences
        assert _dense_first(index) == "D1:1"
    finally:
        index.close()


def test_without_sentence_vectors_the_whole_turn_loses(chat_index):
    index = chat_index(**{"retrieval.sentence_vectors": False})
    try:
        assert index.vectors.count() == index.catalog.count_docs()
        assert _dense_first(index) == "D1:3"  # the zoo turn: why the stage exists
    finally:
        index.close()


def test_switched_off_at_query_time_the_sentences_are_passed_over(chat_index):
    index = chat_index(**{"retrieval.sentence_vectors": True})  # built with them (the bench's `-sentences` ablation asks this way)
    try:
        settings = index.settings
        part = settings.retrieval.model_copy(update={"sentence_vectors": False})
        index.settings = settings.model_copy(update={"retrieval": part})
        assert _dense_first(index) == "D1:3"
    finally:
        index.close()
