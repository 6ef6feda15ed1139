"""The thing a requirement is for, shown by the change itself (thirtieth session, fix30).

meaning_needs.py asks where a confirmed draft applied by meaning only and the proposal shows
fewer than two thirds of the words of the act a missing requirement is tied to. For a rule
whose subject is a thing — "Release tags must be signed", "Kubernetes CronJobs set
concurrencyPolicy: Forbid", "Every Grafana dashboard carries a team tag" — the qualifier
before the thing's name (release, Kubernetes, Grafana) is seldom written in the change: a
`git tag v2.4.0` makes a tag, a `kind: CronJob` manifest under k8s/ is a CronJob, a JSON file
under dashboards/ is a dashboard. Such a change *is* the thing; its qualifier is the project's
own context, not a word that tells it apart.

So: where the words before the requirement name a thing (no prohibition, no verb of its own:
the subject of "X must / needs / carries / sets …") and the change names the thing's head
noun — its last word — in code, as a whole word of a command, a diff line or an edit (not a
part of a longer identifier: `SESSION_COOKIE_AGE` is a setting of cookies, not a cookie; nor
a part of a path written in the text: `actions/checkout` is no third-party action) or as a
touched path's folder or file name, the act counts as shown and the missing requirement
decides as it did before meaning_needs. Prose never counts here: a sentence that mentions a
tag does not make one."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from lorestack.guardrail.words import stem, word_forms

ON = True  # the switch tests and tests.stage_audit turn off

# a head with one of these is an act or a ban, not a thing ("Never merge a release branch")
# or a relative clause ("Every endpoint that creates a charge"): its last word is no head noun
_NOT_A_THING = frozenset(
    "never not no don't dont avoid nothing nobody without that which who whose where when".split())
_PREPOSITIONS = frozenset("in on at under for of from to with within inside across".split())
# more words than this before the requirement: a clause, not a noun phrase naming a thing
_MAX_WORDS = 4


def _whole_word_in(text: str, head: str) -> bool:
    for form in word_forms(head):
        pat = rf"(?<![A-Za-z0-9_\-/.]){re.escape(form)}(?![A-Za-z0-9_\-/]|\.\w)"
        if re.search(pat, text, re.I):
            return True
    return False


def _in_paths(head: str, paths) -> bool:
    want = stem(head)
    for p in paths:
        parts = PurePosixPath(p.lower()).parts
        names = [*parts[:-1], PurePosixPath(parts[-1]).stem] if parts else []
        if any(stem(n) == want for n in names):
            return True
    return False


def thing_shown(head_text: str, words: list[str], prepared, paths=()) -> bool:
    """Does the change itself show the thing named by the requirement's subject words?"""
    if not (ON and words and prepared.code and len(words) <= _MAX_WORDS):
        return False
    said = re.findall(r"[a-z0-9_']+", head_text.lower())
    if set(said) & _NOT_A_THING:
        return False
    # the head noun comes before a place or a part ("Every container in k8s"): not 'k8s'
    cut = next((i for i, w in enumerate(said) if w in _PREPOSITIONS), len(said))
    named = [w for w in said[:cut] if w in words]
    if not named:
        return False
    head = named[-1]
    return _whole_word_in(prepared.text, head) or _in_paths(head, paths)
