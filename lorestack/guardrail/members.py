"""A criterion that applies only through a member of a category its sentence names is a guess
(concepts.py's category lists): at most "applies, undecided", never a block; a member only
ever taken away keeps the rule (fourteenth session)."""

from __future__ import annotations

import re
from bisect import bisect_left

from lorestack.guardrail.concepts import category_members
from lorestack.guardrail.drafted_words import added_words_only, asked_by_meaning  # noqa: F401
from lorestack.guardrail.meaning_needs import weak_need
from lorestack.guardrail.rules import PreparedText, RuleOutcome, _triggered_words
from lorestack.guardrail.terms import iter_term
from lorestack.memory_layers.models import CriterionSpec

# a verb that takes a member away ("delete the leftover jest.config.js", "port the last
# Flask blueprint …"), unless the member is what something goes to ("replace X with Y")
_TAKES_AWAY = re.compile(r"(remov|delet|drop|retir|uninstal|port|replac|migrat|mov)\w*$")
_GOES_TO = {"with", "to", "onto", "into", "by", "for", "use", "using", "add", "install"}


def _taken_away(prepared: PreparedText, words: list[str]) -> bool:
    """Every occurrence of `words` is the object of a verb that removes it."""
    seen = False
    for w in words:
        for hit in iter_term(prepared, w, negation=False):
            k = bisect_left(prepared.starts, hit.start)
            before = [t.word for t in prepared.tokens[max(0, k - 5):k]]
            verbs = [i for i, b in enumerate(before) if _TAKES_AWAY.match(b)]
            if not verbs or _GOES_TO & set(before[verbs[-1]:]):
                return False
            seen = True
    return seen


def member_only(
    outcome: RuleOutcome, spec: CriterionSpec, sentence: str, prepared: PreparedText,
    paths: list[str] | tuple = (),
) -> RuleOutcome:
    """`_member_only`, then a confirmed draft applied only through words its reading added
    (drafted_words.py, twenty-eighth session), then one applied only by meaning whose missing
    requirement is for an act the proposal does not show (meaning_needs.py, twenty-ninth)."""
    outcome = added_words_only(_member_only(outcome, spec, sentence, prepared), spec, sentence,
                               prepared)
    return weak_need(outcome, spec, sentence, prepared, paths)


def _member_only(
    outcome: RuleOutcome, spec: CriterionSpec, sentence: str, prepared: PreparedText
) -> RuleOutcome:
    """A drafted criterion that applies only through a member of a category its sentence
    names (RabbitMQ under "a second queueing system", `import smtplib` under "a mail
    server") applies by a guess, whoever confirmed the draft: at most "applies,
    undecided", never a block; a member only ever taken away keeps it (fourteenth
    session)."""
    words = _triggered_words(outcome.triggers)
    if not (spec.drafted and words) or len(words) < len(outcome.triggers) or outcome.forbid_hit:
        return outcome
    members = category_members(sentence)
    if not all(w in members for w in words):
        return outcome
    outcome.guessed = True
    if _taken_away(prepared, words):
        outcome.status, outcome.exempted_by = "satisfied", words[0]
        outcome.reason = f"it only takes away {', '.join(words[:3])}, of a kind the rule names"
        return outcome
    if outcome.status == "violated" or (
        outcome.status == "satisfied" and not (outcome.exempted_by or outcome.ignored)
    ):
        outcome.status = "undecided"
        outcome.reason = (
            f"applies, undecided: it applies only through {', '.join(words[:3])}, which the "
            "rule does not name but is of a kind it names (a guess): judge whether the "
            "proposal breaks it"
        )
    return outcome
