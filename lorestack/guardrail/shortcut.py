"""Prose that trades a rule for convenience: "Keep the invoice total as a double …, that is
good enough", "Use my GitHub token in the release workflow until the bot account is set up",
"Read the uploads with lxml.etree.parse, it is faster", "… the access request can be filed
next week". A proposal that breaks a rule says why the shortcut is fine (it is quicker,
easier, temporary, or put off); one that keeps the rule has no shortcut to argue for.

It is read only where the forbidden-act gate (judging._unlike_forbidden) would let a prose
proposal pass: the proposal applied by meaning (it is about the rule's subject) and reads far
from the words of what the rule forbids, which the sentence model cannot tell from a
look-alike (twenty-first session). Such a proposal stays "applies, undecided" (never a
block). Never for a diff or a tool call: a code comment's "until 2.7" argues nothing.
Measured on the tuning batches (docs/guardrail-log.md, twenty-second session): of the prose
cases, 67 of 473 violations and 2 of 365 look-alikes carry one of these phrases.
"""

from __future__ import annotations

import re

from lorestack.guardrail.alternative_denied import unfit_said

ENABLED = True

# put off, temporary, quicker or easier, good enough, or a risk accepted
_SHORTCUT = re.compile(
    r"\b(?:for\s+now|until|later|next\s+(?:week|sprint|release|quarter|month)|temporar(?:y|ily)"
    r"|for\s+the\s+time\s+being|in\s+the\s+meantime|can\s+(?:wait|stay|come)"
    r"|quick(?:ly)?|faster|easier|simpler|good\s+enough|is\s+fine|is\s+slow|in\s+one\s+go"
    r"|(?:don't|doesn't|do\s+not|does\s+not)\s+have\s+to|without\s+(?:waiting|writing|asking)"
    r"|anyway|whatever|forever|in\s+case|nobody\s+(?:needs|will))\b",
    re.I,
)


# twenty-eighth session: "until" after a verb in the past in its own clause tells of a past
# state ("The release job used Bob's token until March; it signs in as the bot now"), not of
# a shortcut put off to later; False switches it off (tests.stage_audit `shortcut_past`)
PAST_UNTIL = True
_PAST = re.compile(r"\b(?:was|were|had|did|used|kept|ran|went|got|stayed|remained|lived|sat)\b", re.I)
_CLAUSE_END = re.compile(r"[.;:,!?\n]")


def shortcut(text: str) -> str:
    """The phrase by which prose argues for a shortcut, else ''."""
    if not ENABLED:
        return ""
    for m in _SHORTCUT.finditer(text):
        if PAST_UNTIL and m.group(0).lower() == "until":
            clause = _CLAUSE_END.split(text[:m.start()])[-1]
            if _PAST.search(clause):
                continue
        return m.group(0)
    return unfit_said(text)  # "…, the replica lags too much" (twenty-ninth session)


# twenty-eighth session: prose that applied by meaning, that the forbidden-act gate let pass
# and that argues for a shortcut asks at whatever similarity it applied (the meaning
# threshold), not only at the gate's 0.45 (judging._shortcut_open); 0.45 switches it back.
# Below the gate's bar, praise ("it's easier") of a name the rule itself chooses outside
# what it forbids ("Put the new Stripe key in Vault, it's easier to rotate there" under
# "Store secrets in Vault, never in environment files") is a reason for keeping the rule.
SHORTCUT_BAR = 0.0
GATE_BAR = 0.45
_PRAISE = re.compile(r"quick(?:ly)?|faster|easier|simpler|good\s+enough|is\s+fine", re.I)
_CUE = re.compile(r"\b(?:never|not|no|nothing|nobody|without|avoid|instead\s+of|rather\s+than)\b"
                  r"|n't\b", re.I)
_NAME = re.compile(r"(?<![\w.])(?:[A-Za-z][\w-]*[._][\w.]*\w|[a-z]*[A-Z][\w-]*)")


def own_names(sentence: str) -> set[str]:
    """Names (a capital inside or after a clause's first word, a dotted or snake name) in
    the clauses of a rule that forbid nothing: the way the rule itself chooses."""
    out = set()
    for clause in re.split(r"[;:]|,(?=\s*(?:never|not|no|don't)\b)", sentence):
        if _CUE.search(clause):
            continue
        lead = len(clause) - len(clause.lstrip())
        for m in _NAME.finditer(clause):
            w = m.group(0)
            if not (m.start() == lead and w[:1].isupper() and w[1:].islower()):
                out.add(w.lower())
    return out


def shortcut_bar(sentence: str, text: str) -> float:
    """The similarity from which prose that argues for a shortcut stays open (above)."""
    said = shortcut(text)
    if SHORTCUT_BAR < GATE_BAR and _PRAISE.fullmatch(said) and any(
        re.search(r"(?<![\w.])" + re.escape(w) + r"(?!\w)", text.lower()) for w in own_names(sentence)
    ):
        return GATE_BAR
    return SHORTCUT_BAR


# Twenty-sixth session: prose read as taking the recommended way by meaning (judging.
# _took_alternative) while it argues for a shortcut ("Push build 2.4.0 to every production
# node in one go, the canary takes too long"; "Patch the field straight into the stubs so we
# don't have to run protoc again") names the recommended way only to set it aside. At this
# similarity to the whole criterion or nearer it stays "applies, undecided" (0.50, not the
# gate's 0.45: the same 2 violations gained, 8 pairs of unrelated criteria newly flagged
# instead of 22, over the 102 prose cases with a shortcut phrase × all 772 criteria); False
# switches it off (tests.stage_audit `shortcut_alternative`).
ARGUED = True
ARGUED_BAR = 0.50


def argued_away(outcome, sentence: str, meaning):
    """A pass by the recommended way, read by meaning, of prose that argues for a shortcut
    and reads at ARGUED_BAR or nearer the criterion: "applies, undecided" (never a block)."""
    proposal = getattr(meaning, "proposal", None)
    if not (ENABLED and ARGUED) or outcome.status != "satisfied" or not outcome.exempted_by:
        return outcome
    said = shortcut(proposal.text) if proposal is not None and proposal.source == "text" else ""
    near = meaning(sentence) if said else None
    if near is None or near.similarity < ARGUED_BAR:
        return outcome
    outcome.status, outcome.exempted_by, outcome.quote = "undecided", "", said
    outcome.reason = (f"applies, undecided: it names the recommended way, but argues for a "
                      f"shortcut ('{said}') and reads close to the criterion (similarity "
                      f"{near.similarity:.2f}): judge whether it breaks the rule")
    return outcome
