"""A command as the project's paths see it (nineteenth session): `cd lib && touch
helpers/x.py` writes lib/helpers/x.py, and a command run by another command is the command
that runs.

- after `cd DIR` (DIR relative to the project), the relative paths the next commands name are
  read under DIR (`cd lib && touch helpers/dates.py` -> `touch lib/helpers/dates.py`); a
  heredoc's body and quoted words are left as they are;
- `sh -c '…'`, `bash -c "…"` (and zsh, dash): the inner command, as if typed;
- `find DIR … -exec CMD … {} \\;` (or `+`): CMD with `{}` read as DIR/;
- `A | xargs [flags] CMD …`: CMD with the paths A lists (`ls fixtures/*.png | xargs rm` is
  `rm fixtures/*.png`); `xargs -I{} CMD {} DEST` is CMD with `{}` a file of unknown name;
  `grep -l PAT -r DIR | xargs CMD` is CMD on DIR/ (the files grep lists are under DIR).
shell_writes.py then reads what each command does to the paths it names.

Where a command runs (twentieth session): the hook's cwd when it is below the project root,
then every `cd DIR`, `pushd DIR` and `popd`, whether `&&`, `;` or a line break ends it; a
relative path with `../` or `./` is read from there (`cd build; sed -i … ../x.txt` edits
x.txt at the root); a path climbing out of the project is left as written.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

_WRAPPED = re.compile(r"""\b(?:ba|z|da)?sh\s+-c\s+(?:'([^']*)'|"((?:[^"\\]|\\.)*)")""")
_FIND_EXEC = re.compile(r"\bfind\s+([^\s;|&'\"-][^\s;|&'\"]*)\s[^\n;|&]*?-exec(?:dir)?\s+(.*?)\s*(?:\\;|\+)")
_XARGS = re.compile(
    r"(\b(?:ls|find|echo|printf|grep)\s+[^|\n;&]*\|\s*)?\bxargs\s+((?:-\S+\s+(?:\{\}\s+)?)*)([^|\n;&<]*)"
)
# `cd DIR`, `pushd DIR`, `popd`, ended by `&&`, `;`, `||` or the end of the line
_CD = re.compile(
    r"(?:^|(?<=[;&|(\n]))\s*(?:(?:cd|pushd)(?:\s+([^\s;&|)<>]+))?|(popd))"
    r"(?:\s+(?:\d|&)?>>?&?\s*[^\s;&|)]+)*"  # `pushd lib >/dev/null`, `cd x 2>&1`
    r"\s*(?=&&|;|\|\||\)|$)"
)
# the project root as a command asks git for it
_TOPLEVEL = re.compile(r"""(["']?)\$\(git rev-parse --show-toplevel\)\1""")
_MOVES = re.compile(r"\b(?:cd|pushd|popd)\b")
_SUBSHELL = re.compile(r"\(([^()]*)\)")
_HEREDOC = re.compile(r"<<-?\s*['\"]?(\w+)['\"]?")
# a relative path a command may name: a folder path, or a file with an extension, or one
# read from a folder up (`../base/`) or from here (`./run.sh`)
_PATHISH = re.compile(
    r"(?<![\w./~$@:={}-])((?:\.\.?/)+)?"
    r"(?(1)[\w.+*/-]*|(?:[A-Za-z_][\w.+-]*/[\w.+*/-]*|[A-Za-z_][\w+-]*\.[A-Za-z]\w*))"
)
_QUOTED = re.compile(r"""'[^'\n]*'|"[^"\n]*\"""")


@dataclass
class _Place:
    """Where the commands run, relative to the project root ('' is the root)."""

    where: str = ""
    before: str = ""  # the folder before the last `cd` (`cd -`)
    stack: list[str] = field(default_factory=list)  # `pushd` / `popd`
    root: Path | None = None  # the project, for `cd /abs/path/inside/it`

    def copy(self) -> _Place:
        return _Place(self.where, self.before, list(self.stack), self.root)


PATH_MAX = 1024  # deeper than a command cds into in practice (the longest path macOS takes)


def unwrap(text: str, where: str = "", root: Path | None = None) -> str:
    """The command `text` with wrapped commands opened and paths read from where it runs:
    `where` (the hook's cwd, relative to the project `root`) and the `cd`s in it."""
    text = _WRAPPED.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    text = _FIND_EXEC.sub(lambda m: m.group(2).replace("{}", m.group(1).rstrip("/") + "/"), text)
    if "xargs" in text:
        text = _XARGS.sub(_xargs, text)
    if root is not None and "--show-toplevel" in text:  # `cd "$(git rev-parse …)"/lib`
        text = _TOPLEVEL.sub(lambda m: str(root), text)
    if where or _MOVES.search(text):
        return _from_cd(text, _Place(where, where, root=root))
    return text


def _xargs(m: re.Match) -> str:
    """`ls A | xargs rm` -> `rm A`; `xargs -I{} cp {} d/` -> `cp {} d/` (a file of unknown
    name copied into d/); `grep -l PAT -r DIR | xargs sed -i …` -> `sed -i … DIR/`."""
    listed, flags, command = m.group(1), m.group(2) or "", m.group(3).rstrip()
    if listed is None or "-I" in flags:
        return command + " "
    words = listed.split()
    if words[0] == "grep":
        return f"{command} {' '.join(_grep_operands(words[1:]))} "
    words = [w for w in words[1:] if not w.startswith("-") and w != "|"]
    return f"{command} {' '.join(words)} "


_GREP_VALUED = frozenset(("-e", "-f", "-m", "-A", "-B", "-C", "--regexp", "--file"))


def _grep_operands(args: list[str]) -> list[str]:
    """The files and folders a `grep` searches (its pattern and flags left out); a folder of a
    recursive grep as DIR/ (the files it lists are somewhere under it)."""
    flags = [a for a in args if a.startswith("-")]
    recursive = any(a in ("--recursive", "--dereference-recursive") or (
        not a.startswith("--") and ("r" in a or "R" in a)) for a in flags)
    out, skip = [], False
    pattern_given = any(a in ("-e", "-f", "--regexp", "--file") or a.startswith(
        ("--regexp=", "--file=")) for a in flags)
    for a in args:
        if skip or a == "|":
            skip = False
            continue
        if a.startswith("-"):
            skip = a in _GREP_VALUED
            continue
        if not pattern_given:
            pattern_given = True  # the first operand is the pattern
            continue
        name = a.strip("'\"")
        last = name.rsplit("/", 1)[-1]
        out.append(name.rstrip("/") + "/" if recursive and "." not in last else name)
    return out


def _from_cd(text: str, place: _Place) -> str:
    """Relative paths read under the folder each `cd` / `pushd` / `popd` leaves, line by
    line; a heredoc's body and quoted words stay as written."""
    out: list[str] = []
    groups: list[_Place] = []  # where each `(` group opened on an earlier line began
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
            pieces.append(_cds(head[pos : g.start()], place))
            pieces.append("(" + _cds(g.group(1), place.copy()) + ")")
            pos = g.end()
        rest = _SUBSHELL.sub("", head[pos:])
        if rest.count("(") > rest.count(")"):  # a group opened on this line and closed below
            groups.append(place.copy())
        pieces.append(_cds(head[pos:], place))
        if rest.count(")") > rest.count("(") and groups:  # its `cd`s end with it
            place = groups.pop()
        out.append("".join(pieces) + doc + tail)
        found = _HEREDOC.search(doc + tail)
        ending = found.group(1) if found else ""
    return "\n".join(out)


def _cds(segment: str, place: _Place) -> str:
    """`segment` with its paths read under the folder each `cd` in it leaves; `place` is left
    where the segment ends (`cd -` goes back to the folder before, `popd` to the pushed one)."""
    pieces = []
    pos = 0
    for m in _CD.finditer(segment):
        pieces.append(_under(segment[pos : m.start()], place.where))
        pieces.append(segment[m.start() : m.end()])
        target = m.group(1)
        if m.group(2):  # popd
            new = place.stack.pop() if place.stack else place.where
        elif target == "-":
            new = place.before
        elif target is None and segment[m.start() : m.end()].lstrip().startswith("pushd"):
            new = place.stack.pop() if place.stack else place.where  # swaps the top two
            place.stack.append(place.where)
        else:
            new = _join(place.where, target, place.root)
            if segment[m.start() : m.end()].lstrip().startswith("pushd"):
                place.stack.append(place.where)
        place.before, place.where = place.where, new
        pos = m.end()
    pieces.append(_under(segment[pos:], place.where))
    return "".join(pieces)


def _join(where: str, target: str | None, root: Path | None = None) -> str:
    """The folder `cd TARGET` leaves from `where`: relative to the project root, or an
    absolute path when it is outside the project (`cd /tmp`, `cd ~`, `cd` alone: what is
    read there is no file of the project's); the root when it cannot be known (`cd "$DIR"`)."""
    target = "~" if target is None else target.strip("'\"")
    if target.startswith(("$", "`")) or (target.startswith("~") and target != "~"
                                         and not target.startswith("~/")):
        return ""  # unknown: read from the root, as a command without a `cd` is
    if target == "~" or target.startswith("~/"):
        target = str(Path(target).expanduser())
    if where.startswith("/") and not target.startswith("/"):
        target = f"{where}/{target}"
    if target.startswith("/"):
        if root is None:
            return ""
        target = os.path.normpath(target)
        try:
            rel = Path(target).resolve().relative_to(root.resolve()).as_posix()
        except (ValueError, OSError):
            return target  # outside the project
        return "" if rel == "." else rel
    if target in (".", ""):
        return ""
    if target.startswith("-"):
        return where
    if len(where) > PATH_MAX:  # no folder is that deep: reading it on cost each `cd` more
        return ""  # (110k `cd a && ` took seconds); unknown, as for `cd "$DIR"`
    joined = _up(where, target.rstrip("/"))
    return where if joined is None else joined


def _up(where: str, path: str) -> str | None:
    """`path` read from the folder `where` (both relative to the project root), `..` and `.`
    resolved; None when it climbs out of the project."""
    parts = [p for p in where.split("/") if p]
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(part)
    return "/".join(parts) + ("/" if path.endswith("/") and parts else "")


def _rebased(m: re.Match, where: str) -> str:
    if where.startswith("/"):  # outside the project: an absolute path no rule of it governs
        return os.path.normpath(f"{where}/{m.group(0)}") + ("/" if m.group(0).endswith("/") else "")
    if m.group(1) is None:
        return f"{where}/{m.group(0)}" if where else m.group(0)
    joined = _up(where, m.group(0))
    return m.group(0) if joined is None or not joined else joined


def _under(segment: str, where: str) -> str:
    """`segment` with its unquoted relative paths under `where`."""
    if not where:
        return segment
    parts = []
    pos = 0
    for q in _QUOTED.finditer(segment):
        parts.append(_PATHISH.sub(lambda m: _rebased(m, where), segment[pos : q.start()]))
        parts.append(q.group(0))
        pos = q.end()
    parts.append(_PATHISH.sub(lambda m: _rebased(m, where), segment[pos:]))
    return "".join(parts)
