"""Words as the guardrail compares them: plural forms, a light stem, and identifiers split
the way the lexical index splits them (`getUserById` -> get, User, By, Id)."""

from __future__ import annotations

import re
from functools import lru_cache


@lru_cache(maxsize=4096)
def word_forms(word: str) -> frozenset[str]:
    """Singular and plural forms of one word, so either spelling matches the other."""
    w = word.lower()
    forms = {w, w + "s", w + "es"}
    if w.endswith("y") and len(w) > 2:
        forms.add(w[:-1] + "ies")
    if w.endswith("ies") and len(w) > 4:
        forms.add(w[:-3] + "y")
    if w.endswith("es") and len(w) > 3:
        forms.add(w[:-2])
    if w.endswith("s") and not w.endswith("ss") and len(w) > 3:
        forms.add(w[:-1])
    return frozenset(forms)


_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+|'[a-z]+")


def _identifier_parts(word: str) -> list[tuple[int, str]]:
    """(offset, part) of a camelCase identifier, split like the lexical index splits it;
    a plain word comes back whole."""
    if word.islower() or word.isupper() or word.isdigit() or "'" in word:
        return [(0, word)]
    parts = [(m.start(), m.group(0)) for m in _CAMEL.finditer(word)]
    return parts if len(parts) > 1 else [(0, word)]


_STEP1 = (("sses", "ss"), ("ies", "y"), ("ied", "y"), ("ss", "ss"), ("s", ""))
_STEP2 = (("ations", "ate"), ("ation", "ate"), ("ings", ""), ("ing", ""), ("ed", ""))
_STEP3 = (("ment", ""), ("ness", ""), ("ers", ""), ("er", ""), ("al", ""), ("ly", ""))


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A light English stem, close to what the lexical index's stemmer does for the
    words people put in rules: deprecate/deprecated/deprecation -> deprecat,
    remove/removal/removing -> remov, log/logging/logger -> log, caches -> cach."""
    w = word.lower()
    if len(w) <= 3 or not w.isalpha():
        return w
    for table in (_STEP1, _STEP2, _STEP3):
        for suffix, repl in table:
            if w.endswith(suffix) and len(w) - len(suffix) + len(repl) >= 3:
                w = w[: len(w) - len(suffix)] + repl
                break
    if w.endswith("at") or w.endswith("iz"):
        w += "e"
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "lsz":
        w = w[:-1]
    return w
