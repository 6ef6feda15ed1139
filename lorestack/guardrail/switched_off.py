"""A requirement met only by a name the proposal switches off (issue 22, twenty-eighth
session, fix28b).

"JWTs must be verified …" was met by `jwt.decode(token, options={'verify_signature': False})`,
"Session cookies are always Secure …" by "Set SESSION_COOKIE_SECURE to False so login works
over plain http", "Backups must be encrypted at rest" by `encrypted: false`: the required
word occurs, inside a name the proposal sets to False, 0, None, null, off, no or disabled.
Such a name switches the wanted thing off; it is never proof the rule is met. Where every
occurrence of a required thing is such a name, a pass becomes "applies, undecided" — in the
guessed and the confirmed mode alike (a rule the user confirmed required the word, not the
word switched off).
"""

from __future__ import annotations

import re

from lorestack.guardrail.rules import PreparedText, RuleOutcome, entry_alternatives
from lorestack.guardrail.terms import find_term, is_regex

ENABLED = True  # the switch tests and tests.stage_audit turn off

_NAME_CHAR = re.compile(r"[\w$-]")
# what follows a name that sets it off: `= False`, `: false`, `'key': False`, `=0`, `= None`,
# `: "off"`, "… to False" in prose; never a comparison (`== False` reads the name)
_SET_OFF = re.compile(
    r"""^['"]?\s*(?:=(?!=)|:(?!:)|\s+to\s+|\s+as\s+)\s*"""
    r"""(?:(?:False|false|FALSE|None|null|nil|NULL|0|off|Off|OFF|disabled?)\b(?![.\w])"""
    r"""|(["'])(?:false|off|no|none|0|disabled?)\1)"""
)


def set_off(text: str, start: int, end: int) -> str:
    """The name holding text[start:end] with what sets it off (`verify_signature': False`),
    or '' when the name is not set off on its own line."""
    stop = text.find("\n", end)
    stop = len(text) if stop < 0 else stop
    while start > 0 and text[start - 1] != "\n" and _NAME_CHAR.match(text[start - 1]):
        start -= 1
    while end < stop and _NAME_CHAR.match(text[end]):
        end += 1
    m = _SET_OFF.match(text[end:stop])
    return text[start:end + m.end()].strip() if m else ""


# a sentence that itself names a value that switches off ("declared with catchup=False", "a
# feature flag that is off by default", "use 0 or -1"): the name set off may be what it wants
_OFF_SAID = re.compile(r"(?i)\b(?:false|off|disabled?|none|null)\b|(?<![\w.-])0(?![\w.])")

# a required term that is itself a code name (`changed_when`, `readOnlyRootFilesystem`)
_CODE_NAME = re.compile(r"\w_\w|[a-z][A-Z]|[=:]")


def switched_off(outcome: RuleOutcome, prepared: PreparedText, require: list[str],
                 sentence: str = "") -> RuleOutcome:
    """A pass where some required thing occurs only inside names the proposal sets off:
    "applies, undecided", quoting the first."""
    if not (ENABLED and outcome.status == "satisfied" and require and not outcome.exempted_by
            and not _OFF_SAID.search(sentence)):
        return outcome
    text = prepared.text
    for entry in require:
        alts = entry_alternatives(entry)
        if any(_CODE_NAME.search(a) for a in alts):  # "… need changed_when": `changed_when: false`
            continue  # sets the very name the rule asks for
        hits = [h for a in alts if not is_regex(a)
                for h in find_term(prepared, a) if not h.negated_by and h.start >= 0]
        offs = [set_off(text, h.start, h.end) for h in hits]
        if hits and all(offs):
            outcome.status, outcome.quote = "undecided", offs[0][:120]
            outcome.reason = (f"applies, undecided: what the rule requires occurs only in a name "
                              f"the proposal switches off ('{offs[0][:60]}'): judge whether it "
                              "breaks the rule")
            return outcome
    return outcome
