"""A forbidden term the sentence writes with a symbol keeps the symbol (thirtieth session, fix30).

"No SELECT * in dbt models" was drafted `forbid: select *` and the code spelling
`/\\bselect\\b/`; the word matcher reads the trailing `*` as "any word" and the code spelling
drops it, so every SELECT — an explicit column list too — was the forbidden thing, and once
confirmed it blocked. The symbol is what the rule forbids; the words before it only name where
it applies (they stay a keyword). So a forbidden term ending in a symbol the sentence writes
after its words (`SELECT *`, `import *`) becomes that code, spaces free (`select  *`), or the
symbol said in words ("select star", "select all"); the code spellings of its bare words are dropped."""

from __future__ import annotations

import re

from lorestack.guardrail.terms import gate_of

ON = True  # the switch tests and tests.stage_audit turn off

# the symbols a sentence writes after a word as part of the code it forbids, and how they are said
_SAID = {"*": ("star", "all")}
_TRAILING = re.compile(r"^([a-z][a-z0-9_ ]*?)\s*([*])$")


def keep_symbols(draft, sentence: str) -> None:
    """Rewrite, in place, each forbidden term that ends in a symbol the sentence writes."""
    if not ON:
        return
    for term in list(draft.forbid):
        gate, bare = gate_of(term)
        m = _TRAILING.match(bare.lower())
        if not m:
            continue
        words, symbol = m.group(1).split(), m.group(2)
        written = r"\s+".join(map(re.escape, words)) + r"\s*" + re.escape(symbol)
        if not re.search(rf"\b{written}", sentence, re.I):
            continue
        code = f"/\\b{written}/"
        entry = " | ".join(f"{gate}:{t}" if gate else t
                           for t in (code, *(f"{' '.join(words)} {w}" for w in _SAID[symbol])))
        bare_heads = {f"/\\b{re.escape(w)}\\b/" for w in words}
        draft.forbid = [entry if f == term else f for f in draft.forbid
                        if gate_of(f)[1] not in bare_heads]
        for head in bare_heads:
            draft.scopes.pop(head, None)
        if bare in draft.scopes:
            draft.scopes[code] = draft.scopes.pop(bare)
        draft.steps.append(f"'{' '.join(words)} {symbol}': the '{symbol}' is what it forbids, "
                           f"not any {' '.join(words)}")
