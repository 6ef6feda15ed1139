"""Whether a change defines something new (a function, class, method, route, table, export):
a freeze on new things (maintenance mode, a feature freeze) lets an edit of a file that is there
pass when it defines nothing new (nineteenth session; reviewed the same session).

Only what the change adds counts: the added lines of a diff (a context line ` def f():` is no
definition), and an edit's new text less the lines it replaces (an edit that repeats the
`def` line of the function it fixes defines nothing).
"""

from __future__ import annotations

import re

# a line that defines something; a method with no keyword (`  applyCoupon(code) {`, TS/JS/
# Java/C#) and modifiers (`pub fn`, `private static void`) included
_DEFINES = re.compile(
    r"^\s*(?:(?:pub(?:\([\w:]+\))?|public|private|protected|internal|static|abstract|final|"
    r"override|export|default|async|extern|unsafe|open|suspend)\s+)*"
    r"(?:def|class|func|function|fn|fun|interface|type|enum|struct|trait|impl|module|export|"
    r"@\w+(?:\.\w+)*\(|(?:app|router|bp|api)\.(?:get|post|put|patch|delete|route)\(|"
    r"create\s+(?:table|view|function|index)|alter\s+table\s+\S+\s+add\b|"
    r"(?:const|let|var)\s+\w+\s*=\s*(?:async\s*)?(?:\(|function\b)|"
    r"(?!(?:if|for|while|switch|catch|return|else)\b)[A-Za-z_$][\w$]*\s*\([^()]*\)\s*(?::\s*[\w<>\[\], |]+)?\s*\{\s*$|"
    r"(?:public|private|protected|internal|static)\s+[\w<>\[\], ]+\s+\w+\s*\()",
    re.IGNORECASE | re.MULTILINE,
)
# a registration: a CLI flag or command, a route or URL rule, a router's entry
_REGISTERS = re.compile(
    r"\.(?:add_argument|add_parser|add_command|add_typer|add_url_rule|add_api_route|include_router)\(|"
    r"^\s*(?:re_)?path\(\s*[\"']|^\s*\{\s*path:\s*[\"']",
    re.MULTILINE,
)
_DIFF = re.compile(r"^(?:\+\+\+ |@@ )", re.MULTILINE)


def defines_new(text: str, replaced: str = "") -> bool:
    """True when `text` (a diff, an edit's new text, a file's content) adds a definition that
    names nothing the lines it replaces named."""
    if _DIFF.search(text):
        lines = [ln[1:] for ln in text.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
        old = {ln[1:].strip() for ln in text.splitlines() if ln.startswith("-") and not ln.startswith("---")}
    else:
        lines = text.splitlines()
        old = set()
    old = {_key(ln) for ln in old | set(replaced.splitlines())}
    return any((_DEFINES.match(ln) or _REGISTERS.search(ln)) and _key(ln) not in old for ln in lines)


def _key(line: str) -> str:
    """What a definition names, up to its first comma or bracket close: `def f(rows, m=None):`
    is `def f(rows` as `def f(rows, m):` was (a fix of its signature), `add_argument("--csv"`."""
    return " ".join(re.split(r"[,)]", line.strip(), maxsplit=1)[0].split())
