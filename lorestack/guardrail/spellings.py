"""What a rule wants, when it names it in code: "Indexes on large tables are created with CREATE
INDEX CONCURRENTLY", "Signatures are compared with hmac.compare_digest", "CronJobs set
concurrencyPolicy: Forbid", "Migrations … set a lock_timeout first", "Links … carry
rel=\"noopener noreferrer\"", "DAGs are declared with catchup=False". A guess that applies by
meaning only, to a proposal that spells every such wanted thing, is kept (sixteenth session).

Only spellings a person would not write in prose count: a token with a dot, an underscore, a
bracket, a slash, a quote, ``=``, ``:`` or ``#`` in it, or a run of two upper-case SQL words.
A product name the rule chose ("MkDocs", "DynamoDB") or an acronym ("CPU", "TTL") is no
evidence: a violation names them as often as a look-alike does. A clause with a prohibition
cue names what is forbidden, not what is wanted; "in", "through" and "as" name a place.
"""

from __future__ import annotations

import re
from functools import lru_cache

from lorestack.guardrail.meaning import _PROHIBITION
from lorestack.guardrail.sentence_words import CLAUSE_MARKS

ENABLED = True

_CLAUSE = re.compile(
    CLAUSE_MARKS + r"|\.(?:\s+|$)|,\s+(?=but |use |instead |only |unless |never |not )"
)
_CUE = re.compile(
    r"(?i)\b(?:with|carr(?:y|ies)|sets?|declares?|starts?\s+with|ends?\s+in|ha(?:s|ve)|uses?)\s+"
)
_SKIP = frozenset("a an the their its our".split())
_CODE = re.compile(r"[_=.()/#:\"'\[\]{}$]|^[!=<>]{2,3}$")
_CAPS = re.compile(r"[A-Z]{3,}")


def _code(token: str) -> str | None:
    """The token as a code spelling, or None for a word of prose."""
    t = token.strip(",;")
    if t.endswith(".") and not re.search(r"\w\.\w", t):
        t = t.rstrip(".")  # the sentence's full stop, not `E.164`
    if not t or re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+)+|[\d.,]+|\w+'s", t):
        return None
    return t if _CODE.search(t) or _CAPS.fullmatch(t) else None


def _run(tokens: list[str]) -> tuple[str, list[str]]:
    """('and' | 'or', the code spellings) that follow a cue: "CREATE INDEX CONCURRENTLY",
    "select_related or prefetch_related", "concurrencyPolicy: Forbid"."""
    run: list[str] = []
    mode = "and"
    i = 0
    while i < len(tokens):
        t = tokens[i]
        low = t.lower().strip(",")
        if not run and low in _SKIP:
            i += 1
            continue
        if run and re.search(r"\w[:=]$", run[-1]) and re.fullmatch(r"[\w\"'.-]+", t.strip(",.")):
            run[-1] = f"{run[-1]} {t.strip(',.')}"  # `key: Value`, `key= value`
            i += 1
            continue
        code = _code(t)
        if code is not None:
            run.append(code)
            i += 1
            continue
        if run and low in ("and", "or") and i + 1 < len(tokens) and _code(tokens[i + 1]):
            mode = "or" if low == "or" else mode
            i += 1
            continue
        break
    # an upper-case word alone is an acronym or a product ("CPU", "TTL"), not a spelling
    if all(_CAPS.fullmatch(s) for s in run) and len(run) < 2:
        return mode, []
    return mode, run


@lru_cache(maxsize=1024)
def wanted_spellings(sentence: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each wanted thing the sentence spells in code, as (mode, spellings)."""
    out = []
    for clause in _CLAUSE.split(" ".join(sentence.split())):
        if not clause or _PROHIBITION.search(clause):
            continue
        for m in _CUE.finditer(clause):
            mode, run = _run(re.findall(r"\S+", clause[m.end():]))
            if run:
                out.append((mode, tuple(run)))
    return tuple(out)


def _norm(text: str) -> str:
    text = re.sub(r"\s+", " ", text.lower())
    return re.sub(r"\s*([:=])\s*", r"\1", text)


def spells_wanted(sentence: str, text: str) -> bool:
    """Does the proposal spell every code form the sentence wants (any one of an "or" list)?
    False when the sentence spells nothing."""
    wanted = wanted_spellings(sentence) if ENABLED else ()
    if not wanted:
        return False
    have = _norm(text)

    def present(spelling: str) -> bool:
        return _norm(spelling).strip("'\"") in have

    return all(
        (any if mode == "or" else all)(present(s) for s in run) for mode, run in wanted
    )
