"""Review of the nineteenth session's readings (issue 22): a contrast or a "not" that is no
prohibition must forbid nothing, or a confirmed rule blocks what it never meant.

"Return errors as values rather than raising them in the parser" forbade 'parser' (every change
to the parser blocked); "The old API is deprecated" forbade 'old'; "not only with print" and
"whether or not it comes from an admin" read a ban of 'print' / 'comes'."""

from __future__ import annotations

import pytest

from lorestack.guardrail.sentences import read_sentence


@pytest.mark.parametrize(
    ("sentence", "not_forbidden"),
    [
        ("Return errors as values rather than raising them in the parser", "parser"),
        ("The old API is deprecated", "old"),
        ("Log with structlog, not only with print", "print"),
        ("Validate input whether or not it comes from an admin", "comes"),
        ("Pin versions in requirements.txt, not just in setup.cfg", "setup.cfg"),
        ("Check the cache whether it is warm or not", "warm"),
    ],
)
def test_what_is_no_prohibition_forbids_nothing(sentence, not_forbidden):
    d = read_sentence(sentence)
    assert not any(not_forbidden in f for f in d.forbid), d.forbid


@pytest.mark.parametrize(
    ("sentence", "forbidden"),
    [
        # the act acts through code: that is the thing (batch 17)
        (
            "Let the template autoescape values rather than wrapping them in mark_safe()",
            "mark_safe",
        ),
        ("The legacy v1 client is deprecated", "v1"),
        ("Do not log tokens", "tokens"),
        ("Never call eval() or exec(), not even in tests", "eval"),
    ],
)
def test_a_real_prohibition_still_forbids(sentence, forbidden):
    d = read_sentence(sentence)
    assert any(forbidden in f for f in d.forbid), d.forbid
