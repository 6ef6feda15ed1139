"""A confirmed draft that applied only by meaning and found only a required term missing:
"applies, undecided" unless the proposal shows the act the requirement is tied to
(twenty-ninth session, other29).

"Never merge a release branch without a sign-off", drafted `require: sign-off` with no scope
of its own, applies wherever a proposal reads close to it — "Merge the billing PR after two
days of review", "Squash the last three commits" — and, confirmed, blocked each for the
missing 'sign-off'. Meaning says what a proposal is about, not that it does the act: a
required thing missing is evidence of a violation only where the act it is required for is
done. Where the rule applied by meaning alone, the words of that act (the clause before
"without / unless / once / after / until / before / needs / with …": "merge a release
branch") must all occur in the proposal for the missing term to decide a block; otherwise
the confirmed rule asks, as the guess does. A rule that applied by its words, or that found
a forbidden term, is untouched."""

from __future__ import annotations

import re

from lorestack.guardrail.rules import RuleOutcome
from lorestack.guardrail.thing_in_code import thing_shown
from lorestack.guardrail.words import stem

ON = True  # the switch tests and tests.stage_audit turn off

# what ties the requirement to the act, the act said before it ("must not" forbids: the act
# goes on past it, "The CLI must not send telemetry without …")
_MARKER = re.compile(
    r"\b(?:without|unless|until|once|after|before|except|with|needs?|requires?|gets?|"
    r"(?:must|should)(?!\s+(?:not|never)\b)|has|have|having|only\s+if|only\s+when|"
    r"in\s+the\s+same|is|are|carr(?:y|ies)|declares?|sets?)\b", re.I)
# carries / declares / sets: the verbs sentence_needs.py reads a requirement after ("Every
# Grafana dashboard carries a team tag"): what follows is the requirement, not the act
_CUES = frozenset(
    "never not no don't dont do does avoid always only every each any all a an the to in on "
    "of for from into at by be is are set sets must should may can we you our your it its "
    "their this that these those new ever anything something someone anyone nobody over "
    "more than less under above below".split()
)


def act_words(sentence: str, require: list[str] | tuple = ()) -> list[str]:
    return act_head(sentence, require)[1]


def act_head(sentence: str, require: list[str] | tuple = ()) -> tuple[str, list[str]]:
    """The content words of the act a requirement is tied to: the sentence before its first
    marker, less cue words, numbers and the words of what it requires ("Never merge a
    release branch without a sign-off" -> merge, release, branch)."""
    # a required regex's words without its escapes (`\breadOnlyRootFilesystem`)
    wanted = {w for r in require for w in re.findall(r"[a-z0-9_']+", re.sub(r"\\[a-zA-Z]", " ", r).lower())}
    head = sentence
    for m in _MARKER.finditer(sentence):
        before = re.findall(r"[a-z0-9_']+", sentence[: m.start()].lower())
        if [w for w in before if w not in _CUES and not w.isdigit()]:
            head = sentence[: m.start()]
            break
    words = re.findall(r"[a-z][a-z0-9_']*", head.lower())
    return head, list(dict.fromkeys(w for w in words if w not in _CUES | wanted and len(w) > 1))


# the share of the act's words the proposal must show (a word of a touched path counts)
ACT_SHARE = 2 / 3


def act_shown(sentence: str, require: list[str], prepared, paths=()) -> bool:
    head, words = act_head(sentence, require)
    parts = {stem(w) for p in paths for w in re.findall(r"[a-z0-9]+", p.lower())}
    shown = sum(bool(prepared.indexes_of(w)) or stem(w) in parts for w in words)
    if bool(words) and shown >= ACT_SHARE * len(words):
        return True
    return thing_shown(head, words, prepared, paths)  # the change is the thing (fix30)


def weak_need(outcome: RuleOutcome, spec, sentence: str, prepared, paths=()) -> RuleOutcome:
    """A confirmed draft, applied by meaning only, violated only because a required term is
    missing, where the proposal does not show the act the requirement is for: it asks."""
    if not (ON and spec.drafted == "confirmed" and outcome.status == "violated"
            and outcome.by_meaning and outcome.missing and not outcome.forbid_hit):
        return outcome
    if act_shown(sentence, spec.require, prepared, paths):
        return outcome
    listed = ", ".join(f"'{m}'" for m in outcome.missing)
    outcome.status = "undecided"
    outcome.reason = (
        f"applies, undecided: close to the criterion by meaning ({outcome.triggers[0]}) and "
        f"{listed} is not there, but the proposal does not show the act it is required for "
        f"({', '.join(act_words(sentence, spec.require)) or 'none named'}): judge whether it breaks the rule"
    )
    return outcome
