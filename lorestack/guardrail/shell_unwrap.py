"""A command as the project's paths see it (nineteenth session): `cd lib && touch
helpers/x.py` writes lib/helpers/x.py, and a command run by another command is the command
that runs.

- after `cd DIR` (DIR relative to the project), the relative paths the next commands name are
  read under DIR (`cd lib && touch helpers/dates.py` -> `touch lib/helpers/dates.py`); a
  heredoc's body and quoted words are left as they are;
- `sh -c '…'`, `bash -c "…"` (and zsh, dash): the inner command, as if typed;
- `find DIR … -exec CMD … {} \\;` (or `+`): CMD with `{}` read as DIR/;
- `A | xargs [flags] CMD …`: CMD with the paths A lists (`ls fixtures/*.png | xargs rm` is
  `rm fixtures/*.png`); `xargs -I{} CMD {} DEST` is CMD with `{}` a file of unknown name.
shell_writes.py then reads what each command does to the paths it names.
"""

from __future__ import annotations

import re

_WRAPPED = re.compile(r"""\b(?:ba|z|da)?sh\s+-c\s+(?:'([^']*)'|"((?:[^"\\]|\\.)*)")""")
_FIND_EXEC = re.compile(r"\bfind\s+([^\s;|&'\"-][^\s;|&'\"]*)\s[^\n;|&]*?-exec(?:dir)?\s+(.*?)\s*(?:\\;|\+)")
_XARGS = re.compile(
    r"(\b(?:ls|find|echo|printf)\s+[^|\n;&]*\|\s*)?\bxargs\s+((?:-\S+\s+(?:\{\}\s+)?)*)([^|\n;&<]*)"
)
_CD = re.compile(r"(?:^|(?<=[;&|(\n]))\s*cd\s+([^\s;&|]+)\s*(?:&&|;)")
_SUBSHELL = re.compile(r"\(([^()]*)\)")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
# a relative path a command may name: a folder path, or a file with an extension
_PATHISH = re.compile(r"(?<![\w./~$@:={}-])(?:[A-Za-z_][\w.+-]*/[\w.+*/-]*|[A-Za-z_][\w+-]*\.[A-Za-z]\w*)")
_QUOTED = re.compile(r"""'[^'\n]*'|"[^"\n]*\"""")


def unwrap(text: str) -> str:
    """The command `text` with wrapped commands opened and paths read from where it runs."""
    text = _WRAPPED.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    text = _FIND_EXEC.sub(lambda m: m.group(2).replace("{}", m.group(1).rstrip("/") + "/"), text)
    if "xargs" in text:
        text = _XARGS.sub(_xargs, text)
    return _from_cd(text) if "cd " in text else text


def _xargs(m: re.Match) -> str:
    """`ls A | xargs rm` -> `rm A`; `xargs -I{} cp {} d/` -> `cp {} d/` (a file of unknown
    name copied into d/)."""
    listed, flags, command = m.group(1), m.group(2) or "", m.group(3).rstrip()
    if listed is None or "-I" in flags:
        return command + " "
    words = " ".join(w for w in listed.split()[1:] if not w.startswith("-") and w != "|")
    return f"{command} {words} "


def _from_cd(text: str) -> str:
    """Relative paths after `cd DIR &&` / `cd DIR;` read under DIR, line by line; a heredoc's
    body and quoted words stay as written."""
    out: list[str] = []
    where = ""
    ending = ""
    for line in text.split("\n"):
        if ending:
            out.append(line)
            ending = "" if line.strip() == ending else ending
            continue
        head, doc, tail = line.partition("<<")
        pieces = []
        pos = 0
        for g in _SUBSHELL.finditer(head):  # `(cd lib && make)`: the cd ends with the group
            text, where = _cds(head[pos : g.start()], where)
            pieces.append(text + "(" + _cds(g.group(1), where)[0] + ")")
            pos = g.end()
        text, where = _cds(head[pos:], where)
        out.append("".join(pieces) + text + doc + tail)
        found = _HEREDOC.search(doc + tail)
        ending = found.group(1) if found else ""
    return "\n".join(out)


def _cds(segment: str, where: str) -> tuple[str, str]:
    """`segment` with its paths read under the folder each `cd` in it leaves, and the folder
    after it (`cd -` goes back to the one before)."""
    pieces = []
    pos = 0
    before = where
    for m in _CD.finditer(segment):
        pieces.append(_under(segment[pos : m.start()], where))
        pieces.append(segment[m.start() : m.end()])
        before, where = where, before if m.group(1) == "-" else _join(where, m.group(1))
        pos = m.end()
    pieces.append(_under(segment[pos:], where))
    return "".join(pieces), where


def _join(where: str, target: str) -> str:
    target = target.strip("'\"")
    if target in (".", "") or target.startswith(("/", "~", "$", "-")):
        return "" if target in (".", "") or target.startswith(("/", "~")) else where
    if target == "..":
        return where.rsplit("/", 1)[0] if "/" in where else ""
    return f"{where}/{target.rstrip('/')}" if where else target.rstrip("/")


def _under(segment: str, where: str) -> str:
    """`segment` with its unquoted relative paths under `where`."""
    if not where:
        return segment
    parts = []
    pos = 0
    for q in _QUOTED.finditer(segment):
        parts.append(_PATHISH.sub(lambda m: f"{where}/{m.group(0)}", segment[pos : q.start()]))
        parts.append(q.group(0))
        pos = q.end()
    parts.append(_PATHISH.sub(lambda m: f"{where}/{m.group(0)}", segment[pos:]))
    return "".join(parts)
