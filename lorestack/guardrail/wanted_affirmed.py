"""Does a proposal have what a "X needs Y" rule wants, counting only mentions it does not
take away? "Remove the rate limiter from the /admin/export endpoint" names rate limiting
only as what it removes, "… and skip the dry run" a dry run only as what it leaves out:
neither has what "… needs rate limiting" or "… needs a dry run first" wants. missing.py's
wanted_present counted such a mention as the wanted thing, and a guess close to the rule by
meaning was kept, though its own reading had just marked the mention as negated
(twenty-eighth session, fix28b: the review's rate-v2, back-v2).
"""

from __future__ import annotations

import re

from lorestack.guardrail.missing import _need_parts, _wanted_forms, wanted_present
from lorestack.guardrail.terms import PreparedText, _negation_before

ON = True  # the switch tests and tests.stage_audit turn off


def wanted_affirmed(sentence: str, prepared: PreparedText, paths: list[str]) -> bool | None:
    """missing.wanted_present, where a mention in the text counts only when no negation cue
    (remove, skip, without, drop, …) governs it; a touched path still counts. None when the
    sentence wants nothing this reader can look for."""
    if not ON:
        return wanted_present(sentence, prepared.text, paths)
    parts = _need_parts(sentence)
    forms = _wanted_forms(parts[2]) if parts else []
    if not forms:
        return None
    for in_text, on_path in forms:
        if on_path and any(re.search(on_path, p) for p in paths):
            return True
        for m in re.finditer(in_text, prepared.text, re.M) if in_text else ():
            cue = _negation_before(prepared, prepared.index_at(m.start()))
            if not cue or _only_in_flags(cue, prepared.text, m.start()):
                return True
    return False


def _only_in_flags(cue: str, text: str, pos: int) -> bool:
    """The cue's last word occurs before `pos` on its line only inside a command-line flag
    (`pip install --no-deps --require-hashes -r requirements.lock`): no negation."""
    line = text[text.rfind("\n", 0, pos) + 1:pos]
    word = re.escape(cue.split()[-1])
    return bool(re.search(rf"-{word}\b", line)) and not re.search(rf"(?<![\w-]){word}\b", line)
