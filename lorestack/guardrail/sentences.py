"""Read a criterion written as a plain sentence into terms the rules can check.

"Don't introduce async APIs, click is synchronous" becomes forbid `added:async`;
"Do not introduce a new storage component (database, queue, cache) this quarter; object
storage plus the local cache covers the load" becomes forbid `added:storage | added:database
| added:queue | added:cache` unless `object storage | local cache`; "Nothing under infra/
changes without a review note" becomes applies-to `infra/**`, require `review note`.

The reading is deliberately shallow and explainable (every step is recorded in `steps`):
- a clause carries a prohibition cue (do not, don't, never, no, not, avoid, must not, …) or
  an obligation cue (must, always, should, need to, use, go through, prefer, …);
- what a prohibition forbids is the object of its verb, the items of a parenthesised list,
  or — with no object — the verb itself plus where it happens ("force-push to main");
- "without / unless / except X" is what a rule requires or exempts; "use X", "go through
  X", "instead X" in a sentence that also prohibits name the recommended alternative;
- verbs that introduce something (introduce, add, create, new …) gate the forbidden words
  (`added:`), verbs that edit (edit, hand-edit, touch …) gate a path (`changed:path:`);
- a few objects imply the words code uses for them ("raw SQL" → SELECT … FROM).
A sentence without any cue ("Keep the public API backwards compatible") yields nothing:
only an LLM or a person can judge it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from lorestack.guardrail import freeze
from lorestack.guardrail.act_kept import keep_act
from lorestack.guardrail.act_scope import scope_words
from lorestack.guardrail.bounds import bound_rule
from lorestack.guardrail.clause_forms import conditioned_scope, such_file
from lorestack.guardrail.code_banned import banned_code
from lorestack.guardrail.code_heads import code_heads
from lorestack.guardrail.concepts import concept_keywords
from lorestack.guardrail.contrasts import read_contrast, rule_out
from lorestack.guardrail.listed_places import listed_places, place_forms
from lorestack.guardrail.missing import read_need
from lorestack.guardrail.sentence_clauses import (
    as_written,
    clauses,
    passive_subject,
    pronoun_to_place,
    without_manner,
)
from lorestack.guardrail.sentence_needs import needs
from lorestack.guardrail.sentence_obligations import read_obligation
from lorestack.guardrail.sentence_words import (  # noqa: F401 - meaningful is public here
    _DETERMINERS,
    _EDIT,
    _GENERIC_NOUNS,
    _IMPLIED,
    _IMPLIED_ACTS,
    _IMPLIED_WANTS,
    _INTRODUCE,
    _NO_VERB_CUES,
    _OBLIGE,
    _PROHIBIT,
    _QUALIFIERS,
    _STOP,
    _TRIGGER_PREPS,
    _content,
    _glob,
    _is_path,
    _split_list,
    _split_scope,
    implied,
    meaningful,
    not_a_ban,
    not_banned,
    passive_act,
    spell_and_scope,
    symbol_term,
    verb_gate,
    without_particle,
)
from lorestack.guardrail.sentence_words import (
    add_term as _add,
)
from lorestack.guardrail.switch_off import off_forms, switches_off
from lorestack.guardrail.symbol_kept import keep_symbols
from lorestack.guardrail.terms import gate_of
from lorestack.guardrail.trigger_words import trigger_keyword

Kind = Literal["prohibition", "obligation", ""]


@dataclass
class SentenceDraft:
    """The decidable form read from a sentence (or drafted by an LLM)."""

    kind: Kind = ""
    keywords: list[str] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)
    forbid: list[str] = field(default_factory=list)
    require: list[str] = field(default_factory=list)
    unless: list[str] = field(default_factory=list)
    steps: list[str] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)  # "use X instead": the wanted way
    # forbidden term -> words of where it is forbidden ("in a URL or query string", act_scope.py)
    scopes: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def decidable(self) -> bool:
        return bool(self.forbid or self.require)


# deleting: "never delete / remove files under X/" forbids deleting there (twentieth session)
_REMOVE = frozenset(("delete", "remove", "rm", "erase", "wipe", "purge", "prune", "deleted",
                     "removed", "erased", "wiped", "purged", "pruned"))
# "never rename or move files in X/": the files there change where they are
_MOVE = frozenset(("rename", "move", "relocate"))
_EVERY = frozenset(("every", "all", "each", "the"))


def _kept_folder(words: list[str]) -> str:
    """The folder of "Keep every file in X/" ("keep all files under X/"), else ''."""
    if (len(words) == 5 and words[0] == "keep" and words[1] in _EVERY
            and words[2] in _FILE_WORDS and words[3] in ("in", "under") and _is_path(words[4])
            and words[4].endswith("/")):
        return _glob(words[4])
    return ""
# what "files" of a folder are called: the folder's files, not a thing named by these words
_FILE_WORDS = frozenset(("file", "files", "translation", "snapshot", "snapshots", "image", "images", "fixture",
                         "fixtures", "golden", "asset", "assets", "test", "tests", "data"))


def _find_cue(words: list[str]) -> tuple[str, int, int]:
    """(kind, start, end) of the first prohibition or obligation cue in a clause; "must
    never" / "should not ever" is a prohibition, not an obligation to do 'never'."""
    for i in range(len(words)):
        for kind, cues in (("prohibition", _PROHIBIT), ("obligation", _OBLIGE)):
            for cue in cues:
                if tuple(words[i : i + len(cue)]) == cue:
                    if cue == ("not",) and not_a_ban(words, i):
                        continue  # "not only", "whether or not"
                    end = i + len(cue)
                    if kind == "obligation" and end < len(words) and words[end] in (
                        "never", "not", "no"
                    ):
                        return "prohibition", i, end + 1
                    return kind, i, end
    return "", -1, -1


def _forms(term: str, gate: str) -> list[str]:
    """A forbidden term with its gate, plus the words it implies."""
    out = [f"{gate}:{term}" if gate else term]
    out.extend(implied(term))
    return out


def _forms_of(heads: list[str], gate: str) -> list[str]:
    """The words a noun phrase spells as code, each a forbidden term (code_heads.py)."""
    return [f for h in heads for f in _forms(h, gate)]


@dataclass
class _Reading:
    draft: SentenceDraft
    forbidden: list[str] = field(default_factory=list)  # plain forbidden words, for masking
    alternatives: list[str] = field(default_factory=list)
    exemptions: list[str] = field(default_factory=list)  # "unless / except X"
    required: list[str] = field(default_factory=list)
    loose: list[list[str]] = field(default_factory=list)  # clauses without a cue
    subjects: list[str] = field(default_factory=list)  # words of "X must / needs …" subjects
    calls: set[str] = field(default_factory=set)  # names the sentence wrote as calls: eval()
    sentence: str = ""  # as written: which words it spells as code (code_heads.py)


def _read_prohibition(r: _Reading, cue: str, after: list[str], items: list[str]) -> None:
    d = r.draft
    if "without" in after or "unless" in after or "except" in after:
        cut = next(i for i, w in enumerate(after) if w in ("without", "unless", "except"))
        term, _, _ = _content(after[cut + 1 :])
        for w in after[:cut]:
            if _is_path(w):
                _add(d.paths, _glob(w))
        if term:
            (r.required if after[cut] == "without" else r.exemptions).append(term)
            d.steps.append(f"'{cue} … {after[cut]} {term}': requires or exempts '{term}'")
        subject = _content(after[:cut])[0] if cue in _NO_VERB_CUES and term else ""
        if subject and after[cut] == "without":  # "No new Android permissions without a
            for k in dict.fromkeys((subject, subject.split()[-1])):  # privacy review": where
                if k not in _GENERIC_NOUNS:  # permissions are named ("no permission": kept)
                    _add(d.keywords, k)
        after = after[:cut]
        if r.required:
            return
    verb = ""
    mixed = False  # two acts whose gates differ ("add or change"): no gate
    off = ""  # "don't turn off X": X is the good thing, switching it off the act
    if cue not in _NO_VERB_CUES and after:
        if cue != "avoid" or after[0].endswith("ing"):
            off = switches_off(after[0], after[1:])
            verb, after = after[0], without_particle(after[1:])
        if verb and len(after) > 2 and after[0] in ("or", "and") and after[1] not in (
                _DETERMINERS | _STOP) and not _is_path(after[1]):
            # "never remove or rename X": two acts on one object (the second is no term)
            second, after = after[1], without_particle(after[2:])
            mixed = verb_gate(verb) != verb_gate(second)
    obj, scope, trigger = _split_scope(after)
    term, says_new, paths = _content(obj)
    base = verb.removesuffix("ing")
    gate = "added" if says_new else "" if mixed else verb_gate(verb)
    scope_paths = [_glob(w) for w in scope if _is_path(w)]
    if (base in _EDIT or verb in _EDIT or base in _MOVE) and scope_paths + paths:
        moving = base in _MOVE  # "never rename or move files in X/": moving them out of place
        for p in scope_paths + paths:
            _add(d.forbid, f"{'moved' if moving else 'changed'}:path:{p}")
            _add(d.paths, p)
        act = "moving" if moving else "editing"
        d.steps.append(f"'{cue} {verb}': {act} {', '.join(scope_paths + paths)} is forbidden")
        return
    if (base in _REMOVE or verb in _REMOVE) and scope_paths + paths and (not term or term in _FILE_WORDS):
        for p in scope_paths + paths:  # "never delete files under tests/golden/"
            _add(d.forbid, f"removed:path:{p}")
            _add(d.paths, p)
        d.steps.append(f"'{cue} {verb}': deleting under {', '.join(scope_paths + paths)} is "
                       "forbidden")
        return
    for p in paths:
        _add(d.forbid, f"path:{p}")
        _add(d.paths, p)
    if not term and verb and scope:  # "never force-push to main": the act, where it happens
        where, _, _ = _content(scope[1:])
        # "to main or a release branch": each place on its own, a place by its first word
        places = [t for t in (_content(g)[0] for g in _split_list(scope[1:])) if t]
        places += [p.split()[0] for p in places if " " in p]
        act = verb.replace("-", " ")
        flipped = " ".join(reversed(act.split()))
        for form in dict.fromkeys([act, flipped, *_IMPLIED_ACTS.get(act, [])]):
            for place in dict.fromkeys(places or [where]):
                _add(d.forbid, f"{form} & {place}" if place else form)
            if not (places or where):  # "never import from apps/": the place is a path
                d.scopes[form] = scope_words(scope, r.sentence)
        _add(d.keywords, act.split()[-1])
        d.steps.append(f"'{cue} {verb} {' '.join(scope)}': forbids '{act}' with '{where}'")
        return
    terms = [term] if term else []
    groups = _split_list(obj)
    if len(groups) > 1:  # "MD5 or SHA-1": each is forbidden on its own
        terms = [t for t in (_content(g)[0] for g in groups) if t] or terms
        term = terms[0] if terms else term
    listed = listed_places(scope, items, r.sentence) if term else ()  # "(main, develop)"
    terms += [_content(item.split())[0] or such_file(item) for item in items if not listed]
    d.keywords.extend(p for p in listed if p not in d.keywords)  # still where it applies
    # "never call subprocess with shell=True": the object only together with what it is
    # used with (subprocess alone is fine)
    with_ = _content(scope[1:])[0] if term and scope and scope[0] in ("with", "using") else ""
    for t in filter(None, terms):
        if t in r.calls:  # "eval()": that function, not `literal_eval` nor `model.eval`
            t = rf"/(?<![\w.]){re.escape(t)}\b/"
        forms = [f for h in dict.fromkeys([t, *code_heads(t, r.sentence)]) for f in off_forms(h, off)] \
            if off and not mixed else _forms(t, gate) + _forms_of(code_heads(t, r.sentence), gate)
        for form in forms:
            _add(d.forbid, f"{form} & {with_}" if with_ and t == term else form)
        if scope and not with_:  # "in a URL or query string": where it is forbidden
            d.scopes.update(dict.fromkeys((gate_of(f)[1] for f in forms), scope_words(scope, r.sentence)))
        if listed and t == term:  # the place's names are where the act (and its command
            place_forms(d, forms, t, listed, _IMPLIED_ACTS)  # forms) is forbidden
        if t == term and not off and not with_:  # "never push images": with the push (act_kept.py)
            keep_act(verb, forms, d.scopes)
        _add(d.keywords, t)
        for form in implied(t) + code_heads(t, r.sentence, upper=False):  # code shows it applies
            _add(d.keywords, form)
        r.forbidden.append(t)
    if terms:
        how = f" when {gate}" if gate else ""
        d.steps.append(f"'{cue}{' ' + verb if verb else ''}': forbids {', '.join(terms)}{how}")
    if trigger:
        _add(d.keywords, trigger_keyword(trigger, _content))


def _freeze(r: _Reading, words: list[str], place: str, kind: str) -> None:
    """The terms of a freeze of `place` (freeze.py), in place of any read before."""
    forbid, glob, keywords = freeze.freeze_terms(place, kind)
    r.draft.forbid = [f for f in r.draft.forbid if not f.endswith(f"path:{glob}")] + forbid
    _add(r.draft.paths, glob)
    for k in keywords:
        _add(r.draft.keywords, k)
    what = {"created": "new files", "added": "adding", "changed": "changing"}[kind]
    r.draft.steps.append(f"'{' '.join(words)}': a freeze, {what} under {place} forbidden")


@lru_cache(maxsize=512)
def _read_cached(sentence: str) -> SentenceDraft:
    r = _Reading(SentenceDraft(), sentence=sentence)
    r.calls = {c.lower() for c in re.findall(r"\b([A-Za-z_]\w*)\(\)", sentence)}
    kinds = set()
    ruled: list[str] = []  # words of the clauses that carry a rule
    chosen: list[str] = []  # words outside what a prohibition names (concepts.py)
    frozen = ""  # the folder a freeze names (freeze.py): the rule is about that place
    kind = ""  # what the freeze forbids there (freeze_kind)
    previous: list[str] | None = None  # the clause before (contrasts.py)
    places: list[str] = []  # the paths named so far, as written ("never hand-edit it")
    kept_place = ""  # "Keep every file in X/" (twenty-first session)
    for words, items in clauses(sentence):
        place = "" if frozen else freeze.frozen_folder(words)
        if place:
            kinds.add("prohibition")
            frozen, kind = place, freeze.freeze_kind(words)
            _freeze(r, words, place, kind)
            continue
        if (frozen and _find_cue(words)[0] == "prohibition" and not freeze.names_a_folder(words)
                and freeze.restates(words)):  # "no new endpoints go into it": the freeze again
            if freeze.freeze_kind(words, kind) != kind:  # "frozen; nothing new goes into it"
                kind = freeze.freeze_kind(words, kind)
                _freeze(r, words, frozen, kind)
            continue
        if frozen and words[-1] == "only" and 1 < len(words) <= 4:  # "security fixes only"
            _add(r.draft.unless, " ".join(words[:-1]))
            continue
        if kept_place and len(words) <= 3 and words[0] in ("not", "never"):
            continue  # "…; superseded ones are marked, not deleted": the keeping again
        kept = _kept_folder(words)
        kept_place = kept or kept_place
        if kept:  # "Keep every file in docs/adr/": deleting a file there (or moving it out,
            kinds.add("prohibition")  # kept_folders.py) is forbidden; a rename inside keeps it
            _add(r.draft.forbid, f"removed:path:{kept}")
            _add(r.draft.paths, kept)
            r.draft.steps.append(f"'keep … files in': deleting or moving out of {kept} is forbidden")
            continue
        words, by_hand = without_manner(words)
        if by_hand and len(words) <= 1:  # "…, not by hand": no thing; editing what it names
            kinds.add("prohibition")
            for p in places[-1:]:
                _add(r.draft.forbid, f"changed:path:{_glob(p)}")
                r.draft.steps.append(f"'not by hand': editing {p} is forbidden")
            continue
        words = pronoun_to_place(words, places[-1] if places and _find_cue(words)[0] else "")
        places.extend(as_written(sentence, w.rstrip(".,")) for w in words if _is_path(w))
        contrast = read_contrast(words, previous, sentence)
        previous = words
        if contrast is not None:  # "Call X instead of Y", "replace Y with X" (contrasts.py)
            kinds.add("prohibition")
            ruled.extend(words)
            way = _content(_split_scope(contrast.new)[0], alternative=True)[0]
            for group in _split_list(_split_scope(contrast.old)[0]):  # "autopep8 or yapf"
                old, _, paths = _content(group)
                rule_out(r, old, f"'{contrast.how}", _add, way)
                for p in (as_written(sentence, p) for p in paths):  # "Move from setup.py to
                    _add(r.draft.forbid, f"added:path:{p}")  # pyproject.toml": adding there
                    _add(r.draft.keywords, p.removesuffix("/**"))
                    _add(r.draft.paths, p)  # a keyword is met in words only, never by a path
                    r.draft.steps.append(f"'{contrast.how}': adding to {p} is forbidden")
            r.alternatives.extend([way] if way else [])
            continue
        subject = passive_subject(words)
        chosen.extend(not_banned(words, subject or passive_act(words)))
        if subject:  # "global state is not allowed in the parser"
            ruled.extend(words)
            kinds.add("prohibition")
            _read_prohibition(r, "no", subject, items)
            continue
        act = passive_act(words)
        if act:  # "generated code is never edited by hand": never edit generated code …
            ruled.extend(words)
            kinds.add("prohibition")
            _read_prohibition(r, "never", act, items)
            continue
        if bound_rule(r, words):  # "Timeouts never above 30 s" (bounds.py)
            kinds.add("prohibition")
            ruled.extend(words)
            continue
        kind, start, end = _find_cue(words)
        if kind == "prohibition":
            del chosen[len(chosen) - len(words) + start:]
        if not kind:
            r.loose.append(words)
            continue
        kinds.add(kind)
        ruled.extend(words + [w for i in items for w in i.split()])
        cue = " ".join(words[start:end])
        if kind == "prohibition":
            conditioned_scope(r, words[:start], _read_prohibition, cue, words[end:], items)
        else:
            read_obligation(r, cue, words[:start], words[end:])
    draft = _settle(r, kinds)
    if draft.kind and not frozen:
        # the concept a rule names (not the way it recommends: "update the dependency
        # instead" does not make a rule about vendored files apply to `go get`)
        wanted = {w for a in draft.alternatives for w in a.split()} - {
            w for t in r.forbidden + r.subjects for w in t.split()
        }
        words = [w for w in ruled if w not in wanted]
        implied = concept_keywords(words, sentence, " ".join(chosen), tuple(draft.forbid))
        implied = [k for k in implied if k not in draft.keywords]
        if implied:
            draft.keywords.extend(implied)
            draft.steps.append(f"applies also where the code shows it: {', '.join(implied)}")
    if not (draft.forbid or draft.require or frozen or read_need(sentence)):
        needed, step = needs(sentence)  # "carries a severity label" (missing.py's own kept)
        if needed:
            draft.kind, draft.require = "obligation", needed
            draft.steps.append(step)
    keep_symbols(draft, sentence)  # "No SELECT * …": the `*` is the rule (symbol_kept.py)
    for code, span in banned_code(sentence):  # "`except Exception: pass` is never acceptable":
        # first, so it decides before a topic word an act scope may ask on (act_kept.py)
        others = [f for f in draft.forbid if not set(f.split()) <= span and f != code]
        draft.forbid = [code, *others]
        draft.kind = draft.kind or "prohibition"
    spell_and_scope(draft, sentence)  # `CHANGELOG.md`; "outside the cli/ package"
    return draft


def _settle(r: _Reading, kinds: set[str]) -> SentenceDraft:
    """Decide what the clauses add up to: a prohibition (obligations in it name the
    alternative) or an obligation (its wants become required)."""
    d = r.draft
    if d.forbid:
        d.kind = "prohibition"
        forbidden = {w for t in r.forbidden for w in t.split()}
        for alt in r.alternatives + r.required:
            _add(d.alternatives, alt)
            head = alt.split()[-1]
            if " " in alt and head not in forbidden and head not in _GENERIC_NOUNS:
                _add(d.alternatives, head)  # named by its head: "fake clock" -> clock
        for words in r.loose:  # "… plus the local cache covers the load": allowed forms
            for i, w in enumerate(words[1:], 1):
                if w in r.forbidden and words[i - 1] not in _DETERMINERS | _STOP:
                    _add(d.alternatives, f"{words[i - 1]} {w}")
    elif r.required:
        d.kind = "obligation"
        required = [t for t in dict.fromkeys(r.required) if meaningful(t)]
        required += [i for t in required for i in _IMPLIED_WANTS.get(t, [])]
        d.require = [" | ".join(dict.fromkeys(required))] if required else []
        for alt in r.alternatives:
            _add(d.alternatives, alt)
    elif kinds:
        d.kind = "prohibition" if "prohibition" in kinds else "obligation"
        d.steps.append("found a rule cue but nothing the rules can look for")
    for ex in r.exemptions:
        _add(d.unless, ex)
    if d.alternatives:
        d.steps.append(f"recommended instead: {', '.join(d.alternatives)}")
    if d.unless:
        d.steps.append(f"exempted: {', '.join(d.unless)}")
    return d


def read_sentence(sentence: str) -> SentenceDraft:
    """The decidable form of one criterion sentence (a fresh copy: callers may edit it)."""
    d = _read_cached(" ".join(sentence.split()))
    return SentenceDraft(
        d.kind, list(d.keywords), list(d.paths), list(d.forbid), list(d.require),
        list(d.unless), list(d.steps), list(d.alternatives), dict(d.scopes),
    )  # fmt: skip
