"""What a guess is held to after its rules have read it: a proposal that only takes away
what the rule forbids (taken_away.py), one that leaves out or puts off what the rule names
(left_out.py) or shows a well-known fault (faults.py), a "X needs Y" topic or a property of a
change the rule is about (missing.py, change_kind.py), and the wanted thing a change adds or
lacks. Never a block: each answers kept, or "applies, undecided". Moved out of judging.py
(nineteenth session), unchanged.
"""

from __future__ import annotations

import copy
import re

from lorestack.guardrail.binds_only import binds_only
from lorestack.guardrail.change_kind import shows
from lorestack.guardrail.command_words import only_reads
from lorestack.guardrail.faults import judge_fault
from lorestack.guardrail.left_out import judge_left_out
from lorestack.guardrail.missing import judge_missing, judge_topic, wanted_present
from lorestack.guardrail.rules import PreparedText, RuleOutcome, _triggered_words
from lorestack.guardrail.spellings import spells_wanted
from lorestack.guardrail.taken_away import only_taken_away
from lorestack.guardrail.toward_way import moved_to_way
from lorestack.guardrail.wanted_affirmed import wanted_affirmed
from lorestack.guardrail.written_down import written_down

READS_ONLY = True  # the switch tests and tests.stage_audit turn off
# a rule about reading, showing or copying something: a command that only reads can break it
_ABOUT_READING = re.compile(
    r"(?i)\b(?:read|reads|look|looks|view|print|prints|printed|show|shows|shown|display\w*|cat"
    r"|access\w*|open|opens|quer(?:y|ies)|inspect\w*|brows\w*|log|logs|logged|dump\w*|list"
    r"|lists|explor\w*|cop(?:y|ies)|past\w*|download\w*|export\w*|expos\w*|see|echo\w*"
    r"|output\w*|fetch\w*|scrap\w*|search\w*|connect\w*|leak\w*|reveal\w*"
    r"|use|uses|using|used)\b"  # fix27b: "Don't use the prod kube context": the read is the use
)
# fix27b: a read that shows a secret is no harmless read (`kubectl get secret stripe -o yaml`)
_READS_SECRET = re.compile(r"(?i)\b(?:secrets?|credentials?|passwords?|tokens?|api[_-]?keys?)\b")


def takes_away(outcome: RuleOutcome, sentence: str, prepared: PreparedText,
               spec=None) -> RuleOutcome:
    """A guess left open, where the proposal names what the rule forbids only as what it
    removes, replaces, ports or stops (taken_away.py): it keeps the rule. Never for a diff
    or an edit (its added lines are what it brings, not a description of what it removes),
    nor over a category member that applied (members.py judged that already). A command
    whose every step only reads (command_words.only_reads) keeps a rule that is not about
    reading, showing or copying: it changes nothing; prose that only moves things over to
    the rule's own way (toward_way.py) keeps it too (twenty-seventh session)."""
    if (outcome.status == "undecided" and not (outcome.missing or outcome.forbid_hit)
            and binds_only(sentence, prepared.text, prepared.change)):  # `URL = 'https://…'`
        outcome.status, outcome.exempted_by = "satisfied", "binds only"
        outcome.reason = "the change only binds literals to names: it calls nothing: kept"
        return outcome
    if outcome.status != "undecided" or outcome.missing or prepared.change:
        return outcome
    if (READS_ONLY and prepared.code and only_reads(prepared.text)
            and not _ABOUT_READING.search(sentence) and not _READS_SECRET.search(prepared.text)):
        outcome.status, outcome.exempted_by = "satisfied", "only reads"
        outcome.reason = "the command only reads: it changes nothing the rule is about: kept"
        return outcome
    word = None if outcome.guessed else only_taken_away(sentence, prepared.text)
    if word is not None:
        outcome.status, outcome.exempted_by = "satisfied", word
        outcome.reason = f"it only takes away '{word}', which the rule forbids: kept"
    elif spec is not None and not prepared.code and (way := moved_to_way(
            sentence, spec.forbid, spec.require, _triggered_words(outcome.triggers),
            prepared.text)):
        outcome.status, outcome.exempted_by = "satisfied", way
        outcome.reason = f"it only moves things over to the rule's own way ('{way}'): kept"
    return outcome


def writes_down(outcome: RuleOutcome, prepared: PreparedText) -> RuleOutcome:
    """A guess left open by prose that only writes the rule down or adds a check enforcing
    it ("Explain in the deploy guide why production never runs the latest tag",
    written_down.py): it keeps the rule (twenty-third session)."""
    if outcome.status != "undecided" or prepared.code or prepared.change:
        return outcome
    act = written_down(prepared.text)
    if act:
        outcome.status, outcome.exempted_by = "satisfied", act
        outcome.reason = f"it only writes the rule down or enforces it ('{act}'): kept"
    return outcome


def detail(outcome: RuleOutcome, sentence: str, prepared: PreparedText) -> RuleOutcome:
    """A guess that let the proposal pass, whose prose puts off or goes without a thing the
    rule names (left_out.py): undecided. A guess naming a well-known fault that is a detail
    (faults.py): the fault shows -> it applies, undecided; only the code it is a detail of
    shows -> kept. An exemption the rule names ("except in tests", "outside cli/") stands
    (ninth session; a recommended way taken does not: it may come with the fault)."""
    if outcome.status == "satisfied" and outcome.exempted_by.startswith("path:"):
        return outcome  # a scope the rule leaves out (sentence_words.scope_exemptions)
    if outcome.status in ("satisfied", "not_applicable"):
        clause = judge_left_out(sentence, prepared.text)
        if clause is not None:
            return _left_out(clause, "names")
    found = judge_fault(sentence, prepared.text)
    if found is None:
        return outcome
    if found.shown and outcome.status in ("satisfied", "not_applicable"):
        trigger = f"shows {found.label}: '{found.line[:60]}'"
        return RuleOutcome(
            "undecided", f"applies, undecided: {trigger}; judge whether it breaks the rule",
            [trigger], quote=found.line[:120],
        )
    if not found.shown and outcome.status == "undecided":
        outcome.status = "satisfied"
        outcome.reason = (
            f"'{found.line[:60]}' is what the rule is about and does not show "
            f"{found.label}: kept"
        )
    return outcome


def after_meaning(outcome: RuleOutcome, sentence: str, prepared: PreparedText, paths) -> RuleOutcome:
    """A guess that nothing applied, or that meaning let pass: does the proposal name the
    topic a "X needs Y" rule is about (missing.judge_topic), or show the property the rule
    is about (change_kind.py)? One undecided by meaning only: does it have what the rule
    wants ("… need a design record in docs/adr")? Then it is kept."""
    passed_by_meaning = (
        outcome.status == "satisfied" and outcome.by_meaning and not outcome.exempted_by
    )
    if outcome.status == "not_applicable" or passed_by_meaning:
        topic = judge_topic(sentence, prepared.text, paths)
        if topic is not None:
            return RuleOutcome(
                "satisfied" if topic.kept else "undecided", topic.reason,
                [f"about '{topic.quote}'"], quote=topic.quote,
            )
        return shows_property(outcome, sentence, prepared, paths)
    if outcome.status == "undecided" and outcome.by_meaning and not outcome.forbid_hit:
        if wanted_affirmed(sentence, prepared, paths):  # not a mention it takes away
            outcome.status = "satisfied"
            outcome.reason = f"close to it by meaning and has what it wants: kept ({outcome.reason[:80]})"
        elif spells_wanted(sentence, prepared.text, prepared.change):  # spellings.py (sixteenth session)
            outcome.status = "satisfied"
            outcome.reason = f"close to it by meaning and spells what it wants: kept ({outcome.reason[:80]})"
    return outcome


def wanted_thing(outcome: RuleOutcome, sentence: str, prepared: PreparedText, paths) -> RuleOutcome:
    """A guess whose sentence wants something of what a change adds ("public classes need
    a docstring"): the change shows the subject's code form — it applies, kept if the
    wanted thing is there too, else undecided (missing.py; never a block)."""
    found = judge_missing(sentence, prepared.text, paths, prepared.change, prepared.existing)
    if found is None:
        return outcome
    triggers = outcome.triggers or [found.reason.split(":", 1)[-1].strip()[:80]]
    if found.kept:
        return RuleOutcome("satisfied", found.reason, triggers, quote=found.quote[:120])
    return RuleOutcome("undecided", found.reason, triggers, quote=found.quote[:120],
                       missing=[found.wanted])


def shows_property(outcome: RuleOutcome, sentence: str, prepared: PreparedText, paths) -> RuleOutcome:
    """A guess about a property of a change ("breaking", "risky", "architectural") that
    applied by nothing else, where the proposal shows that property (change_kind.py):
    it applies — kept if the proposal has what the rule wants, else undecided."""
    text = prepared.text + "\n" + "\n".join(paths)
    found = shows(sentence, text)
    if found is None:
        return outcome
    kind, line = found
    trigger = f"shows a {kind} change: '{line[:60]}'"
    if wanted_present(sentence, prepared.text, paths):
        return RuleOutcome("satisfied", f"{trigger}, and has what the rule wants: kept", [trigger])
    return RuleOutcome(
        "undecided", f"applies, undecided: {trigger}; judge whether it breaks the rule",
        [trigger], quote=line[:120],
    )


def put_off(outcome: RuleOutcome, spec, sentence: str, prepared: PreparedText,
            paths=()) -> RuleOutcome:
    """An accepted rule whose requirement was met, where the proposal's prose puts off or sets
    aside a thing the rule wants ("collect the sign-off later", "regardless of the user opting
    in": left_out.py): undecided, never a pass (twenty-fourth session's review)."""
    if outcome.status == "satisfied" and spec.require and not outcome.exempted_by:
        clause = judge_left_out(sentence, prepared.text)
        if clause is not None:
            return _left_out(clause, "requires")
    return confirmed_asks(outcome, spec, sentence, prepared, paths)


CONFIRMED_ASKS = True  # the switch tests and tests.stage_audit turn off


def confirmed_asks(outcome: RuleOutcome, spec, sentence: str, prepared: PreparedText,
                   paths) -> RuleOutcome:
    """A draft the user confirmed, whose words let the proposal pass, where what a guess is
    held to (a fault that shows, a property of the change, a thing left out) finds what the
    rule is about: "applies, undecided", as the guess answered —
    never a block, and never a pass it did not give. Confirming a reading accepts its terms
    as deciding, not that nothing else asks (twenty-sixth session: on 24 batches 58 violations
    that the guess asked about — `FROM python:3.12-slim` under "… pinned by digest …", an
    unsigned `git tag` — passed once confirmed, and 5 look-alikes; this asks again of 47 of the
    violations and of none of the look-alikes)."""
    if not (CONFIRMED_ASKS and spec.drafted == "confirmed"
            and outcome.status in ("satisfied", "not_applicable")):
        return outcome
    held = copy.copy(outcome)
    if held.status == "not_applicable" or held.by_meaning and not held.exempted_by:
        held = shows_property(held, sentence, prepared, paths)  # not the "X needs Y" topic:
    held = detail(held, sentence, prepared)  # it asked of 4 look-alikes for 13 violations
    held = writes_down(takes_away(held, sentence, prepared), prepared)
    return held if held.status == "undecided" else outcome


def _left_out(clause: str, wants: str) -> RuleOutcome:
    """"Applies, undecided", quoting the clause that leaves out or puts off what the rule
    names or requires."""
    return RuleOutcome(
        "undecided", f"applies, undecided: it leaves out or puts off what the rule {wants} "
        f"('{clause[:60]}'); judge it", [f"leaves out: '{clause[:60]}'"], quote=clause[:120],
    )
