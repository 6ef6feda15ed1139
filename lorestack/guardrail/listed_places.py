"""A parenthesised list that names the members of the place an act is forbidden in (thirty-first
session, fix31).

"No force pushes to shared branches (main, develop, release/*)" was drafted `forbid: force
pushes | main | develop | release | *`: once confirmed, `git push origin main`, every command that
named a release and every proposal at all ('*') blocked. The list does not name more things the
rule forbids; it spells out the place of the act ("to shared branches"), the way "Never deploy to
the production regions (us-east-1, eu-west-1)" or "No direct commits to protected branches
(main, trunk)" do. Where the parenthesis stands right after the noun of the phrase that says where
the act goes (to / into / onto), its items are that place's names: the
draft forbids the act's own object, and the items become its scope (they stay keywords: where
the rule applies) (act_scope.py: met without
them, a confirmed rule answers "applies, undecided"), shown by `remember` as "together with one
of main, develop, release". A list right after the object itself ("No new storage components
(database, queue, cache) in this service") still names forbidden things."""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

# where an act goes: not "on", which as often names a means ("on deprecated runtimes (python3.8,
# nodejs16.x)": the runtimes are the forbidden thing), nor "in" ("No heap allocations in per-frame
# code (Update, LateUpdate)": the functions are where, but the object is no word code writes, and
# the list was what found the violation)
_PLACE_PREPS = frozenset("to into onto".split())


def listed_places(scope: list[str], items: list[str], sentence: str) -> tuple[str, ...]:
    """The items of a parenthesised list that stands right after the noun of the place phrase
    `scope` ("to shared branches (main, …)"), as that place's names; else ()."""
    if not (ON and items and len(scope) >= 2 and scope[0] in _PLACE_PREPS):
        return ()
    last = scope[-1].strip(".,;:")
    if not re.search(rf"(?i)(?<![\w-]){re.escape(last)}\s*\(", sentence):
        return ()
    # a name written capitalised is a product ("to another SaaS (Papertrail, Logtail)"): a change
    # that wires it in (`LogtailHandler(…)`) does the act without naming the object ('logs')
    if any(re.search(rf"(?<![\w-]){re.escape(i.strip(' */'))[:1].upper()}{re.escape(i.strip(' */'))[1:]}", sentence)
           for i in items if i.strip(" */")[:1].isalpha()):
        return ()
    names = [i.strip(" */.'\"`").lower() for i in items]
    return tuple(dict.fromkeys(n for n in names if re.search(r"\w", n)))


ACT_NOUN = True  # the second switch: an act named as a noun keeps the act's command forms


def act_noun_forms(term: str, acts: dict[str, list[str]]) -> list[str]:
    """The command forms of an act the sentence names as a noun ("No force pushes", "no
    force-pushing"): `push --force`, `push -f`, as "never force-push" already reads them. Without
    them the confirmed rule met `git push --force origin main` only through the place's names."""
    words = term.lower().replace("-", " ").split()
    if not (ACT_NOUN and len(words) == 2):
        return []
    last = words[1]
    for base in (last.removesuffix("es"), last.removesuffix("s"), last.removesuffix("ing"), last):
        act = f"{words[0]} {base}"
        if act in acts:
            return [" ".join(reversed(act.split())), *acts[act]]
    return []


SAME_STEP = True  # the third switch: the act and the place's name in one step of the proposal
_STEPS = re.compile(r"\n|&&|\|\||;|(?<=[.!?])\s")


def place_apart(sentence: str, hit: str, prepared) -> str:
    """Where the forbidden act's scope is a listed place (above), or elements the sentence writes
    as markup ("onClick on a <div>", scope_code.py), and the proposal names the place
    only in another step than the act — `git rebase origin/main && git push --force-with-lease
    origin feature/x` — the place's names, else ''. The place of an act is said with the act: in
    its line, its command of a `a && b` chain, its sentence."""
    from lorestack.guardrail.act_scope import _thing
    from lorestack.guardrail.sentences import read_sentence
    from lorestack.guardrail.terms import find_term

    if not (ON and SAME_STEP):
        return ""
    thing = _thing(hit)
    d = read_sentence(sentence)
    words = d.scopes.get(thing) or d.scopes.get(thing.lower(), ())
    from lorestack.guardrail.scope_code import written_as_code  # an element: `<div onClick>`

    if not words or (words != _listed(sentence, thing)
                     and not all(written_as_code(w, sentence) for w in words)):
        return ""
    text = prepared.text
    cuts = [0, *(m.end() for m in _STEPS.finditer(text)), len(text)]
    acts = [h.start for h in find_term(prepared, thing) if not h.negated_by]
    places = [h.start for w in words for h in find_term(prepared, w) if not h.negated_by]
    for a, b in zip(cuts, cuts[1:]):
        if any(a <= p < b for p in acts) and any(a <= p < b for p in places):
            return ""
    return ", ".join(words) if acts else ""


def _listed(sentence: str, thing: str) -> tuple[str, ...]:
    """The places listed_places read for `thing` in the sentence's clauses, else ()."""
    from lorestack.guardrail.sentence_clauses import clauses
    from lorestack.guardrail.sentence_words import _split_scope

    for words, items in clauses(sentence):
        for i in range(len(words)):
            obj, scope, _ = _split_scope(words[i:])
            places = listed_places(scope, items, sentence)
            if places:
                return places
    return ()


def place_forms(draft, forms: list[str], term: str, places: tuple[str, ...],
                acts: dict[str, list[str]]) -> None:
    """The act's forms (and its command forms, act_noun_forms) forbidden with the place's names
    as their scope; the command forms are where the rule applies too."""
    extra = [f for f in act_noun_forms(term, acts) if f not in draft.forbid]
    draft.forbid.extend(extra)
    draft.keywords.extend(f for f in extra if f not in draft.keywords)
    for f in [*forms, *extra]:
        draft.scopes[f.split(":", 1)[1] if f.startswith(("added:", "changed:")) else f] = places
