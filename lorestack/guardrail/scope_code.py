"""The words of an act's scope that a change spells as code (thirty-first session, fix31).

act_scope.scope_words keeps a forbidden thing's scope ("on request data", "through ENV or ARG")
only where the sentence writes one of its words as code — a path, a dotted or coloned name, a word
in capitals, a word with a known code form — because a place in words ("in committed frontend
code") is not what a change's lines show. Two kinds of scope were lost:
- an element or a name the sentence writes in markup or backticks: "Don't put onClick on a <div>
  or <span>" forbade onClick on every element, a `<button onClick=…>` too;
- a means said with "with" or "using" after a place: "Don't create or change records by hand in
  the Route 53 console or with the AWS CLI" forbade 'records' everywhere, the Terraform record the
  rule prescribes too. "with"/"using" at the start of the scope stays what it was (sentences.py:
  "never call subprocess with shell=True" pairs the two words).
Met without the scope's words, a confirmed rule answers "applies, undecided" (act_scope.py)."""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

MEANS = frozenset(("with", "using"))


def means_at(word: str, index: int) -> bool:
    """Is `word` at `index` of a scope a means ("… or with the AWS CLI"), not its first word?"""
    return ON and index > 0 and word in MEANS


def written_as_code(word: str, sentence: str) -> bool:
    """Does the sentence write `word` as a markup element or in backticks (`<div>`, `` `span` ``)?"""
    return ON and bool(re.search(rf"(?i)(?:</?|`){re.escape(word)}(?=[\s>/`])", sentence))
