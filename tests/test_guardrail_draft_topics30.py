"""Issue 22 (thirtieth session, fix30): drafts whose topic word became the rule. What `remember`
shows is what a confirmation accepts, so each is fixed in the draft; our own sentences.

- symbol_kept.py: "Avoid SELECT * in reporting views" forbade `select *` (the matcher reads
  the `*` as any word) and `/\\bselect\\b/`: every SELECT. The `*` is the rule.
- trigger_words.py: "Each storage bucket needs an approval from finance before it is created"
  applied where 'created' is said: anything created. "before it is <made>" names no place (an
  act of its own, "before it is merged", stays).
- act_kept.py: "Workers never push artifacts to the public bucket" forbade 'artifacts': any
  change naming artifacts. The thing is forbidden with the push; met without it, the confirmed
  rule asks.
- code_banned.py: "… `catch (err) {}` is never acceptable" named the exact code, but the clause
  had no cue the reader knew: the code span is forbidden as written, any spacing."""

from __future__ import annotations

import pytest

from lorestack.guardrail import act_kept, code_banned, sentences, symbol_kept, trigger_words
from lorestack.guardrail.terms import PreparedText, find_term


@pytest.fixture(autouse=True)
def _fresh():
    sentences._read_cached.cache_clear()
    yield
    sentences._read_cached.cache_clear()


def _hits(term: str, text: str) -> bool:
    return any(not h.negated_by for h in find_term(PreparedText.of(text, change=True, code=True), term))


def test_a_symbol_the_sentence_writes_is_kept():
    d = sentences.read_sentence("Avoid SELECT * in reporting views")
    (entry,) = [f for f in d.forbid if "select" in f]
    code, said, said_too = [t.strip() for t in entry.split("|")]
    assert not _hits(code, "select id, total from orders")
    assert _hits(code, "SELECT  * FROM orders") and (said, said_too) == ("select star", "select all")
    assert "select" in " ".join(d.keywords)  # where it applies


def test_without_the_reading_any_select_is_forbidden(monkeypatch):
    monkeypatch.setattr(symbol_kept, "ON", False)
    d = sentences.read_sentence("Avoid SELECT * in reporting views")
    assert any(_hits(t, "select id, total from orders") for t in d.forbid)


def test_a_when_clause_about_the_subject_adds_no_keyword(monkeypatch):
    s = "Each storage bucket needs an approval from finance before it is created"
    assert "created" not in sentences.read_sentence(s).keywords
    monkeypatch.setattr(trigger_words, "ON", False)
    sentences._read_cached.cache_clear()
    assert "created" in sentences.read_sentence(s).keywords


def test_a_when_clause_naming_an_act_keeps_it():
    assert "merged" in sentences.read_sentence("Each schema change needs an approval before it is merged").keywords


def test_a_when_clause_with_its_own_thing_still_applies():
    d = sentences.read_sentence("Every service needs a runbook link when it pages the on-call")
    assert d.require  # the requirement is read as before


def test_the_thing_of_an_act_is_forbidden_with_the_act(monkeypatch):
    d = sentences.read_sentence("Workers never push artifacts to the public bucket")
    assert d.scopes.get("artifacts") == ("push",)
    from lorestack.guardrail.act_scope import scoped

    assert "together with one of push" in scoped(d.scopes, "artifacts")
    monkeypatch.setattr(act_kept, "ON", False)
    sentences._read_cached.cache_clear()
    assert not sentences.read_sentence("Workers never push artifacts to the public bucket").scopes.get("artifacts")


def test_a_thing_whose_presence_is_the_act_stays_alone():
    d = sentences.read_sentence("Never commit artifacts to the repository")
    assert not d.scopes.get("artifacts")


def test_code_called_never_acceptable_is_forbidden_as_written(monkeypatch):
    s = "Handle promise errors explicitly; `catch (err) {}` is never acceptable."
    forbid = sentences.read_sentence(s).forbid
    assert any(_hits(t, "try { await sync() } catch (err) {\n}") for t in forbid)
    assert any(_hits(t, "+  try { await sync() } catch (err) {\n+  }\n") for t in forbid)  # a diff
    assert not any(_hits(t, "try { await sync() } catch (err) { log(err); throw err }") for t in forbid)
    monkeypatch.setattr(code_banned, "ON", False)
    sentences._read_cached.cache_clear()
    # before: the word 'err' read from inside the span was the rule, the look-alike hit
    assert any(_hits(t, "try { await sync() } catch (err) { log(err); throw err }")
               for t in sentences.read_sentence(s).forbid)
