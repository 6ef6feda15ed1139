"""What "without X" requires, met where code records the act under its own name (issue 22,
twenty-fifth session, conf25).

"The CLI must not send telemetry without the user opting in" requires 'user opting'; "Don't
send promotional text messages without a recorded opt-in" 'recorded opt-in'. Code that checks
the act names it in an identifier that leaves the rest of the phrase out: `if
config.telemetry_opt_in:`, `filter(sms_opt_in_at__isnull=False)`, `if (consent.optingIn)` — a
confirmed rule blocked them. The act word (the requirement's last word, when it names an act:
*-ing* or hyphenated — 'opting', 'opt-in', 'sign-off') now meets it when it occurs INSIDE an
identifier (joined by `_` or camelCase to other parts) on a code line of a change or a command.
Never as a word: prose, a comment, a string ("opting in is not required", "# opt-in ignored
for launch" — the twenty-fourth session's review found the act word met anywhere let those
pass); never read negated (`not x.opt_in`, `!optingIn`) or set false (`opt_in = False`; a name
ending in a negative — `…__isnull` — turns the value round)."""

from __future__ import annotations

import re

from lorestack.guardrail.needs_code import _code_line, _line
from lorestack.guardrail.rules import PreparedText, RuleOutcome, entry_alternatives
from lorestack.guardrail.switched_off import switched_off
from lorestack.guardrail.terms import find_term, is_regex, stem

ENABLED = True  # the switch tests and tests.stage_audit turn off

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FALSE = frozenset("false none null nil 0 off no".split())
_NEGATIVE_END = frozenset("isnull null none missing absent empty".split())
_STRING = re.compile(r"""(["'`])(?:\\.|(?!\1).)*\1""")


def _parts(name: str) -> list[str]:
    """`sms_opt_in_at__isnull` -> sms, opt, in, at, isnull; `optingIn` -> opting, in."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name)
    return [p.lower() for p in spaced.split("_") if p]


def act_word(entry: str) -> tuple[str, ...]:
    """The stems of the act a required phrase ends in ('user opting' -> opt; 'recorded
    opt-in' -> opt, in), or () when its last word names no act."""
    if is_regex(entry) or not entry.strip():
        return ()
    last = entry.split()[-1].lower()
    if not (last.endswith("ing") or re.fullmatch(r"[a-z]+-[a-z]+", last)):
        return ()
    return tuple(stem(w) for w in last.split("-"))


def _holds(parts: list[str], act: tuple[str, ...]) -> bool:
    stems = [stem(p) for p in parts]
    n = len(act)
    return len(parts) > n and any(tuple(stems[i:i + n]) == act for i in range(len(stems) - n + 1))


def recorded_in_code(prepared: PreparedText, entry: str) -> str:
    """The identifier on a code line that records the act the required `entry` ends in, else ''."""
    if not (prepared.code or prepared.change):
        return ""
    acts = {a for alt in entry_alternatives(entry) if (a := act_word(alt))}
    if not acts:
        return ""
    text = prepared.text
    for m in _IDENT.finditer(text):
        name = m.group()
        parts = _parts(name)
        if not any(_holds(parts, act) for act in acts):
            continue
        line, begin, _ = _line(text, m.start())
        at = m.start() - begin
        if not _code_line(line, at) or any(s.start() < at < s.end() for s in _STRING.finditer(line)):
            continue
        before, after = line[:at], line[at + len(name):]
        if re.search(r"(?:\bnot\s+|!)[\w.]*$", before):
            continue
        value = re.match(r"\s*(?:==|=|:)\s*([\w'\"]+)", after)
        said = value.group(1).strip("'\"").lower() if value else ""
        false = said in _FALSE
        if value and parts[-1] in _NEGATIVE_END:  # `opt_in_at__isnull=False`: it is set
            false = said not in _FALSE
        if not false:
            return name
    return ""


def phrase_in_a_name(outcome: RuleOutcome, prepared: PreparedText, require: list[str],
                     sentence: str = "") -> RuleOutcome:
    """A pass where what "without X" requires is met only inside one name on code (twenty-sixth
    session): `window.visitorOptingIn = true` then `setCookie(…)` met 'visitor opting' by the
    name's split words. A name is no proof (see met_by_name): "applies, undecided"."""
    outcome = switched_off(outcome, prepared, require, sentence)  # `'verify_signature': False`
    if not (ENABLED and outcome.status == "satisfied" and not outcome.exempted_by
            and (prepared.code or prepared.change)):
        return outcome
    text = prepared.text
    for entry in require:
        alts = [a for a in entry_alternatives(entry) if " " in a.strip() and not is_regex(a)]
        hits = [(a, h) for a in alts for h in find_term(prepared, a) if not h.negated_by]
        if hits and all(h.start >= 0 and not re.search(r"\s", text[h.start:h.end])
                        and (act_word(a) or set_true(text, h.start, h.end)) for a, h in hits):
            first = hits[0][1]
            outcome.status, outcome.quote = "undecided", text[first.start:first.end]
            outcome.reason = (f"applies, undecided: the code names what the rule requires "
                              f"('{outcome.quote}') only inside a name: judge whether it guards the act")
            return outcome
    return outcome


# a statement that sets a name to a constant true: `user_consent = True`, `const ok = true;`
_BEFORE_NAME = re.compile(r"^[+ ]?\s*(?:(?:const|let|var|val|final|bool|boolean)\s+)?(?:[\w$]+\.)*$")
_SET_TRUE = re.compile(r"^\s*(?::\s*[\w\[\]]+\s*)?=\s*(?:True|true|1|YES|yes)\s*[;,]?\s*(?:(?:#|//).*)?$")


def set_true(text: str, start: int, end: int) -> bool:
    """Is the name holding text[start:end] set to a constant true by its own line (twenty-
    seventh session: `user_consent = True` then the send met "… without user consent")? A
    name the change sets true records nothing a person gave; one it reads is left alone."""
    begin, stop = text.rfind("\n", 0, start) + 1, text.find("\n", end)
    stop = len(text) if stop < 0 else stop
    while start > begin and re.match(r"[\w$]", text[start - 1]):
        start -= 1
    while end < stop and re.match(r"[\w$]", text[end]):
        end += 1
    return bool(_BEFORE_NAME.match(text[begin:start]) and _SET_TRUE.match(text[end:stop]))


def met_by_name(outcome: RuleOutcome, prepared: PreparedText) -> RuleOutcome:
    """A violation only for what "without X" requires, where code records each missing act
    under its own name: "applies, undecided", never a pass and never a block. A name says the
    act is recorded, not that it guards what the rule is about (the session's review:
    `telemetry_opt_in = True` then `send_telemetry(...)`, `skip_opt_in = True`, `cli_opts`,
    `if x.opt_in or True:` all hold the name and break the rule)."""
    if not (ENABLED and outcome.status == "violated" and outcome.missing and not outcome.forbid_hit):
        return outcome
    names = [recorded_in_code(prepared, entry) for entry in outcome.missing]
    if not all(names):
        return outcome
    outcome.status = "undecided"
    outcome.reason = ("applies, undecided: the code names what the rule requires ("
                      + ", ".join(f"'{n}'" for n in dict.fromkeys(names))
                      + "): judge whether it guards the act")
    outcome.quote = names[0]
    return outcome
