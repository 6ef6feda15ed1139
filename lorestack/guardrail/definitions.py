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


# a case a change may add without defining anything (twentieth session): a branch on a value
# (`elif method == 'klarna':`, `if name.endswith('.toml'):`, `case "x":`), an entry of a
# registry (`"parquet": ParquetExporter,`, `"plugins.azure_sync",`, `[*BASE, PruneCommand]`)
_BRANCH = re.compile(r"^\s*(?:elif|else\s+if|if|case|when)\b")
_LITERAL = re.compile(r"""(["'])([^"'\n]{1,60})\1""")
_ENTRY = re.compile(r"""^\s*(["'])[^"'\n]+\1\s*(?::|,\s*$)""")
_REGISTRY = re.compile(r"^\s*[A-Za-z_]\w*\s*=\s*[\[{(]")
_CLASS_NAME = re.compile(r"\b[A-Z][a-z0-9]+[A-Z]\w*")


def new_case(text: str, replaced: str = "") -> str:
    """The first line an edit adds that handles a new case (a branch on a value, an entry of a
    dict or list, a name added to a registry) that the replaced lines did not handle; '' when
    none (a fix of an existing branch or entry: its values are the ones it replaced, or one
    near them, a typo fixed)."""
    if _DIFF.search(text):
        added = [ln[1:] for ln in text.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
        replaced = "\n".join(
            [replaced] + [ln[1:] for ln in text.splitlines() if ln.startswith("-") and not ln.startswith("---")]
        )
    else:
        added = text.splitlines()
    old_lines = {ln.strip() for ln in replaced.splitlines()}
    old_values = {m.group(2) for m in _LITERAL.finditer(replaced)}
    old_names = set(_CLASS_NAME.findall(replaced))
    for line in added:
        if line.strip() in old_lines:
            continue
        values = [m.group(2) for m in _LITERAL.finditer(line)]
        if _BRANCH.match(line) or _ENTRY.match(line) or (_REGISTRY.match(line) and ":" in line):
            if any(v not in old_values and not _near(v, old_values) for v in values):
                return line.strip()
        if _REGISTRY.match(line) and set(_CLASS_NAME.findall(line)) - old_names:
            return line.strip()
    return ""


def _near(value: str, olds: set[str]) -> bool:
    """A value one or two letters from an old one (`gcs_sync` for `gsc_sync`): a fix."""
    from difflib import SequenceMatcher

    return any(SequenceMatcher(None, value, o).ratio() >= 0.8 for o in olds)
