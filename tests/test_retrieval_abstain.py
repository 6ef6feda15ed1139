"""BM25 abstains in the default pipeline when none of its top hits holds a fair share of the
question's rare words (retrieval/lexical.py ABSTAIN_COVERAGE, docs/recall.md §18): a question
worded apart from its answer then gets the dense ranking without BM25's word-noise, while a
question that names what it asks about still gets BM25. Real tantivy, Chroma and ONNX model."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from lorestack.consolidation.bulk_import import ImportEvent, import_events
from lorestack.memory_layers.memory import Memory
from lorestack.retrieval.index import MemoryIndex

ASKED = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
NOTES = [  # release notes of an imaginary HTTP client, one change each
    "Fixed obscure OpenSSL errors raised while sending JSON payloads.",
    "The layer that pools connections now closes them when the process exits.",
    "Streaming uploads report their progress through a callback.",
    "A response object keeps the history of the redirects that led to it.",
    "Retries stop after the configured total, even when the server asks for more.",
    "Added the `timeout` argument to `Session.send`.",
    "Proxy URLs without a scheme now default to http.",
    "Cookies set on a redirect response are kept for the next request.",
    "Headers with leading whitespace are rejected.",
    "Dropped support for Python 3.7.",
]
PARAPHRASE = "When did the crypto layer stop failing on uploads of encoded objects?"
IDENTIFIER = "Session.send timeout"


@pytest.fixture
def notes_index(repo):
    mem = Memory.open(repo)
    events = [ImportEvent(id=f"client:{n}", time=datetime(2024, 3, n + 1, 12, tzinfo=timezone.utc),
                          session="client", text=text) for n, text in enumerate(NOTES)]
    assert import_events(mem, events).events == len(NOTES)
    index = MemoryIndex(mem, warn=lambda _m: None)
    index.sync()
    yield index
    index.close()


def _hits(index, query, mode):
    return index.search(query, k=5, mode=mode, now=ASKED, sync=False, record_access=False,
                        explain=True)


def test_a_question_sharing_only_scattered_words_gets_no_bm25_ranks(notes_index):
    # each content word of the question is in a different note: no note holds 35% of its
    # IDF mass, so BM25's ranks would be word-noise
    searcher = notes_index.lexical.open(create=False).searcher()
    words, _ = notes_index.lexical.query_terms(PARAPHRASE)
    ids = [h for h, _s in notes_index.lexical.search(PARAPHRASE, 10)]
    assert len(ids) >= 3  # BM25 alone matches several notes on single words
    assert not notes_index.lexical.covers(searcher, words, ids)
    assert notes_index.lexical.covers(searcher, words, ids, share=0.2)  # one word of four
    assert notes_index.lexical.search(PARAPHRASE, 10, abstain=True) == []
    default = _hits(notes_index, PARAPHRASE, "default")
    assert all(h.explain.get("bm25_rank") is None for h in default)
    assert all(h.explain.get("bm25_abstained") is True for h in default)  # --explain says why
    assert default[0].doc.id == "client:0"  # the dense ranking's own first: the answer
    rrf = _hits(notes_index, PARAPHRASE, "rrf")  # plain fusion keeps BM25, and its noise:
    assert rrf[0].explain.get("bm25_rank") == 1  # a note sharing one word comes first
    assert not any(h.explain.get("bm25_abstained") for h in rrf)
    assert [h.doc.id for h in rrf].index("client:0") > 0


def test_a_question_naming_what_it_asks_about_keeps_bm25(notes_index):
    searcher = notes_index.lexical.open(create=False).searcher()
    words, _ = notes_index.lexical.query_terms(IDENTIFIER)
    assert notes_index.lexical.covers(searcher, words, ["client:5"], share=1.0)
    assert not notes_index.lexical.covers(searcher, words, ["client:6", "client:7"], share=0.01)
    hits = _hits(notes_index, IDENTIFIER, "default")
    assert hits[0].doc.id == "client:5" and hits[0].explain.get("bm25_rank") == 1
    assert not any(h.explain.get("bm25_abstained") for h in hits)


def test_search_explain_says_bm25_sat_out(notes_index, repo):
    from click.testing import CliRunner

    from lorestack.cli.main import cli

    notes_index.close()  # the CLI opens its own
    out = CliRunner().invoke(cli, ["search", "--explain", PARAPHRASE])
    assert out.exit_code == 0, out.output
    assert "bm25 rank=- (sat out: no hit holds enough of the question's rarer words)" in out.output
    out = CliRunner().invoke(cli, ["search", "--explain", IDENTIFIER])
    assert out.exit_code == 0 and "sat out" not in out.output and "bm25 rank=1" in out.output

