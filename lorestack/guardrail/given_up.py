"""A change that takes away what the rule asks for (issue 22, twenty-fourth session).

"Only firmware signed with the release key may be flashed" and a diff whose removed lines
held `sign_image(image_path, key=RELEASE_KEY)` while its added lines upload the image
unsigned; "Rate-limit counters are kept in Redis" and `storage_uri=REDIS_URL` replaced by
`"memory://"`; "Every HTML page declares its language with a lang attribute" and `<html
lang=…>` becoming `<html>`. The added lines alone read far from the rule; what the change
removes is where it meets it. Two words of what the rule states positively (its stated
clauses, its required terms, its recommended way) that the removed or replaced text has and
the new text no longer has make a pass "applies, undecided" (never a block, never a pass).

Twenty-fifth session: the positive half of "X, never Y" / "X, not Y" / "X rather than Y" is
stated too ("Newsletters … go out on the broadcast message stream, never on the transactional
one"), and one word is enough when the change swaps it out of a line edited in place
(`message_stream="broadcast"` -> `"outbound"`, `<script async src=…>` -> `<script src=…>`),
written there as the rule writes it and not a bound the rule sets ("info or above"). A setting
switched off on a line edited in place (`task_acks_late = True` -> `False`, `block_public_acls =
true` -> `false`, `state = "ENABLED"` -> `"DISABLED"`) takes it away too, where the rule applies
already (by its words or by meaning) and the key names a word of it or the rule forbids
disabling.

Twenty-seventh session (`deleted_outright`): a code line deleted outright (no added line
edited from it) that held one word of what the rule asks for, as the rule writes it —
`raise NegativeStock(…)` under "an adjustment that would make a count negative is
rejected", `mlflow.pyfunc.load_model(…)` under "… only from the MLflow model registry" — where
the change is also about something else the rule names (a word of its path or of the other
removed code). A name the rule writes in mixed case counts whole (`MLflow`, `ETag`) and so
does an acronym of three capitals (`CSP`, `CLA`); what a comment says is not code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from lorestack.guardrail.meaning import stated_clauses
from lorestack.guardrail.rules import RuleOutcome
from lorestack.guardrail.terms import gate_of
from lorestack.guardrail.words import _identifier_parts, stem
from lorestack.memory_layers.models import CriterionSpec

ENABLED = True
# one word is often a value changed in place (`LOG_LEVEL: info` -> `warning` under "log at
# info or above"); two words of what the rule asks for gone say it is taken away
GONE_AT_LEAST = 2
# words of a rule's positive statement that say nothing of what it asks for
_PLAIN = frozenset(
    "every each only must should need needs have has with from into that this their there "
    "they them when where which what while also then than more most less least other others "
    "same kept keep keeps goes make made does done used uses using before after always".split()
)


def _stems(text: str) -> set[str]:
    out = set()
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text):
        for _, part in _identifier_parts(word):
            if len(part) >= 4 and part.lower() not in _PLAIN:
                out.add(stem(part))
    return out


# "X, never Y", "X, not Y", "X rather than Y", "X so that Y never happens": X is stated (a
# clause with its own negation is not); the split is at the comma, at "rather than" /
# "instead of", or at a purpose "so (that)" whose clause is negated
_CONTRAST = re.compile(r",\s+(?:never|not|no|nor)\b|\s+(?:rather\s+than|instead\s+of)\s+"
                       r"|,?\s+so\s+(?:that\s+)?(?=[^,;]*\b(?:not|n't|never|no)\b)", re.I)
_NEGATED = re.compile(r"\b(?:not|n't|never|no|nothing|nobody|avoid)\b", re.I)
CONTRAST = True  # the positive half of "X, never Y" (switch for tests.stage_audit)
SWAP = True  # one word swapped out of a line edited in place (switch for tests.stage_audit)
# a line edited in place: the removed and the added line this alike (difflib's ratio)
SAME_LINE = 0.6
# a word followed by these is a bound ("info or above"), not the one value the rule wants
_BOUND_AFTER = re.compile(r"\s+(?:or|and)\s+(?:above|higher|later|newer|more|up|greater)\b", re.I)


def _contrast_heads(sentence: str) -> list[str]:
    heads = []
    for clause in re.split(r"[;:]\s+|\.\s+", sentence):
        m = _CONTRAST.search(clause)
        if m and not _NEGATED.search(clause[: m.start()]):
            heads.append(clause[: m.start()])
    return heads


def _said(sentence: str, spec: CriterionSpec) -> str:
    said = list(stated_clauses(sentence)) + (_contrast_heads(sentence) if CONTRAST else [])
    said += [gate_of(t)[1] for t in [*spec.require, *spec.alternatives]
             if not gate_of(t)[1].startswith(("/", "path:"))]
    return " ".join(said)


def asked_for(sentence: str, spec: CriterionSpec) -> set[str]:
    """The stems of what a rule states positively: its stated clauses, required terms and
    recommended ways (never a regex or a path)."""
    return _stems(_said(sentence, spec))


def given_up(sentence: str, spec: CriterionSpec, removed: str, added: str) -> str:
    """The removed line holding words of what the rule asks for that the added text no
    longer has (GONE_AT_LEAST of them over all removed lines), else ''."""
    if not ENABLED or not removed.strip():
        return ""
    gone = (asked_for(sentence, spec) & _stems(removed)) - _stems(added)
    if len(gone) < GONE_AT_LEAST:
        return _swapped(sentence, gone, removed, added) if gone and SWAP else ""
    for line in removed.splitlines():
        if _stems(line) & gone:
            return line.strip()
    return ""


def _as_written(sentence: str, gone: set[str]) -> set[str]:
    """The words of `gone` as the rule writes them (lower case), where none is a bound."""
    out = set()
    for m in re.finditer(r"[A-Za-z][A-Za-z0-9]*", sentence):
        word = m.group(0)
        if stem(word) in gone and not _BOUND_AFTER.match(sentence, m.end()):
            out.add(word.lower())
    return out


def _swapped(sentence: str, gone: set[str], removed: str, added: str) -> str:
    """The removed line of a line edited in place (an added line as alike as SAME_LINE) that
    held one word of what the rule asks for, written as the rule writes it, else ''."""
    written = _as_written(sentence, gone)
    if not written:
        return ""
    new_lines = [a.strip() for a in added.splitlines() if a.strip()]
    for line in removed.splitlines():
        line = line.strip()
        words = {p.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", line)
                 for _, p in _identifier_parts(w)}
        if not words & written or not (_stems(line) & _stems(sentence)) - gone:
            continue  # the line must also name something else the rule is about
        if any(SequenceMatcher(None, line, a).ratio() >= SAME_LINE for a in new_lines):
            return line
    return ""


OFF_SWITCH = True  # a setting switched off in place (switch for tests.stage_audit)
_ON = re.compile(r"""([A-Za-z][\w.-]*)["']?\s*[:=]\s*["']?(?:true|enabled?|on|yes)\b""", re.I)
_OFF_VALUE = r"""["']?\s*[:=]\s*["']?(?:false|disabled?|off|no|none)\b"""
_DISABLING = re.compile(r"\b(?:disabl\w*|deactivat\w*|(?:turn|switch|shut)\w*\s+(?:\w+\s+)?off)\b", re.I)


def _short_stems(text: str) -> set[str]:
    """Stems of three letters or more (`acks` of a key against "ack" of the rule)."""
    return {stem(p) for w in re.findall(r"[A-Za-z][A-Za-z0-9]*", text)
            for _, p in _identifier_parts(w) if len(p) >= 3 and p.lower() not in _PLAIN}


def switched_off(sentence: str, removed: str, added: str, applied: bool) -> str:
    """The removed line whose setting (true / enabled / on) the added lines set off on the
    same key, where the rule applies already and the key names a word of it or the rule
    forbids disabling; else ''."""
    if not (ENABLED and OFF_SWITCH and applied) or not removed.strip():
        return ""
    rule = _short_stems(sentence)
    new_lines = [a for a in added.splitlines() if a.strip()]
    for line in removed.splitlines():
        for m in _ON.finditer(line):
            key = m.group(1)
            off = re.compile(rf"(?<![\w.-]){re.escape(key)}{_OFF_VALUE}", re.I)
            if not any(off.search(a) for a in new_lines):
                continue
            if _short_stems(key) & rule or _DISABLING.search(sentence):
                return line.strip()
    return ""


PURE_REMOVAL = True  # one word on a line deleted outright (switch for tests.stage_audit)
# what a line says in a comment (`# …`, `// …`, `<!-- … -->`, a `/* … */` block's lines)
_COMMENT = re.compile(r"<!--.*?(?:-->|$)|(?:^|\s)(?:#|//)(?:\s.*)?$|^\s*(?:/\*|\*).*$")


def _code_of(text: str) -> str:
    return "\n".join(_COMMENT.sub("", line) for line in text.splitlines())


def _wide(text: str, *, acronyms_only: bool = False) -> set[str]:
    """_stems, and a name written in mixed case whole (`MLflow`, `ETag`: `mlflow`, `etag`),
    and three-letter parts (`cla` of `license/cla`; of a rule, only those in capitals)."""
    out = _stems(text)
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]*", text):
        if len(word) >= 4 and not (word.islower() or word.isupper()):
            out.add(stem(word.lower()))
        if acronyms_only and len(word) == 3 and word.isupper():
            out.add(word.lower())
        elif not acronyms_only:
            out.update(p.lower() for _, p in _identifier_parts(word) if len(p) == 3 and p.isalpha())
    return out


def deleted_outright(sentence: str, spec: CriterionSpec, removed: str, added: str,
                     paths: Sequence[str] = ()) -> str:
    """The removed code line (no added line edited from it) that held a word of what the rule
    asks for, as the rule writes it, which the new code no longer has — where the change is
    also about something else the rule names (a path's or another removed word); else ''."""
    if not (ENABLED and PURE_REMOVAL) or not removed.strip():
        return ""
    removed, added = _code_of(removed), _code_of(added)
    gone = (_wide(_said(sentence, spec), acronyms_only=True) & _wide(removed)) - _wide(added)
    written = _as_written(sentence, gone)
    about = (_stems(removed) | _stems(" ".join(paths))) & (_stems(sentence) - gone)
    if not written or not about:
        return ""
    new_lines = [a.strip() for a in added.splitlines() if a.strip()]
    for line in removed.splitlines():
        line = line.strip()
        names = re.findall(r"[A-Za-z][A-Za-z0-9]*", line)
        words = {w.lower() for w in names} | {p.lower() for w in names
                                              for _, p in _identifier_parts(w)}
        if not words & written:
            continue
        if not any(SequenceMatcher(None, line, a).ratio() >= SAME_LINE for a in new_lines):
            return line
    return ""


def open_given_up(outcome: RuleOutcome, sentence: str, spec: CriterionSpec, removed: str,
                  added: str, paths: Sequence[str] = ()) -> RuleOutcome:
    """A pass by a change that takes away what the rule asks for becomes "applies,
    undecided", quoting the removed line (a pass that took the recommended way stays one)."""
    if outcome.status not in ("satisfied", "not_applicable") or outcome.exempted_by:
        return outcome
    line = given_up(sentence, spec, removed, added) or deleted_outright(sentence, spec, removed,
                                                                        added, paths)
    off = "" if line else switched_off(sentence, removed, added, outcome.status == "satisfied")
    if line:
        outcome.status, outcome.quote = "undecided", line[:120]
        outcome.reason = (f"applies, undecided: the change takes away '{line[:80]}', which "
                          "holds what the rule asks for: judge whether it breaks the rule")
    elif off:
        outcome.status, outcome.quote = "undecided", off[:120]
        outcome.reason = (f"applies, undecided: the change switches off '{off[:80]}': judge "
                          "whether it breaks the rule")
    return outcome
