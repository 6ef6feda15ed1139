"""A change that only binds literals calls nothing (issue 22, twenty-ninth session; the
review's key-p3). "Don't do network calls on the main thread" reads a network rule, which
applies wherever `https` occurs; `export const API_BASE_URL = 'https://api.example.com/v2'`
was asked about although it calls nothing: it names an address. A guess left open over a
rule about calls or requests, by a change whose every added line only binds a name to a
literal (a string, a number, true/false/null) and names no call, keeps it — like a command
that only reads (guess_checks.takes_away). Never where the reading found what the rule
forbids or misses something it wants."""

from __future__ import annotations

import re

ON = True  # the switch tests and tests.stage_audit turn off

# calls, or requests of the network kind: not pull requests, not a container's CPU requests
_ABOUT_CALLS = re.compile(
    r"(?i)\b(?:calls?|calling|fetch\w*)\b"
    r"|\b(?:network|http|https|api|web|outgoing|outbound|remote)\s+requests?\b")
_LITERAL = r"(?:'[^'\n]*'|\"[^\"\n]*\"|`[^`$\n]*`|-?\d[\d_.]*|true|false|null|None|True|False|nil)"
_BINDING = re.compile(
    r"^\s*(?:export\s+)?(?:(?:const|let|var|val|final|static|public|private|internal)\s+)*"
    r"(?:[\w.<>\[\]]+\s+)??[\w.]+\s*(?::\s*[\w.<>\[\]?]+\s*)?[:=]\s*" + _LITERAL + r"\s*[;,]?\s*$"
)
_COMMENT = re.compile(r"^\s*(?:#|//|/\*|\*|--)")


def binds_only(sentence: str, text: str, change: bool) -> bool:
    """Is `text` (a change's added lines) only literals bound to names, under a rule about
    calls or requests?"""
    if not ON or not change or not _ABOUT_CALLS.search(sentence):
        return False
    lines = [ln for ln in text.splitlines() if ln.strip() and not _COMMENT.match(ln)]
    return bool(lines) and all(_BINDING.match(ln) for ln in lines)
