"""A drafted rule that applies only through words found in a URL a constant holds (issue 22,
twenty-eighth session, fix28b).

"Don't do network calls on the main thread" is drafted to apply where 'http' or 'https'
occurs; `export const API_BASE_URL = 'https://api.example.com/v2';` holds a URL and calls
nothing. The guess asked of it, and since this session the confirmed draft asks as its guess
(drafted_words.py; the review's c3 key-p3). Where every occurrence of every word the rule
applied by is the scheme of a URL on a line that only sets a name to that URL (code or
config), nothing of the rule occurs: it does not apply. A URL inside a call
(`URL("https://…").readText()`) is no such line and still applies; a rule about URLs, hosts
or what is hard-coded (where the constant may be the fault) is left alone.
"""

from __future__ import annotations

import re

from lorestack.guardrail.rules import PreparedText, RuleOutcome, _triggered_words
from lorestack.guardrail.terms import iter_term

ON = True  # the switch tests and tests.stage_audit turn off

# `NAME = "https://…"`, `export const NAME = '…';`, `name: https://…`, `"name": "…",`
_URL_CONSTANT = re.compile(
    r"""^\s*(?:export\s+)?(?:(?:const|let|var|val|final|static|public|private|readonly)\s+)*"""
    r"""["']?[\w$.-]+["']?(?:\s*:\s*[\w\[\]<>]+)?\s*[:=]\s*(["']?)[a-z][a-z0-9+.-]*://[^\s"']*\1"""
    r"""\s*[;,]?\s*(?:(?:#|//).*)?$"""
)

# a sentence about the URL itself: the constant may be what it forbids
_ABOUT_URLS = re.compile(r"(?i)\b(?:ur[li]s?|endpoints?|hosts?|hostnames?|domains?|address\w*"
                         r"|hard-?cod\w*|links?|config\w*|https?|plain\s+text|tls|ssl)\b")

_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*://")  # the word is the URL's scheme, not its host or path


def _line(text: str, pos: int) -> str:
    return text[text.rfind("\n", 0, pos) + 1:].split("\n", 1)[0]


def url_named_only(outcome: RuleOutcome, spec, sentence: str, prepared: PreparedText) -> RuleOutcome:
    """A drafted rule left satisfied, applied only by words that each occur only as the scheme
    of a URL a constant holds (`https` of 'https://staging…', never 'staging'): not
    applicable."""
    words = _triggered_words(outcome.triggers)
    if not (ON and spec.drafted and words and outcome.status == "satisfied"
            and (prepared.code or prepared.change) and len(words) == len(outcome.triggers)
            and not (outcome.exempted_by or outcome.forbid_hit or outcome.by_meaning)
            and not _ABOUT_URLS.search(sentence)):
        return outcome
    for word in words:
        hits = list(iter_term(prepared, word, negation=False))
        if not hits or not all(_SCHEME.match(prepared.text, h.start)
                               and _URL_CONSTANT.match(_line(prepared.text, h.start)) for h in hits):
            return outcome
    outcome.status = "not_applicable"
    outcome.reason = (f"its words ({', '.join(words[:3])}) occur only in a URL a constant holds: "
                      "nothing of the rule occurs")
    return outcome
