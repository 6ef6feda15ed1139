"""Eleventh session, a new user's trial on the requests sdist: sentences a team would type
whose drafted terms carried grammar (a trailing preposition, "has", "anything") or joined
two recommended ways into one term. Each reading is checked on the words it drafts."""

from __future__ import annotations

from lorestack.guardrail.sentences import read_sentence


def _terms(d) -> list[str]:
    return d.keywords + d.forbid + d.require + d.alternatives + d.unless


def test_a_term_never_ends_in_a_preposition():
    """"% formatting or .format() in new code" drafted 'formatting in' (the generic 'code'
    went after the trailing preposition was looked at)."""
    d = read_sentence("Prefer f-strings over % formatting or .format() in new code.")
    assert "formatting in" not in _terms(d)
    assert "formatting" in d.forbid
    d = read_sentence("A release is only cut after HISTORY.md has an entry for the new version.")
    assert not [t for t in _terms(d) if t.split()[-1] in ("for", "in", "of")]


def test_has_and_have_are_grammar_not_a_term():
    d = read_sentence("A release is only cut after HISTORY.md has an entry for the new version.")
    assert not [t for t in _terms(d) if "has" in t.split() or "have" in t.split()]


def test_recommended_ways_joined_by_or_are_each_an_alternative():
    """"use the httpbin fixture or mock the adapter instead" is two ways, not the one term
    'httpbin fixture mock adapter'."""
    d = read_sentence("Tests must not hit the real network; use the httpbin fixture or mock "
                      "the adapter instead.")
    assert "httpbin fixture mock adapter" not in d.alternatives
    assert "httpbin fixture" in d.alternatives and "mock adapter" in d.alternatives


def test_anything_is_no_part_of_a_term():
    d = read_sentence("Never remove or rename anything exported from requests/__init__.py "
                      "outside a major release.")
    assert not [t for t in _terms(d) if "anything" in t]
    assert not [t for t in _terms(d) if t.startswith(("rename ", "added:rename "))]


def test_only_after_wants_what_comes_after_not_the_act():
    """"A release is only cut after HISTORY.md has an entry" required 'cut': every proposal
    that cuts a release kept it. What it wants is the entry, where a release is cut."""
    d = read_sentence("A release is only cut after HISTORY.md has an entry for the new version.")
    assert "cut" not in d.require and [t.lower() for t in d.require] == ["history.md"]
    assert "release" in d.keywords
    d = read_sentence("Only tag a version after CHANGELOG.md lists it")
    assert [t.lower() for t in d.require] == ["changelog.md"]
