"""A proposal that names the forbidden thing only as what it takes away or what a check it adds
fails on (thirty-first session, fix31).

taken_away.py keeps a proposal that removes or replaces what a rule forbids, judged by the stems
of the rule's whole prohibition: where what a replacement brings shares a stem with it ("Replace
the os.system call … with subprocess.run and an argument list" under "Don't call subprocess with
shell=True (or os.system)": subprocess is forbidden only with shell=True), or where the proposal
turns the forbidden thing into an error ("Turn on the no-console ESLint rule so console.log fails
lint"), a confirmed rule blocked. This reads the forbidden term the check found, at each place
the proposal names it: every occurrence must be the object of a verb that takes it away or bans
it in the same clause ("remove / delete / drop / strip / replace / get rid of / ban / forbid /
disallow / reject / flag … X", not after the "with" / "by" / "to" of a replacement), or the
subject of a check's failure ("X fails lint", "X is rejected / flagged / reported"). Then the
confirmed block becomes "applies, undecided" (judging.py's line for what a proposal takes away),
never a pass. Prose only (a change's lines do what they say); never for a rule whose own
prohibition is a removal ("never delete a migration")."""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

_BOUNDARY = re.compile(r"[.;!?](?=\s|$)|,\s|\n|\s(?:and|but|so|then|while)\s")
_TAKE = re.compile(
    r"(?i)\b(?:remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|drop(?:s|ped|ping)?|strip(?:s|ped|ping)?|"
    r"replac(?:e|es|ed|ing)|purg(?:e|es|ed|ing)|get(?:s|ting)?\s+rid\s+of|rip(?:s|ped)?\s+out|"
    r"clean(?:s|ed)?\s+up|ban(?:s|ned)?|forbid(?:s|den)?|disallow(?:s|ed)?|reject(?:s|ed)?|"
    r"flag(?:s|ged)?|catch(?:es)?|detect(?:s|ed)?|prevent(?:s|ed)?|block(?:s|ed)?|lint\s+against)\b")
_BROUGHT = re.compile(r"(?i)\b(?:with|by|to|into|for|using)\b")
_NEGATED = re.compile(r"(?i)\b(?:don't|do\s+not|never|not|instead\s+of|without)\b")
_FAILS = re.compile(
    r"(?i)^[\s\w'\"`()-]{0,30}?\b(?:fails?|errors?|breaks?\s+the\s+build|is\s+(?:rejected|flagged|"
    r"reported|caught|blocked|banned|forbidden|not\s+allowed|an\s+error))\b")


def _spans(text: str) -> list[tuple[int, int]]:
    cuts = [0, *(m.end() for m in _BOUNDARY.finditer(text)), len(text)]
    return list(zip(cuts, cuts[1:]))


def named_as_removed(hit: str, text: str, sentence: str) -> str | None:
    """The forbidden `hit` when a proposal in words names it only as what it takes away or what a
    check fails on; else None."""
    from lorestack.guardrail.meaning import split_acts
    from lorestack.guardrail.taken_away import _REMOVAL_ACT
    from lorestack.guardrail.terms import gate_of

    thing = gate_of(hit.strip())[1].split(" & ")[0].strip()
    if not ON or not thing or thing.startswith("/") or "\n+" in text:
        return None
    if any(_REMOVAL_ACT.search(a) for a in split_acts(sentence)[0]):
        return None
    found = [m.start() for m in re.finditer(rf"(?i)(?<![\w.]){re.escape(thing)}(?![\w])", text)]
    if not found:
        return None
    for pos in found:
        start, end = next((a, b) for a, b in _spans(text) if a <= pos < b)
        before, after = text[start:pos], text[pos + len(thing):end]
        verb = ([None, *_TAKE.finditer(before)])[-1]  # the last such verb before it
        taken = (verb is not None and not _BROUGHT.search(before[verb.end():])
                 and not _NEGATED.search(before[:verb.start()]))
        if not (taken or _FAILS.search(after)):
            return None
    return thing
