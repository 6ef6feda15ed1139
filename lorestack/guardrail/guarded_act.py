"""A switching-off act said only as what something lets, allows or tries, in a proposal that
removes, rejects, reports or fails on it (issue 22, twenty-seventh session, fix27). Under
"Never disable TLS certificate verification" skipping or bypassing the check is switching it
off in words (switch_off.py), and a confirmed rule blocked "Remove the option that lets users
skip TLS certificate verification" and "Log a warning when someone tries to bypass TLS
certificate verification": the act is the object of what the proposal takes away or guards
against, not an act it does. Where every such act is so said, a confirmed block becomes
"applies, undecided" (judging.py's line for what a proposal takes away): never a pass.
"Add an option that lets users skip …" adds the way to do it and still blocks."""

from __future__ import annotations

import re

from lorestack.guardrail.taken_away import only_taken_away
from lorestack.guardrail.terms import PreparedText, find_term, gate_of

ON = True  # tests switch the reading off
_ACT = re.compile(r"\b(?:disabl\w*|deactivat\w*|skip\w*|bypass\w*|circumvent\w*"
                  r"|(?:turn|switch|shut)\w*\s+(?:\w+\s+)?off)\b", re.I)
# what lets or tries the act: "lets users", "allows anyone to", "tries to", "can"
_ENABLED = re.compile(r"\b(?:let|lets|letting|allows?|allowing|enables?|enabling|permits?"
                      r"|can|could|tries|try|trying|attempts?|attempting|able)\b(?:\s+[\w-]+){0,3}"
                      r"\s+(?:to\s+)?$", re.I)
# a proposal whose act removes, rejects or reports it, or that fails when it happens
_GUARDS = re.compile(r"^\s*(?:please\s+)?(?:remove|delete|drop|block|forbid|prevent|reject|refuse"
                     r"|deny|disallow|log|print|warn|alert|report|detect|flag|catch|raise|throw)\b"
                     r"|\b(?:fails?|failing|errors?|refuses?|rejects?|warns?)\s+(?:if|when|whenever)\b",
                     re.I)
_SENTENCE = re.compile(r"(?<=[.;!?])\s+|\n+")


def guarded_only(text: str) -> str | None:
    """The switching-off act a proposal names, when every time it names one it is what
    something lets or tries and the sentence removes, rejects, reports or fails on it."""
    if not ON:
        return None
    found = None
    for part in _SENTENCE.split(text):
        for m in _ACT.finditer(part):
            before = part[: m.start()]
            if not (_ENABLED.search(before) and _GUARDS.search(before)):
                return None
            found = found or m.group(0)
    return found


# an act that keeps the check said with "without" in its own clause: "refuse to run without
# X", "fail on … without X", "Block logins without X", "Don't publish … without X"
_ENFORCES = re.compile(r"\b(?:refus(?:e|es|ing)\s+to|fail(?:s|ing)?\s+(?:on|if|when|whenever)|blocks?"
                       r"|rejects?|prevents?|forbids?|disallows?)\b|^\s*(?:please\s+)?(?:don't|do\s+not"
                       r"|never)\b", re.I)


_UNDOES = re.compile(r"\b(?:stop(?:s|ped|ping)?|remov\w*|delet\w*|drop(?:s|ped|ping)?|disabl\w*|"
                     r"(?:turn|switch)(?:s|ed|ing)?\s+off|get\s+rid|rip\s+out|no\s+longer|bypass\w*|"
                     r"skip\w*|relax\w*|loosen\w*|kill\w*|revert\w*|undo\w*|comment\w*\s+out)\b", re.I)


def enforces(text: str, start: int) -> bool:
    """Is "without X" at `start` said under an act that refuses, fails on or forbids going
    without X, in the same clause (twenty-seventh session: "Make the migrate script refuse to
    run without database backups" asked under "Never skip database backups …")?"""
    if not ON or start < 0:
        return False
    clause = re.split(r"[,;:!?\n]|\.(?!\d)", text[:start])[-1]  # "3.1" ends no clause
    found = _ENFORCES.search(clause)
    # fix27b: the enforcing act itself undone ("stop refusing to run without X", "Remove the
    # step that makes CI fail on … without X") keeps nothing
    return found is not None and not _UNDOES.search(clause[: found.end()])


def taken_or_guarded(sentence: str, text: str, hit: str = "") -> str | None:
    """only_taken_away for a confirmed block (what a replacement brings not judged), an act the
    proposal only guards against, or the forbidden `hit` named only as what it takes away or
    what a check fails on (named_as_removed.py)."""
    from lorestack.guardrail.named_as_removed import named_as_removed

    return (only_taken_away(sentence, text, judge_added=False) or guarded_only(text)
            or named_as_removed(hit, text, sentence))


def required_kept(outcome, prepared: PreparedText, accepted: bool):
    """A requirement missed only where the proposal says "without X" under an act that
    enforces X (conf27: "Make the publish job fail on any release without the license check",
    "Don't publish 3.1 without the license check" under "Never publish a release without the
    license check", drafted `require: license check`): asks, never a block, never a pass."""
    if not (ON and accepted and outcome.status == "violated" and outcome.missing
            and not outcome.forbid_hit and not prepared.code):
        return outcome
    for entry in outcome.missing:
        hits = [h for t in entry.split("|") for h in find_term(prepared, gate_of(t.strip())[1])]
        kept = [h for h in hits if h.negated_by.lower() == "without"]
        if not kept or not all(enforces(prepared.text, h.start) for h in kept):
            return outcome
    outcome.status = "undecided"
    outcome.reason = (f"applies, undecided: the proposal names '{outcome.missing[0]}' after "
                      "'without' under an act that enforces it: judge whether it breaks the rule")
    return outcome
