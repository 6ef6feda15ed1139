"""The act a prohibition forbids, said on another thing in another clause (twenty-eighth
session, conf28). "Never skip the security scan" is drafted `forbid: security scan`, and
act_scope.act_dropped keeps a confirmed block where the proposal says the act ('skip'). In
"Skip the flaky screenshot tests in CI, the security scan still runs" the act is said, but on
the screenshot tests; the scan leads a clause of its own as its subject. Where every act word
said stands in a clause without the thing, and every occurrence of the thing leads its clause
(only a determiner before it), the act is said elsewhere: act_dropped answers "applies,
undecided" — never a pass (a person judges), never a block."""

from __future__ import annotations

import re

ON = True
_DETERMINERS = frozenset("the a an our your their its this that these those every each all".split())
_CLAUSE_END = ".;:!?\n,"


def _clause(text: str, at: int) -> tuple[int, int]:
    begin = max(text.rfind(c, 0, at) for c in _CLAUSE_END) + 1
    ends = [i for i in (text.find(c, at) for c in _CLAUSE_END) if i >= 0]
    return begin, min(ends, default=len(text))


def _leads(text: str, at: int) -> bool:
    """Whether the thing at `at` leads its clause, as its subject: only determiners before it."""
    begin, _ = _clause(text, at)
    return all(w in _DETERMINERS for w in re.findall(r"[A-Za-z][\w'-]*", text[begin:at].lower()))


def act_elsewhere(text: str, acts: list[int], things: list[int]) -> bool:
    """True where act words are said (`acts`, their offsets) only in clauses that hold none of
    the thing's occurrences (`things`), and every occurrence of the thing leads its clause."""
    if not (ON and acts and things):
        return False
    spans = [_clause(text, t) for t in things]
    if any(b <= a < e for a in acts for b, e in spans):
        return False
    return all(_leads(text, t) for t in things)


# a line of a change that only says something (twenty-eighth session, conf28): a comment in the
# usual syntaxes, or a script's `#!` line (conf25). C's `#include`/`#define`/… are code.
COMMENTS = True
_SAYS = re.compile(r"^[+ ]?\s*(?:#!|#(?!\s*(?:include|define|if|ifdef|ifndef|else|elif|endif|"
                   r"import|pragma|undef|error)\b)|//|/\*|\*|--\s|<!--)")


def says_only(line: str) -> bool:
    """Whether a line of a change is a `#!` line or (with COMMENTS) a comment."""
    if line.lstrip("+ ").startswith("#!"):
        return True
    return COMMENTS and bool(_SAYS.match(line))
