"""A ban on switching a good thing off ("don't turn off strict", "Never disable CSRF
protection"): the object names what must stay on, so the draft forbids the act — the thing
set to false / off / 0, a `--no-` flag, prose that turns or switches it off or disables it —
not the name (twenty-second session, drop22: 'strict' alone blocked `"strict": true` and
"keep strict on"). The name set to false stays a violation: "X false" is not read as "not X"
here, where X is the good thing."""

from __future__ import annotations

import re

_DISABLE = frozenset(("disable", "disabling", "deactivate", "deactivating"))
_OFF_VERBS = frozenset(("turn", "turning", "switch", "switching", "shut", "shutting"))
SWITCH_OFF = True
_JOIN = r"[\s_-]?"
_NAMED = r"(?<![\w-])"
_VALUE = r"""["']?\s*[:=]\s*["']?(?:false|off|0|no|disabled?|none)\b"""
# skipping or bypassing a check switches it off too ("… to skip TLS certificate verification")
_PROSE = r"\b(?:(?:turn|switch|shut)\w*\s+off|disabl\w*|deactivat\w*|skip\w*|bypass\w*)\s+(?:the\s+)?(?:\w+\s+)?"


def switches_off(verb: str, rest: list[str]) -> str:
    """The act ("disable", "turn off") when `verb` (followed by `rest`, its particle not yet
    taken off) switches something off, else ''."""
    if not SWITCH_OFF:
        return ""
    if verb in _DISABLE:
        return verb
    return f"{verb} off" if verb in _OFF_VERBS and rest and rest[0] == "off" else ""


def off_forms(term: str, act: str = "") -> list[str]:
    """The forbidden terms of switching `term` off: regexes, and `term & act` as written —
    which also keeps the name as what the forbidden-act gate compares (judging.py skips
    regexes; without it "Never disable pinch-zoom" let "locking the viewport's scale" pass)."""
    words = [re.escape(w) for w in term.split()]
    if not words:
        return []
    name = _JOIN.join(words)
    both = [f"{term} & {act}"] if act else []
    return [f"/{_NAMED}{name}{_VALUE}/", f"/--no-{name}\\b/", f"/{_PROSE}{name}\\b|"
            f"\\b(?:turn|switch|shut)\\w*\\s+(?:the\\s+)?{name}\\s+off\\b/", *both]


def shown_off(entry: str) -> str | None:
    """How `remember` says one of `off_forms`' regexes in words; None for any other regex."""
    for head, tail, say in (
        (f"/{_NAMED}", f"{_VALUE}/", "{} set to false, off, 0 or none"),
        ("/(?<![A-Za-z0-9-])", f"{_VALUE}/", "{} (or a setting ending in it) set to false, off, 0 or none"),
        ("/--no-", "\\b/", "a --no-{} flag"),
        (f"/{_PROSE}", None, "turning {} off or disabling it, in words"),
    ):
        if not entry.startswith(head):
            continue
        rest = entry[len(head):]
        name = rest[: -len(tail)] if tail and rest.endswith(tail) else rest.split("\\b|", 1)[0]
        if tail is None and "\\b|" not in rest or tail and not rest.endswith(tail):
            continue
        plain = re.sub(r"\\(.)", r"\1", name.replace(_JOIN, " "))
        return say.format(plain.replace(" ", "-") if head == "/--no-" else plain)
    return None
