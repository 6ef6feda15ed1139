"""An exemption mentioned only to say it does not hold (issue 22, twenty-seventh session,
fix27). "Only purge a tenant once tenant_export_done is set" drafts "purge tenant, unless
tenant_export_done" (only_once.py); any mention of the name exempted the proposal, also "Purge
the acme tenant now; tenant_export_done is not set yet" and "Merge the pull request; ci_passed
is false only because of a flaky test" — violations passed with exit 0. A mention followed by
a copula that denies the state (`is not set`, `hasn't been`, `is false`, `is still unset`), or
introduced by "before" / "even though … is not", says the condition is absent: it exempts
nothing. Prose and commands only; in a diff a name's state is read by the code itself."""

from __future__ import annotations

import re

from lorestack.guardrail.terms import Hit, PreparedText

ON = True  # tests switch the reading off
_STOP = re.compile(r"[;:,.!?\n]|\b(?:but|because|so|and|then|though|although)\b", re.I)
_AUX = r"(?:is|are|was|were|has|have|had|stays|remains|isn't|aren't|wasn't|weren't|hasn't|haven't|hadn't)"
_NOT = r"(?:not|n't|never|no\s+longer)"
_FALSE = r"(?:false|unset|missing|pending|absent|empty|off|none|null|0)"
# fix27b: a denied false ("is no longer false", "isn't false any more") says B holds
_NOT_FALSE = rf"(?!\s+(?:been\s+|set\s+to\s+)?{_FALSE}\b)"
_DENIAL = re.compile(
    rf"^\s*(?:{_AUX}(?<!n't)\s+(?:(?:still|yet|currently)\s+)?(?:{_FALSE}\b|{_NOT}\b{_NOT_FALSE})"
    rf"|(?:isn't|aren't|wasn't|weren't|hasn't|haven't|hadn't)\b{_NOT_FALSE}"
    rf"|(?:=|==|:)\s*(?:false|0|none|null|no|off)\b"
    # fix28: a state reported false ("came back false", "returned false"), a check that failed,
    # or one that will hold only later ("will flip to true in a minute", "will be set tonight")
    rf"|(?:came\s+back|returned|returns|reads|read|shows|showed|reported|reports|says|said)\s+(?:as\s+)?{_FALSE}\b"
    rf"|(?:has\s+|have\s+)?(?:failed|fails)\b"
    rf"|(?:will|'ll|is\s+going\s+to|should)\s+(?:only\s+)?(?:be|become|flip|turn|get|go)\b)",
    re.I,
)


def condition_denied(prepared: PreparedText, hit: Hit) -> bool:
    """Does the exemption at `hit` come with words saying it does not hold ("X is not set
    yet", "X is false", "before X is set")?"""
    if not ON or prepared.change or hit.start < 0:
        return False
    after = prepared.text[hit.end : hit.end + 80]
    stop = _STOP.search(after)
    after = after[: stop.start()] if stop and stop.start() > 0 else after
    if _DENIAL.match(after):
        return True
    before = prepared.text[max(0, hit.start - 20) : hit.start]
    if re.search(r"\bwhether\s+or\s+not\s+(?:the\s+)?$", before, re.I):
        return True  # "… whether or not B is set": B is not what it waits for (fix28)
    if not re.search(r"\bbefore\s+(?:the\s+)?$", before, re.I) or not re.match(rf"^\s*(?:{_AUX}|gets|get|becomes)\b", after, re.I):
        return False
    # "Before B is set nobody does A; it is set now": a sentence opening on "before" whose
    # main clause forbids states the old rule, it says nothing of B now (fix27b)
    opening = re.search(r"(?:^|[.;!?\n]\s*)before\s+(?:the\s+)?$", prepared.text[: hit.start], re.I)
    rest = prepared.text[hit.end : hit.end + 120]
    return not (opening and re.search(r"\b(?:nobody|no one|nothing|never|not|no)\b|n't\b", re.split(r"[.;!?\n]", rest)[0], re.I))
