"""The recommended way named only to say it is absent or unfit (issue 22, twenty-ninth
session). "No inline styles; use the design system tokens" took "Put a style prop with the hex
colour on the banner div, the token doesn't exist yet" as taking the recommended 'tokens';
"Don't read production from notebooks, use the replica" took "Point my notebook at the prod
primary, the replica lags too much" as taking 'replica'. A proposal that names the way as the
subject of a clause saying it is missing, not ready, broken or too slow gives a reason for
not taking it: that mention takes nothing. Read like denied.py's denied exemptions, with
the complaints a shortcut is argued by; prose and commands only (in a diff the code says
what it uses)."""

from __future__ import annotations

import re

from lorestack.guardrail.denied import _DENIAL, _STOP
from lorestack.guardrail.terms import Hit, PreparedText

ON = True  # the switch tests and tests.stage_audit turn off

_AUX = r"(?:is|are|was|were|has|have|had|gets|get|keeps|still|just|way|far|really|always)"
_UNFIT = re.compile(
    rf"^\s*(?:{_AUX}\s+)*"
    r"(?:too\s+\w+|lag(?:s|ged|ging)?\b|slow(?:s|ed|ing)?\b|down\b|broken\b|flaky\b|unreliable\b"
    r"|stale\b|out\s+of\s+date\b|(?:does|do|did)(?:n't|\s+not)\s+(?:exist|work|scale|support|fit|have)\b"
    r"|(?:doesn't|don't|didn't|does\s+not|do\s+not)\b|not\s+(?:ready|available|there|done|set\s+up)\b"
    r"|missing\b|gone\b|(?:fail(?:s|ed|ing)?|break(?:s|ing)?|broke|time[sd]?\s+out|timing\s+out)\b"
    r"|takes\s+(?:too\s+long|forever)"
    r"|gets?\s+in\s+the\s+way\b|(?:is|are)\s+(?:a\s+)?(?:pain|overkill|annoying|blocked)\b)",
    re.I,
)


def alternative_denied(prepared: PreparedText, hit: Hit) -> bool:
    """Does the recommended way at `hit` come with words saying it is absent or unfit in its
    own clause ("the token doesn't exist yet", "the replica lags too much")?"""
    if not ON or prepared.change or hit.start < 0:
        return False
    after = prepared.text[hit.end : hit.end + 80]
    stop = _STOP.search(after)
    after = after[: stop.start()] if stop and stop.start() > 0 else after
    return bool(_UNFIT.match(after) or _DENIAL.match(after))



# the same complaints said of anything in prose: an argument for a shortcut (shortcut.py)
_UNFIT_SAID = re.compile(
    r"\b(?:lag(?:s|ging)\b|too\s+(?:slow|much|long|big|heavy|strict|flaky|expensive|fiddly)\b"
    r"|(?:doesn't|does\s+not|don't|do\s+not)\s+(?:exist|work)\b(?:\s+yet)?"
    r"|(?:isn't|is\s+not|aren't|are\s+not)\s+(?:ready|available|there|set\s+up)\b(?:\s+yet)?"
    r"|not\s+(?:ready|available|there)\s+yet\b|slows?\s+(?:it|us|them|things|everything)\s+down\b"
    r"|takes\s+(?:too\s+long|forever)\b|gets\s+in\s+the\s+way\b|(?:is|are)\s+(?:broken|flaky)\b)",
    re.I,
)


def unfit_said(text: str) -> str:
    """The words by which prose calls something absent or unfit ("the replica lags too
    much", "the token doesn't exist yet"), else ''."""
    if not ON:
        return ""
    m = _UNFIT_SAID.search(text)
    return m.group(0) if m else ""
