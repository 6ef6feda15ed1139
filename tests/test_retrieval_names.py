"""A person's name in a question: BM25 in the default pipeline does not count a turn that only
names the person ("Thanks, Gus!") as a hit, while the name still adds its score to the turns
that match the rest of the question (retrieval.name_only_hits, docs/recall.md §11)."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from lorestack.consolidation.bulk_import import ImportEvent, import_events
from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.speakers import name_words

ASKED = datetime(2023, 7, 1, 9, 0, tzinfo=timezone.utc)


def _turn(n: int, speaker: str, text: str) -> ImportEvent:
    return ImportEvent(id=f"D1:{n}", time=datetime(2023, 5, 8, 13, n, tzinfo=timezone.utc),
                       session=f"session_{n}", speaker=speaker, text=text)  # no neighbours


CHAT = [
    _turn(1, "Sami", "Thanks, Gus!"),
    _turn(2, "Sami", "Gus, good to hear from you, Gus."),
    _turn(3, "Gus", "We went camping at the lake with the kids, a great weekend."),
    _turn(4, "Sami", "I went camping in the forest once, and it rained all the time."),
    _turn(5, "Gus", "The new job starts on Monday."),
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


def _bm25_ids(index, query: str) -> set[str]:
    hits = index.search(query, k=10, mode="default", now=ASKED, sync=False,
                        record_access=False, explain=True)
    return {h.doc.id for h in hits if h.explain.get("bm25_rank") is not None}


def test_the_name_words_a_question_says():
    known = {"Gus", "Sami", "Ana Silva"}
    assert name_words("Where has Gus camped?", known) == {"gus"}
    assert name_words("What do Gus and Sami both like?", known) == {"gus", "sami"}
    assert name_words("What did Ana say?", known) == {"ana"}
    assert name_words("Augusta called", known) == frozenset()
    assert name_words("what does the user want", {"user", "Gus"}) == frozenset()


def test_a_turn_naming_the_person_alone_is_no_bm25_hit(chat_index):
    index = chat_index()
    try:
        found = _bm25_ids(index, "Where has Gus camped?")
        assert {"D1:3", "D1:4"} <= found  # both camping turns, whoever said them
        assert not found & {"D1:1", "D1:2"}  # "Thanks, Gus!" matches the name only
        lexical = index.lexical.search("Where has Gus camped?", 10, names=frozenset({"gus"}))
        assert lexical[0][0] == "D1:3"  # the name still adds its score: Gus's camping first
    finally:
        index.close()


def test_with_the_setting_on_the_name_alone_is_a_hit_again(chat_index):
    index = chat_index(**{"retrieval.name_only_hits": True})
    try:
        assert {"D1:1", "D1:2", "D1:3"} <= _bm25_ids(index, "Where has Gus camped?")
    finally:
        index.close()


def test_a_question_of_names_alone_still_finds_their_turns(chat_index):
    index = chat_index()
    try:
        assert {"D1:1", "D1:2"} <= _bm25_ids(index, "Gus?")
    finally:
        index.close()


def test_the_dense_query_without_the_names():
    from lorestack.retrieval.speakers import without_names

    gus = frozenset({"gus"})
    assert without_names("What do Gus's kids like?", gus) == "What do kids like?"
    assert without_names("Where has Gus camped?", gus) == "Where has camped?"
    assert without_names("Did Gus and Sami meet?", frozenset({"gus", "sami"})) == "Did and meet?"
    assert without_names("Gus?", gus) == "Gus?"  # nothing else left: the query as asked
    assert without_names("Where has Gus camped?", frozenset()) == "Where has Gus camped?"
    assert without_names("Augusta called", gus) == "Augusta called"


@pytest.mark.parametrize(("setting", "embedded"), [
    ("keep", {"Where has Gus camped?"}),
    ("drop", {"Where has camped?"}),
    ("both", {"Where has Gus camped?", "Where has camped?"}),
])
def test_which_dense_queries_the_default_embeds(chat_index, setting, embedded):
    index = chat_index(**{"retrieval.dense_names": setting})
    try:
        hits = index.search("Where has Gus camped?", k=5, mode="default", now=ASKED,
                            sync=False, record_access=False)
        assert set(index._query_vectors) == embedded  # the real model embedded exactly these
        assert hits and hits[0].doc.id in {"D1:3", "D1:4"}  # a camping turn leads either way
    finally:
        index.close()


def test_explain_gives_the_rank_in_the_name_free_dense_ranking(chat_index):
    from click.testing import CliRunner

    from lorestack.cli.main import cli

    index = chat_index()
    try:
        hits = index.search("Where has Gus camped?", k=5, mode="default", now=ASKED,
                            sync=False, record_access=False, explain=True)
        ranks = {h.doc.id: h.explain["vector_plain_rank"] for h in hits}
        # the ranks are those of the dense search for "Where has camped?" itself
        own = [doc_id for doc_id, _ in index.vectors.search(
            index._embed_query("Where has camped?"), 50)]
        assert ranks and all(r == own.index(doc_id) + 1 for doc_id, r in ranks.items() if r)
        assert ranks["D1:3"] and ranks["D1:4"]  # both camping turns are in that ranking
        unnamed = index.search("camping in the forest", k=5, mode="default", now=ASKED,
                               sync=False, record_access=False, explain=True)
        assert unnamed and all("vector_plain_rank" not in h.explain for h in unnamed)
    finally:
        index.close()
    shown = CliRunner().invoke(cli, ["search", "Where has Gus camped?", "--explain", "-k", "3"])
    assert shown.exit_code == 0, shown.output
    assert shown.output.count("vector (names left out) rank=") == 3
    plain = CliRunner().invoke(cli, ["search", "camping in the forest", "--explain", "-k", "3"])
    assert plain.exit_code == 0 and "names left out" not in plain.output

