"""Trim a drafted term to what a proposal would say (issue 22, twenty-first session: a drafted
term that keeps a function word never occurs in a proposal, so the rule never fires).

- a trailing pronoun "one" / "ones" stands for a noun said earlier ("the slim image, not the
  full one"): the words before it are what a proposal writes ("full"), and nothing is left
  when they only point ("the next one");
- "such" opens "such as …" (its examples are read as items of their own): the term ends
  before it; first in a term it is a determiner ("such URLs") and goes alone;
- a head "type" / "kind" / "sort" after a concrete word names that word's category ("a float
  type"): a proposal says the word ("float");
- "enough" (with "good", "fast", … before it) judges, it names nothing a proposal does;
- an adverb of order after the thing ("a dry run first", "a backup beforehand") says when it is
  done, and goes (twenty-ninth session).

Singular and plural already match each other (terms.PreparedText.indexes_of compares stems).
"""

from __future__ import annotations

_PRONOUN_HEADS = frozenset(("one", "ones"))
_CUT_OFF = frozenset(("such",))
# words that only point back or along ("the next one", "another one"): no term without a noun
_REFERRING = frozenset(
    "next previous last first same other another second former latter".split()
)
_CATEGORY_HEADS = frozenset(("type", "types", "kind", "kinds", "sort", "sorts"))
_JUDGEMENT = frozenset(("enough",))
# adverbs of order or time that end a phrase ("a dry run first", "a review beforehand"): when
# the thing is done, which no proposal writes after the thing's name (fix29)
_ORDER_ADVERBS = frozenset("first beforehand afterwards afterward again later".split())
ORDER_ADVERBS = True


def trim_words(words: list[str]) -> list[str]:
    """The words of a drafted term without the function words that end or make it up."""
    kept = list(words)
    if kept and kept[0].lower() in _CUT_OFF:  # "such URLs": a determiner, the noun stays
        kept = kept[1:]
    cut = next((i for i, w in enumerate(kept) if w.lower() in _CUT_OFF), len(kept))
    kept = kept[:cut]  # "fields such (as) email": the examples are items of their own
    if ORDER_ADVERBS and len(kept) > 1 and kept[-1].lower() in _ORDER_ADVERBS:
        kept = kept[:-1]  # "a dry run first": the dry run
    if kept and kept[-1].lower() in _PRONOUN_HEADS:
        kept = kept[:-1]
        if all(w.lower() in _REFERRING for w in kept):  # "the next one": nothing left to name
            return []
    if len(kept) > 1 and kept[-1].lower() in _CATEGORY_HEADS:
        kept.pop()
    if kept and kept[-1].lower() in _JUDGEMENT:  # "enough", "good enough"; not "enough disk"
        return []
    return kept


__all__ = ["trim_words"]
