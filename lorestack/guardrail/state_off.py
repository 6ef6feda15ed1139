"""A state a rule forbids with a copula ("Release builds must never be debuggable", "S3
buckets must never be public"), set to false in code (`debuggable false`,
`android:debuggable="false"`, `public = false`): that is what the rule asks for, not a
violation (twenty-third session, conf23: a confirmed rule blocked it). Only a copula's state:
under "don't turn off strict" the name is the good thing and `"strict": false` stays the
violation (switch_off.py). Every occurrence must be set false: one set true still decides."""

from __future__ import annotations

import re

STATE_OFF = True
_FALSE = r"""["']?\s*[:=]?\s*["']?(?:false|off|no|0|disabled)\b"""


def state_set_off(sentence: str, hit: str, text: str) -> bool:
    """Does `sentence` forbid `hit` as a state ("… never be X", "… must not be X") and does
    every occurrence of it in `text` set it false?"""
    if not STATE_OFF or not hit or not re.fullmatch(r"[\w-]+", hit):
        return False
    name = re.escape(hit)
    if not re.search(rf"\b(?:never|not|n't)\s+(?:be|become)\s+{name}\b", sentence, re.I):
        return False
    places = list(re.finditer(rf"(?<![\w-]){name}(?![\w-])", text, re.I))
    return bool(places) and all(re.match(_FALSE, text[m.end():], re.I) for m in places)
