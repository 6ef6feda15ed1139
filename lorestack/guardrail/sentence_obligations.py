"""Reading an obligation clause of a criterion sentence (sentences.py): "every outgoing HTTP
call needs an explicit timeout", "use X instead of Y", "prefer X over Y", "a release is only
cut after HISTORY.md has an entry". What it wants becomes required (or, beside a
prohibition, the recommended alternative); what "over" / "instead of" names is ruled out
(contrasts.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lorestack.guardrail.contrasts import rule_out
from lorestack.guardrail.draft_grammar import (
    artefact_wanted,
    kept_on,
    object_wanted,
    only_act,
    states_property,
)
from lorestack.guardrail.only_once import only_once
from lorestack.guardrail.sentence_clauses import as_written
from lorestack.guardrail.sentence_words import (
    _COPULAS,
    _GENERIC_NOUNS,
    _GENERIC_VERBS,
    _NEED_CUES,
    _SCOPE_PREPS,
    _VERB_CUES,
    _content,
    _is_path,
    _split_list,
    _split_scope,
    meaningful,
    split_at_or,
)
from lorestack.guardrail.sentence_words import add_term as _add
from lorestack.guardrail.switch_off import off_forms
from lorestack.guardrail.trigger_words import trigger_keyword

if TYPE_CHECKING:
    from lorestack.guardrail.sentences import _Reading


def read_obligation(r: _Reading, cue: str, before: list[str], after: list[str]) -> None:
    d = r.draft
    if "new" in before:  # "every new CLI flag must …": only what is added is bound by it
        subject, _, _ = _content(before)
        for word in subject.split():
            _add(d.keywords, f"added:{word}")
        d.steps.append(f"'new {subject}': applies when {subject} is added")
    if cue in _NEED_CUES and before:
        _read_need(r, cue, before, after)
        return
    if cue == "only" and only_once(r, before, after):  # "Only drop an index once …"
        return
    if cue in _VERB_CUES:
        verb = cue
    elif after:
        verb, after = after[0], after[1:]
    else:
        return
    passive = verb in _COPULAS and bool(after) and after[0].endswith("ed") and len(after[0]) > 4
    if passive:
        verb, after = after[0], after[1:]  # "must be documented": the act is required
    elif verb in _COPULAS:
        r.draft.steps.append(f"'{cue} {verb} {' '.join(after)}': a property, not a term")
        _subject_applies(r, before)
        return
    if "over" in after and cue in _VERB_CUES:  # "prefer X over Y": Y is what it rules out
        cut = after.index("over")
        way = _content(after[:cut], alternative=True)[0]
        for group in _split_list(after[cut + 1 :]):  # "over flake8 or pylint": each
            rule_out(r, _content(group)[0], f"'{cue} … over", _add, way)
        after = after[:cut]
    if "instead" in after and "of" in after:  # "use X instead of Y"
        cut = after.index("instead")
        way = _content(after[:cut], alternative=True)[0]
        for group in _split_list(_split_scope(after[cut + 2 :])[0]):
            rule_out(r, _content(group)[0], "", _add, way)
        after = after[:cut]
    obj, scope, trigger = _split_scope([w for w in after if w != "instead"])
    term, _, paths = _content(obj, alternative=True)
    via = [w for w in scope if w not in _SCOPE_PREPS]
    if scope and scope[0] in ("through", "via", "with"):
        extra, _, _ = _content(via, alternative=True)
        if extra:
            r.alternatives.append(extra)
    if cue == "only" and trigger and verb not in _GENERIC_VERBS and _only_after(r, verb, term,
                                                                                before, trigger):
        return
    if states_property(before, cue, [verb, *after]):  # "Session cookies are always Secure" (draft_grammar.py)
        d.steps.append(f"'{before[-1]} {cue} {verb}': a property of its subject, not a term")
        _subject_applies(r, before[:-1])
        for prop in kept_on(cue, verb, after):
            for form in off_forms(prop):  # a setting's last part: `SESSION_COOKIE_SECURE = False`
                _add(d.forbid, form.replace("(?<![\\w-])", "(?<![A-Za-z0-9-])", 1))
            d.steps.append(f"'{cue} {prop}': forbids {prop} switched off")
        return
    files = [w.strip(".,") for w in scope if _is_path(w) and "." in w.rsplit("/", 1)[-1]]
    artefacts = [as_written(r.sentence, a) for a in artefact_wanted(cue, term, paths, scope, files)]
    if artefacts and not passive:  # "must update CHANGELOG.md": the file, not 'update'
        r.required.extend(artefacts)
        _subject_applies(r, before)
        d.steps.append(f"'{cue} {verb}': wants {', '.join(artefacts)} changed")
        return
    if cue not in _VERB_CUES and verb not in _GENERIC_VERBS and not passive:
        if only_act(cue, trigger):  # "Only merge after review": where the rule applies
            _add(d.keywords, verb)
            d.steps.append(f"'only {verb} … {trigger[0]}': applies where '{verb}' is said; "
                           "the condition is no term")
            return
        wanted = object_wanted(cue, obj, term)  # "must update the docs": the docs
        if wanted == "":
            d.steps.append(f"'{cue} {verb} {' '.join(obj)}': its object is a clause, no term")
            _subject_applies(r, before)
            return
        if wanted:
            r.required.append(wanted)
            d.steps.append(f"'{cue} {verb}': wants '{wanted}' (what the act is on)")
            for p in paths:
                _add(d.paths, p)
            if trigger:
                _add(d.keywords, trigger_keyword(trigger, _content))
            return
    word = term if (verb in _GENERIC_VERBS or cue in _VERB_CUES) else verb
    ways = [_content(g, alternative=True)[0] for g in split_at_or(obj)]
    if cue in _VERB_CUES and len(ways) > 1:  # "use the X fixture or mock the Y": two ways
        r.alternatives.extend(w for w in ways if w)
        d.steps.append(f"'{cue}': wants '{' | '.join(w for w in ways if w)}'")
    elif word:
        (r.alternatives if cue in _VERB_CUES else r.required).append(word)
        d.steps.append(f"'{cue}{'' if cue in _VERB_CUES else ' ' + verb}': wants '{word}'")
    for p in paths:
        _add(d.paths, p)
    if trigger:
        _add(d.keywords, trigger_keyword(trigger, _content))


def _only_after(r: _Reading, verb: str, term: str, before: list[str], trigger: list[str]
                ) -> bool:
    """"A release is only cut after HISTORY.md has an entry": the file named after is wanted
    where the act occurs; the act is no requirement (every proposal doing it kept it). A
    state ("after the rc has been out for a week") is no word a proposal shows: as before
    (on the tuning sets it turned two passing look-alikes undecided for two violations)."""
    files = [w.strip(".,") for w in trigger if _is_path(w) and "." in w.rsplit("/", 1)[-1]]
    want = files[0] if files else ""
    if not want:
        return False
    r.required.append(want)
    _subject_applies(r, before)
    _add(r.draft.keywords, term or verb)
    r.draft.steps.append(f"'only {verb} … {trigger[0]}': wants '{want}' where it occurs")
    return True


def _subject_applies(r: _Reading, before: list[str]) -> None:
    """"Database migrations must be …": the rule applies where its subject occurs."""
    subject, says_new, _ = _content(before)
    if subject and "new" not in before and len(subject.split()) <= 3:
        _add(r.draft.keywords, subject)
        r.subjects.extend(subject.split())
        r.draft.steps.append(f"applies where '{subject}' occurs")


def _read_need(r: _Reading, cue: str, before: list[str], after: list[str]) -> None:
    """"Every outgoing HTTP call needs an explicit timeout": where the subject occurs,
    the object must be there (by its whole name or its head word); "gets an entry in
    CHANGELOG.md": the file named is what it must come with."""
    _subject_applies(r, before)
    obj, scope, trigger = _split_scope(after)
    term, _, paths = _content(obj, alternative=True)
    files = [w.strip(".,") for w in scope if _is_path(w) and "." in w.rsplit("/", 1)[-1]]
    wanted = files or [t for t in (term, term.split()[-1] if term else "") if t]
    for w in wanted:
        if meaningful(w) and w.split()[-1] not in _GENERIC_NOUNS:
            r.required.append(w)
    for p in paths:
        _add(r.draft.paths, p)
    if wanted:
        r.draft.steps.append(f"'{cue}': wants '{' | '.join(dict.fromkeys(wanted))}'")
    if trigger:
        _add(r.draft.keywords, trigger_keyword(trigger, _content))
