"""A guess asks only where the proposal shows no sign of keeping the rule, part two: a literal
the rule writes out (issue 22, thirty-first session, la31: look-alikes asked instead of passed).

Rules often write the thing they ask for, or the thing they forbid, as a literal with its
value: "Every new source file starts with the SPDX header: "// SPDX-License-Identifier:
Apache-2.0"", "release builds keep R8 minification on (minifyEnabled true)", "No privileged
containers (privileged: true)", "tabindex="0" and "-1" are fine". A look-alike that writes
that literal, value and all, or sets the forbidden key to its opposite (`privileged: false`),
reads close to the rule by meaning and was asked like the violation. A key shown with the
value the rule asks for is positive evidence that a violation cannot also show: a violation
leaves the key out, or gives it another value.

The reading: a guess that answers "applies, undecided" with nothing forbidden met is kept (a
pass) where

* the proposal shows a literal the rule writes in quotes, backticks or parentheses as a key
  with its value (`key: value`, `key=value`, `key="value"`, `key value` where the key is
  written as code) in a clause that asks for it or allows it — or the key of a literal the rule
  forbids set to the opposite of the forbidden value (true/false, yes/no, on/off, 1/0,
  enabled/disabled);
* and the proposal shows no trace of what the rule forbids: every place where it writes that
  key has a value the rule asks for or allows (so `tabindex="0"` beside `tabindex="2"` still
  asks), and it writes no literal the rule forbids and no name from what it forbids;
* and, for a rule that forbids nothing ("Every X has Y"), the change touches one file: the
  literal in one new file is no proof that the others have it.

Only a guess (never a rule the user accepted), only where no forbidden term was met.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from lorestack.guardrail.rules import RuleOutcome
from lorestack.memory_layers.models import CriterionSpec

ON = True  # the switch tests and tests.stage_audit turn off

# a span the sentence quotes: "…", `…`, (…) — the parentheses only when they hold a key and value
_QUOTED = re.compile(r"\"([^\"]{2,80})\"|`([^`]{2,80})`|\(([^()]{2,80})\)")
# key and value inside a literal: `privileged: true`, `user-scalable=no`, `tabindex="1"`,
# `minifyEnabled true`, `SPDX-License-Identifier: Apache-2.0`
_KEY_VALUE = re.compile(
    r"^\s*(?:(?://|#|--|;)\s*)?([A-Za-z_][\w.\-]*)\s*(?:[:=]\s*|\s+(?=[\"'{]?[\w.\-]+[\"'}]?\s*$))"
    r"[\"'{]?([\w.\-/]+)[\"'}]?\s*$"
)
# a key and value written bare in the sentence, with any further values listed after it
_BARE = re.compile(
    r"(?<![\w\-])([A-Za-z_][\w.\-]*[A-Za-z])=[\"']?([\w.\-]+)[\"']?"
    r"((?:\s*(?:,|\band\b|\bor\b)\s*[\"'][\w.\-]+[\"'])*)"
)
_FORBIDS = re.compile(r"\b(?:no|not|never|don't|do\s+not|must\s+not|avoid|nor|without)\b", re.I)
_ALLOWS = re.compile(r"\b(?:fine|allowed|ok|okay|acceptable|may)\b", re.I)
_OPPOSITE = {"true": "false", "yes": "no", "on": "off", "enabled": "disabled"}
_OPPOSITE.update({v: k for k, v in list(_OPPOSITE.items())})


def _is_key(word: str) -> bool:
    """A key written as code (`minifyEnabled`, `user-scalable`, `privileged`): for a literal
    with no `:` or `=` between key and value the key must look like code."""
    return bool(re.search(r"[a-z][A-Z]|[_.\-]|\d", word))


def _clauses(sentence: str) -> list[str]:
    return [c for c in re.split(r"(?<=[.;!?])\s+|;\s*", sentence) if c.strip()]


@lru_cache(maxsize=2048)
def literals(sentence: str) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """((key, value) the rule asks for or allows, (key, value) it forbids), from the literals
    it quotes, by the clause each is written in."""
    wanted: list[tuple[str, str]] = []
    forbidden: list[tuple[str, str]] = []
    for clause in _clauses(sentence):
        found: list[tuple[int, int, str, str]] = []
        for m in _QUOTED.finditer(clause):
            inner = next(g for g in m.groups() if g is not None)
            paren = m.group(3) is not None
            for piece in re.split(r"\s+(?:and|or)\s+|,\s*", inner) if paren else [inner]:
                kv = _KEY_VALUE.match(piece)
                if not kv:
                    continue
                key, value = kv.group(1), kv.group(2)
                if not re.search(r"[:=]", piece) and not _is_key(key):
                    continue  # "(cents)", "(main, develop)": no key, no value
                found.append((m.start(), m.end(), key, value))
        # written bare: `tabindex="0" and "-1" are fine`, `no user-scalable=no`
        for m in _BARE.finditer(clause):
            if any(a <= m.start() < b for a, b, _, _ in found):
                continue
            values = [m.group(2)] + re.findall(r"[\"']([\w.\-]+)[\"']", m.group(3) or "")
            found += [(m.start(), m.end(), m.group(1), v) for v in values]
        for start, end, key, value in found:
            if _FORBIDS.search(clause[:start]) and not _ALLOWS.search(clause[end:]):
                forbidden.append((key.lower(), value.lower()))
            else:
                wanted.append((key.lower(), value.lower()))
    return tuple(dict.fromkeys(wanted)), tuple(dict.fromkeys(forbidden))


def _values(key: str, text: str) -> list[str]:
    """The values `text` gives `key`, wherever it writes it (`key: v`, `key=v`, `key="v"`,
    `key={v}`, `key v`); a key written with no value gives ''."""
    out = []
    for m in re.finditer(rf"(?<![\w\-]){re.escape(key)}(?![\w\-])", text, re.I):
        rest = text[m.end(): m.end() + 60]
        v = re.match(r"[\"']?\s*(?:[:=]\s*|\s)[\"'{]?\s*([\w.\-/]+)", rest)
        out.append(v.group(1).lower() if v else "")
    return out


def shown(sentence: str, text: str) -> str:
    """The literal the proposal shows as evidence that it keeps the rule, else ''."""
    wanted, forbidden = literals(sentence)
    allowed: dict[str, set[str]] = {}
    for key, value in wanted:
        allowed.setdefault(key, set()).add(value)
    for key, value in forbidden:
        if _OPPOSITE.get(value) and key not in allowed:
            allowed.setdefault(key, set()).add(_OPPOSITE[value])
    for key, value in forbidden:  # a trace of what it forbids: no evidence either way
        if value in _values(key, text):
            return ""
    shown_all = []
    for key, values in allowed.items():
        found = _values(key, text)
        if found and all(v in values for v in found):
            shown_all.append(f"{key}: {found[0]}")
        elif key in {k for k, _ in wanted}:
            return ""  # "with target="_blank" carry rel="noopener"": every literal it asks for
    return shown_all[0] if shown_all else ""


def _without_keys(sentence: str, text: str) -> str:
    """`text` without the keys of the rule's literals (their values are read by `shown`):
    `privileged: false` is no trace of "no privileged containers"."""
    wanted, forbidden = literals(sentence)
    for key in {k for k, _ in (*wanted, *forbidden)}:
        text = re.sub(rf"(?<![\w\-]){re.escape(key)}(?![\w\-])", " ", text, flags=re.I)
    return text


def kept_by_literal(outcome: RuleOutcome, sentence: str, spec: CriterionSpec, text: str,
                    paths: Sequence[str] = ()) -> RuleOutcome:
    """An undecided guess with nothing forbidden met, where the proposal writes a literal the
    rule asks for (or the forbidden key at its opposite value) and nothing it forbids: kept."""
    if not ON or outcome.status != "undecided" or outcome.forbid_hit or not spec.is_guess():
        return outcome
    from lorestack.guardrail.meaning import split_acts
    from lorestack.guardrail.shown_way import forbidden_names_shown

    if outcome.missing:
        return outcome  # a required term the rule's draft asks for is not there: still asks
    wanted, forbidden = literals(sentence)
    if not wanted and not forbidden:
        return outcome
    if not (forbidden or split_acts(sentence)[0] or spec.forbid) and len(set(paths)) > 1:
        return outcome  # "every new file has Y": one file showing it says nothing of the rest
    word = shown(sentence, text)
    if word and forbidden_names_shown(sentence, spec, _without_keys(sentence, text)):
        return outcome  # a trace of what the rule forbids beside it: no evidence either way
    if word:
        outcome.status = "satisfied"
        outcome.quote = word
        outcome.exempted_by = ""
        outcome.reason = (f"shows '{word}', the value the rule asks for or allows, and nothing "
                          "it forbids: kept")
    return outcome
