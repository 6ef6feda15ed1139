"""Deterministic evaluation of a decision criterion against a proposal.

A criterion (`CriterionSpec`) is judged without any model, in this order:

1. **Applies?** Any applies-to entry matches (OR): a path glob matches a changed path, a
   tool's file path or a path mentioned in the proposal text (gitignore habits: `*` stays
   in one folder, `**` crosses folders, a trailing `/` means everything below, a glob
   without `/` matches at any depth; `infra/**` never matches `docs/infra.md`); or a
   keyword/topic occurs (see terms.py: stems, prefixes, phrases, split identifiers).
2. No `forbid`/`require` terms → **possibly relevant** (the sentence rules in
   sentences.py, an LLM or a human can judge).
   A criterion with no applies-to at all applies to every proposal (its terms decide).
3. An `unless` term present → **satisfied** (an exemption the user named).
4. A `forbid` term present → **violated** — unless that occurrence lies inside the
   recommended alternative ("use a manual script" does not forbid "script"); an
   alternative present with nothing forbidden → **satisfied**.
5. A `require` entry absent → **violated**. Every `require` entry must be present; one entry
   may list alternatives with `|`, as may forbid/unless entries.
6. Otherwise **satisfied**.

Term syntax (words, `*` prefixes, `A & B`, `added:`/`changed:` gates, `/regex/`,
`path:GLOB`) and negation are described in terms.py. For a diff, the judged text is the
added lines (plus any message): removing a cron job never violates "no cron".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from lorestack.guardrail.alternative_denied import alternative_denied
from lorestack.guardrail.denied import condition_denied
from lorestack.guardrail.path_names import path_name
from lorestack.guardrail.sentence_words import shown
from lorestack.guardrail.sentences import SentenceDraft, read_sentence
from lorestack.guardrail.terms import (  # noqa: F401 - re-exported for callers and tests
    Hit,
    PreparedText,
    find_term,
    first_affirmed,
    gate_of,
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
from lorestack.memory_layers.models import CriterionSpec

RuleStatus = Literal["not_applicable", "possibly_relevant", "undecided", "satisfied", "violated"]


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
    # exceptions said not to hold ("no review yet" under "… unless 'reviewed'"): no sign the
    # rule is kept, so kept apart from `ignored` (thirty-sixth session)
    unmet: list[str] = field(default_factory=list)
    by_meaning: bool = False  # it applied by meaning only (none of its words occur)
    # it applied only through a member of a category the rule names (concepts.py): a guess
    guessed: bool = False
    # the forbidden word occurs only as a part of this longer name (`literal_eval` for
    # 'eval', `runAsNonRoot` for 'root'): not the word itself, so it cannot block
    inside_name: str = ""

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


def applies(
    spec: CriterionSpec, prepared: PreparedText, paths: list[str], *, everywhere: bool = True
) -> list[str]:
    """The applies-to entries that match, described for people ('path infra/** ~ infra/a.tf').
    A criterion without any applies-to applies to everything when `everywhere`."""
    triggers = []
    if spec.applies_to.is_empty() and everywhere:
        return ["no scope given: applies to every proposal"]
    for glob in spec.applies_to.paths:
        hit = next((p for p in paths if glob_matches(glob, p)), None)
        if hit is not None:
            triggers.append(f"path {glob} ~ {hit}")
    for kind, terms in (("keyword", spec.applies_to.keywords), ("topic", spec.applies_to.topics)):
        for term in terms:
            if gate_of(term)[0]:  # "added:flag": only where a flag is added
                found = next((h for h in term_hits(prepared, term) if not h.negated_by), None)
            else:
                found = next(iter_term(prepared, term, negation=False), None)
            if found is not None:
                triggers.append(f"{kind} '{shown(term)}'")
    return triggers


def entry_alternatives(entry: str) -> list[str]:
    """The alternatives of one forbid/require entry (`a | b`); a regex is one, whole."""
    if is_regex(entry):
        return [entry]
    return [alt.strip() for alt in entry.split("|") if alt.strip()]


def _only_negated_mentions(spec: CriterionSpec, prepared: PreparedText, paths: list[str]) -> bool:
    """True when no path applies and every keyword/topic occurrence is negated: "we will not
    remove any public function" does not do what "deprecate before removing" is about."""
    if any(glob_matches(g, p) for g in spec.applies_to.paths for p in paths):
        return False
    terms = [*spec.applies_to.keywords, *spec.applies_to.topics]
    hits = [h for t in terms for h in iter_term(prepared, t)]
    return bool(hits) and all(h.negated_by for h in hits)


def evaluate(
    spec: CriterionSpec,
    prepared: PreparedText,
    paths: list[str],
    applies_by: Callable[[], str | None] | None = None,
) -> RuleOutcome:
    """Judge one criterion against a prepared proposal (see the module docstring).
    `applies_by`: asked when none of its words or paths occur (by meaning); a criterion
    without applies-to then applies only through it."""
    triggers = applies(
        spec, prepared, paths, everywhere=applies_by is None and not spec.require
    )
    by_meaning = False
    if not triggers and applies_by is not None:
        found = applies_by()
        triggers, by_meaning = ([found], True) if found else ([], False)
    if not triggers:
        return RuleOutcome("not_applicable", "none of its paths, keywords or topics occur")
    out = _evaluate_terms(spec, prepared, paths, triggers)
    out.by_meaning = by_meaning
    if by_meaning and out.status == "satisfied" and not (out.exempted_by or spec.require):
        out.status = "undecided"
        out.reason = (
            f"applies, undecided: none of its words occur but the proposal is close to it "
            f"{triggers[0]}; judge whether it breaks the rule"
        )
    return out


def _evaluate_terms(
    spec: CriterionSpec, prepared: PreparedText, paths: list[str], triggers: list[str]
) -> RuleOutcome:
    if not (spec.forbid or spec.require):
        return RuleOutcome(
            "possibly_relevant",
            "applies, but has no forbid/require terms the rules can check",
            triggers,
        )
    out = RuleOutcome("satisfied", "no forbidden term, every required term present", triggers)
    text = prepared.text

    def affirmed(entries: list[str], into: list[str]) -> Hit | None:
        hit, negated = first_affirmed(
            prepared, [a for e in entries for a in entry_alternatives(e)], paths
        )
        for h in negated:
            into.append(f"'{h.term}' negated by '{h.negated_by}': {h.quote(text, 30)}")
        return hit

    exempt = affirmed(spec.unless, out.unmet if UNMET_APART else out.ignored)
    if exempt is not None and not condition_denied(prepared, exempt):  # "X is not set yet"
        out.reason = f"exempted: '{exempt.term}' is present"
        out.quote, out.exempted_by = exempt.quote(text), exempt.term
        return out
    alternative = _alternative_hits(spec, prepared, paths)
    forbidden = _forbidden_outside(spec, prepared, paths, alternative, out)
    if forbidden is None and alternative:
        out.reason = f"takes the recommended alternative '{alternative[0].term}'"
        out.quote, out.exempted_by = alternative[0].quote(text), alternative[0].term
        return out
    if forbidden is not None:
        out.status, out.reason = "violated", f"forbidden '{shown(forbidden.term)}' is present"
        out.quote, out.forbid_hit = forbidden.quote(text), forbidden.term
        out.inside_name = longer_name(text, forbidden)
        return out
    out.missing = [
        entry for entry in spec.require
        if _left_alone(affirmed([entry], out.ignored), entry, prepared, paths)
    ]
    if out.missing and _only_negated_mentions(spec, prepared, paths):
        out.reason = "it only mentions what the rule is about in the negative"
    elif out.missing:
        listed = ", ".join(f"'{m}'" for m in out.missing)
        out.status, out.reason = "violated", f"required {listed} not present"
    return out


# a required thing named only to say it is left as it was ("… # CHANGELOG.md untouched"), the
# saying ending there ("is not changed by hand, it is generated" says something else)
_LEFT_ALONE = re.compile(r"[`'\"]?\s+(?:(?:is|was|stays|remains|left)\s+)?(?:untouched|unchanged|"
                         r"unmodified|not\s+(?:updated|touched|changed|edited))\b"
                         r"(?=\s*(?:$|[.,;:!)#\n]|--|\band\b|\bbut\b))", re.I | re.M)
UNMET_APART = LEFT_ALONE = True  # the switches tests.stage_audit turns off


def _left_alone(hit: Hit | None, entry: str, prepared: PreparedText, paths: list[str]) -> bool:
    """No affirmed occurrence, or only ones the proposal says it leaves as they were ("tests
    unchanged; new tests added in tests/…" names one it adds)."""
    if hit is None:
        return True
    if not LEFT_ALONE:
        return False
    text = prepared.text
    hits = [h for t in entry_alternatives(entry) for h in term_hits(prepared, t, paths)
            if not h.negated_by]
    return all(h.end >= 0 and _LEFT_ALONE.match(text, h.end) for h in hits or [hit])


def _alternative_hits(spec: CriterionSpec, prepared: PreparedText, paths: list[str]) -> list:
    alts = [a for e in spec.alternatives for a in entry_alternatives(e)]
    return [h for t in alts for h in term_hits(prepared, t, paths)
            if not h.negated_by and not alternative_denied(prepared, h)]  # "… lags too much"


def _forbidden_outside(spec, prepared, paths, alternative: list, out: RuleOutcome):
    """The first affirmed forbidden occurrence that is not part of a recommended
    alternative's words; one that is the word itself before one met only inside a longer
    name (`eval(` before `ast.literal_eval(`)."""
    text = prepared.text
    part = None
    for term in (a for e in spec.forbid for a in entry_alternatives(e)):
        for hit in term_hits(prepared, term, paths):
            if hit.negated_by:
                if len(out.ignored) < 10:
                    out.ignored.append(
                        f"'{hit.term}' negated by '{hit.negated_by}': {hit.quote(text, 30)}"
                    )
                continue
            if _inside(hit, alternative):
                continue
            if not longer_name(text, hit):
                return hit
            part = part or hit
    return part


_NAME_CHAR = re.compile(r"[A-Za-z0-9_]")


def longer_name(text: str, hit: Hit) -> str:
    """The longer name a word term's occurrence is only a part of, or '': identifiers are
    split so that `user` finds `getUserById`, but `ast.literal_eval` is not `eval`, nor
    `runAsNonRoot` 'root' (twenty-second session: such parts blocked confirmed rules)."""
    if hit.start < 0 or hit.quoted or is_regex(gate_of(hit.term)[1]):
        return ""
    lo, hi = hit.start, hit.end
    if in_path := path_name(text, lo, hi, gate_of(hit.term)[1]):  # `.env` (path_names.py)
        return in_path
    while lo > 0 and _NAME_CHAR.match(text[lo - 1]):
        lo -= 1
    while hi < len(text) and _NAME_CHAR.match(text[hi]):
        hi += 1
    return text[lo:hi] if (lo, hi) != (hit.start, hit.end) else ""


def _inside(hit: Hit, alternative: list) -> bool:
    """The hit is part of a recommended alternative's words ("use a manual script" holds
    "script"): taking the alternative is not doing the forbidden thing."""
    return any(a.start >= 0 and a.start <= hit.start and hit.end <= a.end for a in alternative)


def near_forbidden(spec: CriterionSpec, prepared: PreparedText, paths: list[str]) -> Hit | None:
    """A forbidden word of the user's found only as the start of a longer word (`--forbid
    cron` and "a crontab entry"): not the word itself, so it decides nothing, but not a
    pass either: the check answers "applies, undecided" and quotes it."""
    alternative = _alternative_hits(spec, prepared, paths)
    for term in (a for e in spec.forbid for a in entry_alternatives(e)):
        gate, bare = gate_of(term)
        if not re.fullmatch(r"[a-z0-9]{3,}", bare.lower()):
            continue
        for hit in term_hits(prepared, f"{gate}:{bare}*" if gate else f"{bare}*", paths):
            word = prepared.text[hit.start:hit.end].lower() if hit.start >= 0 else ""
            longer = len(word) > len(bare) and stem(word) != stem(bare.lower())
            # the word itself was judged by the rules; an alternative's words are no sign
            if longer and not hit.negated_by and not _inside(hit, alternative):
                hit.term = term
                return hit
    return None


def _triggered_words(triggers: list[str]) -> list[str]:
    """The keywords/topics that made a criterion apply ("keyword 'cron'" -> cron)."""
    return [t.split("'")[1] for t in triggers if t.startswith(("keyword '", "topic '"))]


def _related(words: list[str], terms: list[str]) -> bool:
    stems = {stem(w) for t in terms for w in re.findall(r"[a-z0-9]+", t.lower())}
    return any(stem(w) in stems for k in words for w in re.findall(r"[a-z0-9]+", k.lower()))


def merge_draft(spec: CriterionSpec, draft: SentenceDraft) -> CriterionSpec:
    """The criterion with a draft's terms; applies-to widens with the draft's words unless
    the user scoped it to paths. The user's own forbid/require terms are never replaced."""
    if spec.forbid or spec.require:
        return spec
    a = spec.applies_to
    gated = {gate_of(k)[1]: k for k in draft.keywords if gate_of(k)[0]}
    keywords, paths = [gated.get(k, k) for k in a.keywords], list(a.paths)
    if not a.paths:
        keywords += [k for k in draft.keywords if k not in keywords]
        paths += [p for p in draft.paths if p not in paths]
    return spec.model_copy(
        update={
            "applies_to": a.model_copy(update={"keywords": keywords, "paths": paths}),
            "forbid": list(draft.forbid),
            "require": list(draft.require),
            "unless": [*spec.unless, *(u for u in draft.unless if u not in spec.unless)],
            "alternatives": [
                *spec.alternatives,
                *(u for u in draft.alternatives if u not in spec.alternatives),
            ],
        }
    )


def _gated(entry: str, gate: str) -> str:
    if is_regex(entry):
        return entry
    alts = [a.strip() for a in entry.split("|")]
    if any(":" in a.split(" ")[0] for a in alts):  # path:, added:, changed: stay as written
        return entry
    return " | ".join(f"{gate}:{a}" for a in alts if a)


def gate_user_terms(spec: CriterionSpec, sentence: str) -> CriterionSpec:
    """Plain forbid words the user gave, gated like the sentence's verb: for "Do not
    introduce a new storage component", `--forbid cache` counts where a cache is added,
    not where one is merely mentioned."""
    if not spec.forbid:
        return spec
    draft = read_sentence(sentence)
    gates = {gate_of(f)[0] for f in draft.forbid} - {""}
    if not gates or not gates <= {"added", "created"}:
        return spec
    forbid = [_gated(f, "added") for f in spec.forbid]
    return spec if forbid == spec.forbid else spec.model_copy(update={"forbid": forbid})


def sentence_spec(spec: CriterionSpec, sentence: str) -> tuple[CriterionSpec, SentenceDraft]:
    """The criterion with the terms read from its sentence."""
    draft = read_sentence(sentence)
    return merge_draft(spec, draft), draft


def evaluate_sentence(
    spec: CriterionSpec,
    sentence: str,
    prepared: PreparedText,
    paths: list[str],
    applies_by: Callable[[], str | None] | None = None,
) -> RuleOutcome | None:
    """Judge a criterion that has no terms by its sentence; None when the sentence is no
    prohibition or obligation. "applies, undecided" when the rules cannot tell."""
    derived, draft = sentence_spec(spec, sentence)
    if not draft.kind:
        return None
    out = evaluate(derived, prepared, paths, applies_by)
    if out.status == "not_applicable" or out.by_meaning:
        return out
    out.reason = f"from the sentence: {out.reason}"
    if out.status == "possibly_relevant":
        out.status = "undecided"
        out.reason = "applies, undecided: the sentence names nothing the rules can look for"
    elif (
        out.status == "satisfied"
        and draft.kind == "prohibition"
        and not (out.exempted_by or out.ignored)
        and not _related(_triggered_words(out.triggers), derived.forbid)
    ):
        out.status = "undecided"
        named = [
            gate_of(t)[1] for t in draft.forbid + draft.alternatives + draft.unless
            if not is_regex(t)
        ]
        out.reason = (
            f"applies, undecided: none of what it forbids or recommends ({', '.join(named)}) "
            "occurs as such"
        )
    return out

