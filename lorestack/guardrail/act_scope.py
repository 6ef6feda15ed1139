"""Where a rule forbids a thing: the place, means or purpose its sentence names after it —
"Never put API keys *in a URL or query string*", "Security groups never allow ingress *from
0.0.0.0/0*", "Don't bake secrets into container images *through ENV or ARG*", "Libraries under
libs/ never import *from apps/*", "Never use PHP's extract() *on request data*". The reading
(sentences.py) forbids the thing; a confirmed draft blocked it wherever it occurred
(`headers={'X-Api-Key': API_KEY}`, an ingress from a security group, `extract($this->vars)`).
Where none of the scope's words occurs, the thing is met outside the act the rule forbids:
the answer is "applies, undecided", never a block and never a pass (twenty-fourth session,
conf24). A scope word also counts in the code forms it implies: a shell *variable* is
`$NAME`, *request* data `$_POST`."""

from __future__ import annotations

import re

from lorestack.guardrail.sentence_words import (
    _DETERMINERS,
    _GENERIC_NOUNS,
    _SCOPE_PREPS,
    _STOP,
    _is_path,
)
from lorestack.guardrail.terms import PreparedText, find_term, gate_of

ACT_SCOPE = True
# the scope ends where an exception or a contrast begins ("from 0.0.0.0/0 except on ports …")
_CUT = frozenset("except unless but without instead not never".split())
_FILLER = frozenset(
    "anything something everything that which who must should could might be such nor "
    "their its them it".split()
)
# code forms of a scope word: a shell variable, data a request carries
_CODE_FORMS = {
    "variable": re.compile(r"\$\{?[A-Za-z_]"),
    "request": re.compile(r"\$_(?:POST|GET|REQUEST|COOKIE|FILES)\b|\breq(?:uest)?\.(?:body|form|args|json|query|params)\b"),
}


# a scope counts where it names a source or a means ("from apps/", "through ENV or ARG", "on
# a path built from a variable"): a place ("in committed frontend code", "in views") is where
# the file lives, which a change shows by its path and not in its words
_MEANS = frozenset("from through via over on".split())


def scope_words(scope: list[str], sentence: str = "") -> tuple[str, ...]:
    """The words of a scope phrase a proposal would show ("from 0.0.0.0/0", "through ENV or
    ARG": env, arg), or () where the scope names no source or means the code would spell: a
    path or literal, a word the sentence writes in capitals, a word with a code form."""
    scope = scope[next((i for i, w in enumerate(scope) if w in _MEANS), len(scope)):]
    kept: list[str] = []
    for raw in scope:
        w = raw.strip(".,;()'\"`")
        if w in _CUT:
            break
        if not w or (not _is_path(w) and w in (
                _SCOPE_PREPS | _DETERMINERS | _STOP | _GENERIC_NOUNS | _FILLER)):
            continue
        kept.append(w)
    coded = [w for w in kept if _is_path(w) or re.search(r"[/.:]", w) or w.rstrip("s") in _CODE_FORMS
             or re.search(rf"(?<![\w-]){re.escape(w.upper())}(?![\w-])", sentence)]
    return tuple(dict.fromkeys(kept)) if coded else ()


def _present(word: str, prepared: PreparedText) -> bool:
    form = _CODE_FORMS.get(word.rstrip("s"))
    if form is not None and form.search(prepared.text):
        return True
    if re.search(r"[^\w-]", word.rstrip("/*")):  # `0.0.0.0/0`: as written
        return word.rstrip("*").lower() in prepared.text.lower()
    return any(not h.negated_by for h in find_term(prepared, word.rstrip("/*")))


def outside_scope(scopes: dict[str, tuple[str, ...]], hit: str, prepared: PreparedText) -> str:
    """The scope the reading names for the forbidden `hit`, when none of its words occurs in
    the proposal (the thing is met outside the forbidden act), else ''."""
    if not ACT_SCOPE:
        return ""
    bare = gate_of(hit.strip())[1].split(" & ")[0].strip()
    words = scopes.get(bare) or scopes.get(bare.lower(), ())
    if not words or any(_present(w, prepared) for w in words):
        return ""
    return ", ".join(words)


def scoped(scopes: dict[str, tuple[str, ...]], term: str) -> str:
    """How `remember` shows a forbidden term's scope: "" when the reading names none."""
    words = scopes.get(gate_of(term.strip())[1].split(" & ")[0].strip(), ())
    return (f" together with one of {', '.join(words)} (without them: applies, undecided)"
            if words else "")


def met_outside(outcome, sentence: str, prepared: PreparedText, confirmed: bool):
    """A confirmed draft's violation whose forbidden thing occurs only outside the scope the
    sentence names: "applies, undecided" (a person judges it), the reason says where."""
    from lorestack.guardrail.sentences import read_sentence

    if not (confirmed and outcome.status == "violated" and outcome.forbid_hit):
        return outcome
    where = outside_scope(read_sentence(sentence).scopes, outcome.forbid_hit, prepared)
    if where:
        outcome.status = "undecided"
        outcome.reason = (
            f"applies, undecided: '{outcome.forbid_hit}' occurs, but none of where the rule "
            f"forbids it ({where}) does: judge whether it breaks the rule"
        )
    return outcome
