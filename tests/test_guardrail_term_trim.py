"""Twenty-first session (issue 22): drafted terms that keep a function word — a pronoun
"one", a cut-off "such", a category head "type", a judging "enough" — never occur in a
proposal, so the rule never fires. Sentences written for this test, not tuning cases."""

from __future__ import annotations

from lorestack.guardrail.sentences import read_sentence
from lorestack.guardrail.terms import PreparedText, find_term


def _found(sentence: str, proposal: str) -> list[str]:
    """The drafted forbidden terms of `sentence` that occur, not negated, in `proposal`."""
    text = PreparedText.of(proposal)
    return [t for t in read_sentence(sentence).forbid
            if any(not h.negated_by for h in find_term(text, t.split(":", 1)[-1]))]


def _words(sentence: str) -> set[str]:
    d = read_sentence(sentence)
    return {w for t in d.forbid + d.keywords + d.require for w in t.split()}


def test_a_pronoun_one_is_no_part_of_the_term():
    s = "Ship the compact font bundle to browsers, never the complete one"
    assert not {"one", "ones"} & _words(s)
    assert _found(s, "Switch the web app to the complete font bundle with every glyph")
    s = "Run the staging jobs on spot machines, never on dedicated ones"
    assert not {"one", "ones"} & _words(s)


def test_such_as_cut_off_leaves_no_such():
    s = "Log lines must not contain personal fields such as {email}"
    assert "such" not in _words(s)
    assert _found(s, "Add the user's personal fields to the request log line")


def test_a_category_head_after_a_concrete_word_goes():
    s = "Don't use a blob type for attachments in the orders table"
    assert not {"type", "types"} & _words(s)
    assert _found(s, "Store each attachment as a blob column in orders")
    s = "Never pick a tuple kind for configuration records"
    assert "kind" not in _words(s)


def test_enough_judges_and_names_nothing():
    s = "Bumping the timeout is not enough on its own when a request hangs"
    assert "enough" not in _words(s)


def test_such_first_is_a_determiner_and_a_pointing_one_names_nothing():
    s = "Uploads go through the virus scanner; workers never open such archives directly"
    assert "archives directly" in read_sentence(s).forbid
    assert "such" not in _words(s)
    s = "A migration never depends on the previous one"
    assert not {"one", "previous"} & _words(s)
