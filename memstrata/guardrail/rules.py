"""Deterministic evaluation of a decision criterion against a proposal.

A criterion (`CriterionSpec`) is judged without any model, in this order:

1. **Applies?** Any applies-to entry matches (OR): a path glob matches a changed path, a
   tool's file path or a path mentioned in the proposal text (gitignore habits: `*` stays
   in one folder, `**` crosses folders, a trailing `/` means everything below, a glob
   without `/` matches at any depth; `infra/**` never matches `docs/infra.md`); or a
   keyword/topic occurs (see terms.py: stems, prefixes, phrases, split identifiers).
2. No `forbid`/`require` terms → **possibly relevant** (the sentence rules in
   sentences.py, an LLM or a human can judge).
3. An `unless` term present → **satisfied** (an exemption or the recommended alternative).
4. A `forbid` term present → **violated**.
5. A `require` entry absent → **violated**. Every `require` entry must be present; one entry
   may list alternatives with `|`, as may forbid/unless entries.
6. Otherwise **satisfied**.

Term syntax (words, `*` prefixes, `A & B`, `added:`/`changed:` gates, `/regex/`,
`path:GLOB`) and negation are described in terms.py. For a diff, the judged text is the
added lines (plus any message): removing a cron job never violates "no cron".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from memstrata.guardrail.terms import (  # noqa: F401 - re-exported for callers and tests
    Hit,
    PreparedText,
    find_term,
    first_affirmed,
    glob_matches,
    is_regex,
    iter_term,
    normalise_path,
    path_term,
    paths_in_text,
    stem,
    term_hits,
    word_forms,
)
from memstrata.memory_layers.models import CriterionSpec

RuleStatus = Literal["not_applicable", "possibly_relevant", "satisfied", "violated"]


# ---- evaluation -------------------------------------------------------------------------
@dataclass
class RuleOutcome:
    """How the rules judged one criterion, with the evidence for each step."""

    status: RuleStatus
    reason: str
    triggers: list[str] = field(default_factory=list)  # what made it apply
    quote: str = ""
    forbid_hit: str = ""
    missing: list[str] = field(default_factory=list)
    exempted_by: str = ""
    ignored: list[str] = field(default_factory=list)  # negated occurrences, explained

    @property
    def decided(self) -> bool:
        return self.status in ("satisfied", "violated", "not_applicable")


def spec_problems(spec: CriterionSpec) -> list[str]:
    """What keeps a criterion from being judged by the rules (empty = fully decidable)."""
    problems = []
    for part in spec.missing_parts():
        problems.append(f"missing {part}")
    problems.extend(spec.regex_problems())
    return problems


def applies(spec: CriterionSpec, prepared: PreparedText, paths: list[str]) -> list[str]:
    """The applies-to entries that match, described for people ('path infra/** ~ infra/a.tf')."""
    triggers = []
    for glob in spec.applies_to.paths:
        hit = next((p for p in paths if glob_matches(glob, p)), None)
        if hit is not None:
            triggers.append(f"path {glob} ~ {hit}")
    for kind, terms in (("keyword", spec.applies_to.keywords), ("topic", spec.applies_to.topics)):
        for term in terms:
            if next(iter_term(prepared, term, negation=False), None) is not None:
                triggers.append(f"{kind} '{term}'")
    return triggers


def _alternatives(entry: str) -> list[str]:
    if is_regex(entry):
        return [entry]
    return [alt.strip() for alt in entry.split("|") if alt.strip()]


def evaluate(spec: CriterionSpec, prepared: PreparedText, paths: list[str]) -> RuleOutcome:
    """Judge one criterion against a prepared proposal (see the module docstring)."""
    triggers = applies(spec, prepared, paths)
    if not triggers:
        return RuleOutcome("not_applicable", "none of its paths, keywords or topics occur")
    text = prepared.text
    if not (spec.forbid or spec.require):
        return RuleOutcome(
            "possibly_relevant",
            "applies, but has no forbid/require terms the rules can check",
            triggers,
        )
    ignored: list[str] = []

    def note_negated(hits: list[Hit]) -> None:
        for h in hits:
            ignored.append(f"'{h.term}' negated by '{h.negated_by}': {h.quote(text, 30)}")

    exempt, neg = first_affirmed(
        prepared, [a for u in spec.unless for a in _alternatives(u)], paths
    )
    note_negated(neg)
    if exempt is not None:
        return RuleOutcome(
            "satisfied",
            f"exempted: '{exempt.term}' is present",
            triggers,
            quote=exempt.quote(text),
            exempted_by=exempt.term,
            ignored=ignored,
        )
    forbidden, neg = first_affirmed(
        prepared, [a for f in spec.forbid for a in _alternatives(f)], paths
    )
    note_negated(neg)
    if forbidden is not None:
        return RuleOutcome(
            "violated",
            f"forbidden '{forbidden.term}' is present",
            triggers,
            quote=forbidden.quote(text),
            forbid_hit=forbidden.term,
            ignored=ignored,
        )
    missing = []
    for entry in spec.require:
        found, neg = first_affirmed(prepared, _alternatives(entry), paths)
        note_negated(neg)
        if found is None:
            missing.append(entry)
    if missing:
        listed = ", ".join(f"'{m}'" for m in missing)
        return RuleOutcome(
            "violated", f"required {listed} not present", triggers, missing=missing, ignored=ignored
        )
    return RuleOutcome(
        "satisfied", "no forbidden term, every required term present", triggers, ignored=ignored
    )
