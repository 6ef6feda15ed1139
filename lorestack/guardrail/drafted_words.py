"""A confirmed draft that applied only through words the reader added to its scope (a
concept's spellings, concepts.py: `verify=False` for "TLS certificate verification", Kafka for
"storage", RabbitMQ for "a second queueing system"), where none of what it forbids occurs and
nothing exempts: "applies, undecided", as the guess answered (judging._guess), never a pass.
Confirming a draft accepts its terms as deciding a block; the words it added to say where it
applies are no terms the user read as "kept" (twenty-eighth session, fix28: the review's
`requests.get(url, verify=False)` under "Never turn off TLS certificate verification" asked
as a guess and passed once confirmed)."""

from __future__ import annotations

import copy
import re

from lorestack.guardrail.rules import RuleOutcome, _triggered_words, stem

ON = True  # the switch tests and tests.stage_audit turn off


def _in_sentence(word: str, stems: set[str]) -> bool:
    return all(stem(w) in stems for w in re.findall(r"[a-z0-9]+", word.lower()))


def added_words_only(outcome: RuleOutcome, spec, sentence: str, prepared) -> RuleOutcome:
    """What the guess then holds it to still keeps it: a fault's code shown without the fault,
    a proposal that only takes the thing away or moves over to the rule's way, or writes the
    rule down (guess_checks.py)."""
    if not (ON and spec.drafted == "confirmed" and outcome.status == "satisfied"
            and not (outcome.exempted_by or outcome.ignored or outcome.by_meaning
                     or spec.require)):
        return outcome
    words = _triggered_words(outcome.triggers)
    stems = {stem(w) for w in re.findall(r"[a-z0-9]+", sentence.lower())}
    if (not words or len(words) < len(outcome.triggers) or any(w.startswith("/") for w in words)
            or any(_in_sentence(w, stems) for w in words)):
        return outcome
    from lorestack.guardrail.guess_checks import detail, takes_away, writes_down
    from lorestack.guardrail.judging import _names_forbidden  # judging calls this module

    if _names_forbidden(words, spec.forbid, prepared.stems):
        return outcome
    held = copy.copy(outcome)
    held.status = "undecided"
    held.reason = (
        f"applies, undecided ({', '.join(outcome.triggers[:3])}: a word the reading added, "
        f"not one of the sentence), but none of what it forbids ({', '.join(spec.forbid)}) "
        "occurs as such: judge it"
    )
    held = writes_down(takes_away(detail(held, sentence, prepared), sentence, prepared, spec), prepared)
    return held if held.status == "undecided" else outcome


def asked_by_meaning(outcome: RuleOutcome, spec) -> bool:
    """A confirmed draft that asks only because it applied by meaning (none of its terms
    found, nothing missing): the meaning is the reader's guess at where it applies, not a
    term the user read, so what the guess then holds it to (a recommended way taken, a thing
    only taken away, a fault's code without the fault, …: judging.py) keeps it as it keeps
    the guess, where the confirmed rule used to ask."""
    return (ON and spec.drafted == "confirmed" and outcome.status == "undecided"
            and outcome.by_meaning and not (outcome.forbid_hit or outcome.missing))
