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
A spelling counts only whole (several SQL words as one phrase), outside a comment, and not
as what the proposal removes, replaces, goes "without" or "instead of", or denies (review
of the sixteenth session: a substring test let those violations pass).
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


def _norm(text: str, case: bool) -> str:
    text = re.sub(r"[ \t]+", " ", text if case else text.lower())
    return re.sub(r"[ \t]*([:=])[ \t]*", r"\1", text)


def _phrases(mode: str, run: tuple[str, ...]) -> list[str]:
    """The spellings to find, adjacent upper-case SQL words of an "and" run as one phrase:
    "CREATE INDEX CONCURRENTLY", not three words anywhere."""
    if mode != "and":
        return list(run)
    out: list[str] = []
    for s in run:
        if out and _CAPS.fullmatch(s) and _CAPS.fullmatch(out[-1].split(" ")[-1]):
            out[-1] = f"{out[-1]} {s}"
        else:
            out.append(s)
    return out


# what makes an occurrence no evidence: it is taken away, replaced, gone without or denied
_DENIED = re.compile(
    r"(?i)\b(?:(?:remov|delet|drop|replac|stop|strip|migrat|convert|switch|disabl|uninstall"
    r"|retir|revert|avoid)\w*|without|instead\s+of|rather\s+than|not|no|never|don't|dont)\W+"
    r"(?:[\w.'\"=:()-]+\W+){0,4}$"
)
_COMMENT = re.compile(r"(?:^|\s)(?:#|//|--|/\*|\*)(?:\s|$)|^\s*(?:#|//|--|\*)")


def _present(spelling: str, have: str, case: bool, comment: bool = False) -> bool:
    """Is the spelling there, whole (at word boundaries), outside a comment (unless the rule
    wants a comment: `comment`) and not the object of a removal, "instead of", "without"
    or a denial in its clause?"""
    want = _norm(spelling, case).strip("'\"")
    if not want:
        return False
    pattern = re.compile(
        r"(?<![\w.])" + re.escape(want).replace(r"\ ", r"\s+") + (r"(?!\w)" if want[-1].isalnum() or want[-1] == "_" else "")
    )
    for m in pattern.finditer(have):
        line = have[have.rfind("\n", 0, m.start()) + 1:m.start()]
        if _COMMENT.search(line) and not comment:
            continue
        clause = re.split(r"[.;,!?](?:\s|$)|\b(?:and|but|then)\b", line)[-1]
        if _DENIED.search(clause):
            continue
        return True
    return False


def spells_wanted(sentence: str, text: str, change: bool = False) -> bool:
    """Does the proposal spell every code form the sentence wants (any one of an "or" list)?
    False when the sentence spells nothing. In a change (a diff's added lines, an edit)
    the code is matched as written, case included."""
    wanted = wanted_spellings(sentence) if ENABLED else ()
    if not wanted:
        return False
    have = _norm(text, change)
    return all(
        (any if mode == "or" else all)(
            _present(s, have, change, comment=bool(_MARKERS & set(run)))
            for s in _phrases(mode, run)
        )
        for mode, run in wanted
    )


_MARKERS = frozenset("// # -- /*".split())  # a rule that wants a comment: "a // SAFETY: comment"
