"""The code-aware tokenizer and query building (no model needed)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from lorestack.retrieval.lexical import LexicalIndex, code_terms


def test_identifiers_split_into_parts_and_stay_whole():
    words, exact = code_terms("getUserById auth_service.py ERR_CONN_RESET RS256 HTTPServer2")
    for term in ["getuserbyid", "get", "user", "by", "id", "auth_service.py", "auth_service",
                 "auth", "service", "py", "err_conn_reset", "err", "conn", "reset", "rs256",
                 "rs", "256", "httpserver2", "http", "server"]:
        assert term in words, term
    assert exact == ["getuserbyid", "auth_service.py", "err_conn_reset", "rs256", "httpserver2"]


def test_cjk_is_indexed_by_character():
    words, _ = code_terms("検索エンジン")
    assert "検" in words and "索" in words


def test_query_terms_drop_stopwords_and_cap(tmp_path):
    index = LexicalIndex(tmp_path / "t")
    words, exact = index.query_terms("what is the getUserById")
    assert "what" not in words and "the" not in exact and "getuserbyid" in words
    many, _ = index.query_terms(" ".join(f"w{n}x" for n in range(500)))
    assert len(many) <= 64


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=300))
def test_any_text_tokenizes_and_queries_without_error(text):
    words, exact = code_terms(text)
    assert all(isinstance(w, str) and w for w in words + exact)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=200))
def test_any_query_against_a_real_index_never_raises(tmp_path_factory, text):
    index = getattr(test_any_query_against_a_real_index_never_raises, "_index", None)
    if index is None:
        from datetime import datetime, timezone

        from lorestack.retrieval.documents import IndexDoc

        index = LexicalIndex(tmp_path_factory.mktemp("lex") / "t")
        index.apply([IndexDoc(id="a", type="fact", layer="L1", scope="project", status="active",
                              title="getUserById", text="AND OR ( ) : * ~ ^ \" [x] {y}",
                              path="p", time=datetime.now(timezone.utc))], [])
        test_any_query_against_a_real_index_never_raises._index = index
    hits = index.search(text, 5)
    assert isinstance(hits, list)


def test_hits_tied_at_the_cut_are_kept_in_id_order_whatever_the_first_draw(tmp_path):
    from datetime import datetime, timezone

    from lorestack.retrieval.documents import IndexDoc

    index = LexicalIndex(tmp_path / "t")
    when = datetime.now(timezone.utc)

    def doc(n: int, text: str) -> IndexDoc:
        return IndexDoc(id=f"d{n:03d}", type="fact", layer="L1", scope="project",
                        status="active", title="note", text=text, path=f"p{n}", time=when)

    # 3 strong hits, then 120 turns that tie (same text), then 40 weaker ones
    docs = [doc(n, "billing queue lag billing queue lag billing") for n in range(3)]
    docs += [doc(n, "billing queue checked") for n in range(200, 80, -1)]
    docs += [doc(n, f"billing {'filler ' * 30}{n}") for n in range(300, 340)]
    index.apply(docs, [])
    everything = index.search("billing queue", 500)
    assert len(everything) == len(docs)
    for limit in (1, 3, 4, 10, 50, 123, 150):
        assert index.search("billing queue", limit) == everything[:limit]
    tied = [doc_id for doc_id, _ in everything[3:123]]
    assert tied == sorted(tied)  # the cut among equal scores is by id
