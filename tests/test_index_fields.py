"""Speaker, session and resolved dates as index fields: written by the import path, kept by the
journal files, rebuilt by `reindex`, stored in tantivy, Chroma and the catalog, and used —
BM25 and the date retriever match a question naming a day to an event that said "last
Saturday", and the default pipeline favours the speaker a question names."""

from __future__ import annotations

import json
from datetime import date, datetime, timezone

import pytest

from lorestack.consolidation.bulk_import import ImportEvent, import_events
from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.temporal import DateRetriever, date_mentions, date_terms, parse_date_query

SAID = datetime(2023, 5, 8, 13, 56, tzinfo=timezone.utc)  # a Monday
ASKED = datetime(2023, 7, 1, 9, 0, tzinfo=timezone.utc)


def _at(day: int, hour: int, minute: int = 0, month: int = 5) -> datetime:
    return datetime(2023, month, day, hour, minute, tzinfo=timezone.utc)


CHAT = [
    ImportEvent(
        id="D1:1",
        time=_at(8, 13, 56),
        session="session_1",
        speaker="Gus",
        text="Last Saturday I ran my first obstacle race, mud everywhere.",
    ),
    ImportEvent(
        id="D1:2",
        time=_at(8, 13, 57),
        session="session_1",
        speaker="Sami",
        text="No way, how did it go?",
    ),
    ImportEvent(
        id="D1:3",
        time=_at(8, 13, 58),
        session="session_1",
        speaker="Gus",
        text="Finished in the top fifty.",
    ),
    ImportEvent(
        id="D2:1",
        time=_at(12, 18),
        session="session_2",
        speaker="Sami",
        text="I adopted a puppy yesterday, a beagle called Rex.",
    ),
    ImportEvent(
        id="D2:2",
        time=_at(12, 18, 1),
        session="session_2",
        speaker="Gus",
        text="I adopted a puppy too, a small terrier.",
    ),
    ImportEvent(
        id="D3:1",
        time=_at(20, 10),
        session="session_3",
        speaker="Gus",
        text="Booked the flights for the wedding.",
    ),
]


@pytest.fixture
def chat(mem):
    result = import_events(mem, CHAT)
    assert result.events == len(CHAT) and not result.warnings
    index = MemoryIndex(mem, warn=lambda _m: None)
    index.sync()
    yield mem, index
    index.close()


# ---- resolution -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text,first,last",
    [
        ("Last Saturday I ran a race", date(2023, 5, 6), date(2023, 5, 6)),
        ("yesterday we shipped it", date(2023, 5, 7), date(2023, 5, 7)),
        ("the day before yesterday", date(2023, 5, 6), date(2023, 5, 6)),
        ("a couple of days ago", date(2023, 5, 6), date(2023, 5, 6)),
        ("next Friday is the demo", date(2023, 5, 12), date(2023, 5, 12)),
        ("in two days", date(2023, 5, 10), date(2023, 5, 10)),
        ("two weeks ago it broke", date(2023, 4, 24), date(2023, 4, 30)),
        ("last weekend we hiked", date(2023, 5, 6), date(2023, 5, 7)),
        ("last month was busy", date(2023, 4, 1), date(2023, 4, 30)),
        ("we met on 6 May 2023", date(2023, 5, 6), date(2023, 5, 6)),
        ("see you on June 2", date(2023, 6, 2), date(2023, 6, 2)),  # no year: the nearest
        ("I painted that sunrise last year", date(2022, 1, 1), date(2022, 12, 31)),
        ("we moved here 4 years ago", date(2019, 1, 1), date(2019, 12, 31)),
        ("a year ago I quit", date(2022, 1, 1), date(2022, 12, 31)),
        ("a few years ago we met", date(2019, 1, 1), date(2021, 12, 31)),  # 2 to 4 years back
    ],
)
def test_date_phrases_in_an_event_resolve_against_the_time_it_was_said(text, first, last):
    [mention] = date_mentions(text, SAID)
    assert (mention.first, mention.last) == (first, last)


def test_date_terms_hold_days_and_months_and_never_a_verb():
    assert date_terms("Last Saturday I ran a race", SAID) == ["2023-05-06", "2023-05"]
    assert date_terms("we may go there today", SAID) == []
    assert date_terms("on 6 May 2023, in May 2023", SAID) == ["2023-05-06", "2023-05"]
    # a year is its twelve months (no day terms), so "in 2022" or "last year" asked later finds it
    assert date_terms("we went camping last year", SAID) == [f"2022-{m:02d}" for m in range(1, 13)]
    assert date_terms("the year was long", SAID) == []


@pytest.mark.parametrize(
    "query,days,months",
    [
        ("what did we do last week?", [date(2023, 6, n) for n in range(19, 26)], []),
        ("what happened two weeks ago", [date(2023, 6, n) for n in range(12, 19)], []),
        ("anything last weekend?", [date(2023, 6, 24), date(2023, 6, 25)], []),
        ("what happened last month", [], [(date(2023, 6, 1), date(2023, 6, 30))]),
        ("What did Gus do in May 2023?", [], [(date(2023, 5, 1), date(2023, 5, 31))]),
        ("What did Gus do in May?", [], [(date(2023, 5, 1), date(2023, 5, 31))]),
        ("Where did Gus camp last year?", [], [(date(2022, 1, 1), date(2022, 12, 31))]),
        ("Where did Gus move from 4 years ago?", [], [(date(2019, 1, 1), date(2019, 12, 31))]),
        ("How often did Gus swim in 2023?", [], [(date(2023, 1, 1), date(2023, 12, 31))]),
    ],
)
def test_question_periods_resolve_against_the_question_time(query, days, months):
    parsed = parse_date_query(query, ASKED)  # Saturday 1 July 2023
    assert parsed is not None and parsed.days == days and parsed.months == months


# ---- the fields, stored and rebuilt ---------------------------------------------------------
def _field_hits(index: MemoryIndex, field: str, value: str) -> set[str]:
    import tantivy

    tindex = index.lexical.open(create=False)
    tindex.reload()
    query = tantivy.Query.term_query(tindex.schema, field, value)
    searcher = tindex.searcher()
    return {searcher.doc(a).get_first("id") for _, a in searcher.search(query, 50).hits}


def _fields_everywhere(index: MemoryIndex) -> None:
    doc = index.catalog.get_docs(["D1:1"])["D1:1"]
    assert (doc.speaker, doc.session) == ("Gus", "session_1")
    assert doc.dates == ["2023-05-06", "2023-05"]  # "last Saturday" said on Monday 8 May
    assert _field_hits(index, "speaker", "gus") == {"D1:1", "D1:3", "D2:2", "D3:1"}
    assert _field_hits(index, "session", "session_2") == {"D2:1", "D2:2"}
    assert _field_hits(index, "dates", "2023-05-06") == {"D1:1"}
    assert _field_hits(index, "dates", "2023-05-11") == {"D2:1"}  # "yesterday" on 12 May
    got = index.vectors.collection(create=False).get(ids=["D2:1::0"], include=["metadatas"])
    assert got["metadatas"][0]["speaker"] == "Sami"
    assert got["metadatas"][0]["session"] == "session_2"


def test_speaker_and_session_survive_the_journal_files_and_a_reindex(chat, repo):
    mem, index = chat
    raw = (mem.primary.root / "journal" / "2023-05-08.md").read_text()
    entry = next(line for line in raw.splitlines() if '"D1:2"' in line)
    meta = json.loads(entry.split("lorestack:event ", 1)[1].rsplit(" -->", 1)[0])
    assert (meta["speaker"], meta["session"]) == ("Sami", "session_1")
    _fields_everywhere(index)
    index.close()
    fresh = MemoryIndex(Memory.open(repo), warn=lambda _m: None)  # `lorestack reindex`
    try:
        fresh.rebuild()
        _fields_everywhere(fresh)
    finally:
        fresh.close()


def test_an_index_built_before_the_fields_existed_gains_them_at_the_next_sync(chat):
    _mem, index = chat
    catalog = index.catalog
    # the catalog of an older version: parsed docs without the new fields, older docs mark
    for path, (docs, _problems) in catalog.file_docs().items():
        for doc in docs:
            doc.speaker, doc.session, doc.dates = "", "", []
        catalog.db.execute(
            "UPDATE files SET docs=? WHERE path=?", (json.dumps([d.to_json() for d in docs]), path)
        )
    catalog.set_meta("docs", "2")
    index.sync()
    _fields_everywhere(index)


# ---- used: dates ----------------------------------------------------------------------------
def test_bm25_matches_a_named_day_to_an_event_that_said_last_saturday(chat):
    _mem, index = chat
    query = "What did Gus do on 6 May 2023?"
    ranked = [d for d, _ in index.lexical.search(query, 3, now=ASKED)]
    assert ranked[0] == "D1:1"
    yearless = [d for d, _ in index.lexical.search("What did Gus do on May 6?", 3, now=ASKED)]
    assert yearless[0] == "D1:1"
    hits = [h.id for h in index.search(query, k=3, mode="bm25", now=ASKED, record_access=False)]
    assert hits[0] == "D1:1"


def test_the_date_retriever_finds_events_naming_the_day_or_the_month(chat):
    mem, index = chat
    retriever = DateRetriever(mem.journal, index.lexical, ASKED, index.catalog.get_docs)
    # nothing was said on 6 May; the event of 8 May said "last Saturday"
    assert [i for i, _ in retriever.retrieve("What did Gus do on 6 May 2023?", 5)] == ["D1:1"]
    # 11 May: "yesterday" said on 12 May
    assert [i for i, _ in retriever.retrieve("what happened on May 11, 2023?", 5)] == ["D2:1"]
    in_may = [i for i, _ in retriever.retrieve("Who booked flights in May 2023?", 10)]
    assert in_may[0] == "D3:1" and set(in_may) == {e.id for e in CHAT}
    assert retriever.retrieve("Who booked flights in June 2023?", 10) == []


def test_the_default_pipeline_answers_a_named_day_first(chat):
    _mem, index = chat
    hits = index.search("What did Gus do on 6 May 2023?", k=3, now=ASKED, record_access=False)
    assert hits[0].id == "D1:1"


# ---- used: speakers -------------------------------------------------------------------------
def test_a_named_speaker_gets_their_turns_boosted_only_when_the_setting_is_on(repo):
    def ranked(weight: float) -> list[str]:
        mem = Memory.open(repo, **{"retrieval.speaker_weight": weight})
        index = MemoryIndex(mem, warn=lambda _m: None)
        try:
            hits = index.search(
                "Did Gus adopt a puppy? A beagle?", k=2, now=ASKED, record_access=False
            )
            assert index.speakers() == {"Gus", "Sami"}
            return [h.id for h in hits]
        finally:
            index.close()

    import_events(Memory.open(repo), CHAT)
    assert ranked(0.0)[0] == "D2:1"  # Sami's turn says "beagle": closer to the words
    assert ranked(1.0)[0] == "D2:2"  # the question is about Gus


def test_only_a_speaker_the_query_names_and_not_everyone_counts():
    from lorestack.retrieval.speakers import named_speakers

    known = {"Gus", "Sami", "Ana Silva", "user"}
    assert named_speakers("When did Gus pass the road test?", known) == {"gus"}
    assert named_speakers("what did Ana say about the trip", known) == {"ana silva"}
    assert named_speakers("what did gus say", known) == {"gus"}
    assert named_speakers("why does the user want dark mode", known) == set()
    assert named_speakers("Augusta called", known) == set()
    assert named_speakers("Did Gus and Sami meet?", {"Gus", "Sami"}) == set()


# ---- used: speakers ----------------------------------------------------------------------------
def test_known_speakers_follow_an_import_by_another_process(chat, repo):
    _mem, index = chat
    assert index.speakers() == {"Gus", "Sami"}
    other = MemoryIndex(Memory.open(repo), warn=lambda _m: None)  # another process's index
    try:
        import_events(
            Memory.open(repo),
            [
                ImportEvent(
                    id="D9:1", time=_at(30, 9), session="session_9", speaker="Ivo", text="Hi all!"
                )
            ],
            memory_index=other,
        )
    finally:
        other.close()
    index.sync()  # the files match the catalog already: this sync changes nothing itself
    assert index.speakers() == {"Gus", "Sami", "Ivo"}


def test_a_sync_run_outside_the_index_says_so_and_the_speakers_are_read_again(chat, repo):
    """The cold path runs `run_sync` itself (text only, bounded) and then set the index's
    private `_speakers`; `docs_changed()` is the public way to say the docs changed."""
    from lorestack.retrieval.sync import run_sync

    _mem, index = chat
    assert index.speakers() == {"Gus", "Sami"}
    ivo = ImportEvent(id="D9:1", time=_at(30, 9), session="session_9", speaker="Ivo", text="Hi!")
    import_events(Memory.open(repo), [ivo], index=False)
    report = run_sync(index, quick=True, text_only=True)
    assert report.changed and index.speakers() == {"Gus", "Sami"}  # same connection: cached
    index.docs_changed()
    assert index.speakers() == {"Gus", "Sami", "Ivo"}


def test_a_lexical_index_of_the_previous_schema_is_rebuilt_with_the_fields(chat):
    _mem, index = chat
    index.close()
    (index.lexical.directory / "lorestack-schema").write_text("2")
    warnings: list[str] = []
    index.warn = warnings.append
    index.search("What did Gus do on 6 May 2023?", k=1, mode="bm25", now=ASKED)
    assert any("from another version" in w and "rebuilt" in w for w in warnings), warnings
    _fields_everywhere(index)


def test_a_turn_keeps_its_speaker_in_the_vector_and_gives_it_to_the_speaker_field_in_bm25(mem):
    from lorestack.retrieval.sync import embed_text

    import_events(
        mem,
        [
            ImportEvent(
                id="P1",
                time=_at(8, 9),
                session="s",
                speaker="Gus",
                text="Gus: I finally repaired the old canoe.",
            ),
            ImportEvent(
                id="P2",
                time=_at(8, 10),
                session="s",
                speaker="Sami",
                text="Sami: Gus, you should paddle it to the island.",
            ),
        ],
    )
    index = MemoryIndex(mem, warn=lambda _m: None)
    try:
        index.sync()
        docs = index.catalog.get_docs(["P1", "P2"])
        assert docs["P1"].text == "Gus: I finally repaired the old canoe."  # shown as written
        # the vector sees who said it (questions name the person: issue 21's regression)
        assert embed_text(docs["P1"]) == "Gus: I finally repaired the old canoe."
        assert embed_text(docs["P2"]) == "Sami: Gus, you should paddle it to the island."
        # the name is matched through the speaker field; the words only where they were said
        assert _field_hits(index, "body", "gus") == {"P2"}
        assert _field_hits(index, "speaker", "gus") == {"P1"}
        assert {d for d, _ in index.lexical.search("Gus", 5)} == {"P1", "P2"}
    finally:
        index.close()


def test_a_question_about_last_year_finds_the_turn_that_said_last_year(mem):
    """"last year" said in May 2023 is 2022; asked in July 2023, "last year" is 2022 too."""
    turns = [
        ImportEvent(id="Y1", time=_at(8, 13), session="session_1", speaker="Gus",
                    text="We saw the Perseid meteor shower on our camping trip last year."),
        ImportEvent(id="Y2", time=_at(8, 14), session="session_1", speaker="Sami",
                    text="We went camping by the lake this spring."),
    ]
    assert not import_events(mem, turns).warnings
    index = MemoryIndex(mem, warn=lambda _m: None)
    index.sync()
    try:
        retriever = DateRetriever(mem.journal, index.lexical, ASKED, index.catalog.get_docs)
        found = [i for i, _ in retriever.retrieve("What did Gus see camping last year?", 5)]
        assert found == ["Y1"]
        assert retriever.retrieve("What did Gus see camping in 2021?", 5) == []
        in_2023 = [i for i, _ in retriever.retrieve("Where did Sami go camping in 2023?", 5)]
        assert set(in_2023) == {"Y1", "Y2"}  # both were said in 2023
    finally:
        index.close()
