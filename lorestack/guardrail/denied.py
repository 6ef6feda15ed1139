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
_DENIAL = re.compile(
    rf"^\s*(?:{_AUX}\s+(?:(?:still|yet|currently)\s+)?(?:{_FALSE}\b|{_NOT}\b)"
    rf"|(?:isn't|aren't|wasn't|weren't|hasn't|haven't|hadn't)\b"
    rf"|(?:=|==|:)\s*(?:false|0|none|null)\b)",
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
    return bool(re.search(r"\bbefore\s+(?:the\s+)?$", before, re.I)) and bool(re.match(rf"^\s*{_AUX}\b", after, re.I))
