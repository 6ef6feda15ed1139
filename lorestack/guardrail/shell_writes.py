"""What a shell command does to a path it names: writes it, or moves it away.

Under a freeze of a folder ("Nothing new under migrations/archive/", "No changes to
third_party/") no add or change verb governs the path in `mv 0413.sql migrations/archive/`,
yet the command puts a file there. A redirect (`>`, `>>`), `tee` or `touch` before the path
writes it; the last argument of `mv`, `cp`, `rsync`, `install`, `ln`, `scp` or `git mv` is
where something goes; the other arguments of a move, and the operands of `rm`, `git rm`,
`sed -i` or `perl -i`, are changed where they are (moved or removed from there, or edited in
place). A copy's sources are only read.
"""

from __future__ import annotations

import re

_REDIRECT = re.compile(r"(?:>>?|\btee(?:\s+-a)?|\btouch)\s*$")
_SEGMENT_BREAK = re.compile(r"&&|\|\||[;|\n()]")
_COPIERS = frozenset(("mv", "cp", "rsync", "install", "ln", "scp", "git mv"))
_MOVERS = frozenset(("mv", "git mv"))
_REMOVERS = frozenset(("rm", "git rm", "rmdir", "unlink", "truncate"))
_IN_PLACE = frozenset(("sed", "perl"))
_PREFIXES = frozenset(("sudo", "command", "exec", "nohup", "time", "env"))


def _command(words: list[str]) -> tuple[str, list[str]]:
    """(command name, its arguments) of one simple command's words."""
    i = 0
    while i < len(words) and (words[i] in _PREFIXES or re.fullmatch(r"\w+=\S*", words[i])):
        i += 1
    if i >= len(words):
        return "", []
    name = words[i].rsplit("/", 1)[-1]
    if name == "git" and i + 1 < len(words):
        return f"git {words[i + 1]}", words[i + 2 :]
    return name, words[i + 1 :]


def _operands_at(text: str, start: int) -> tuple[str, list[str], list[tuple[int, str]], list[int]]:
    """(command name, its arguments, its operands as (position, word), the indexes of the
    operands the word at `start` is in) of the simple command around `start`."""
    begin = max((m.end() for m in _SEGMENT_BREAK.finditer(text, 0, start)), default=0)
    stop = _SEGMENT_BREAK.search(text, start)
    segment = text[begin : stop.start() if stop else len(text)]
    spans = [
        (m.start() + begin + len(m.group(0)) - len(m.group(0).lstrip("'\"")), m.group(0).strip("'\""))
        for m in re.finditer(r"\S+", segment)
    ]
    name, args = _command([w for _, w in spans])
    if not name:
        return "", [], [], []
    operands = [(pos, w) for pos, w in spans[len(spans) - len(args):] if not w.startswith("-")]
    mine = [k for k, (pos, word) in enumerate(operands) if pos <= start < pos + max(len(word), 1)]
    return name, args, operands, mine


def moved_from(text: str, start: int) -> list[str]:
    """The sources of the move (`mv`, `git mv`) whose destination is the word at `start`;
    [] when it is no move's destination. A file renamed inside a folder is no new file there."""
    if _REDIRECT.search(text, 0, start):
        return []
    name, _, operands, mine = _operands_at(text, start)
    if name not in _MOVERS or len(operands) < 2 or mine != [len(operands) - 1]:
        return []
    return [word for _, word in operands[:-1]]


def shell_effect(text: str, start: int, *, commands: bool = True) -> str:
    """What the command around character `start` does to the word that begins there:
    'written' (created or written: a redirect, `tee`, `touch`, where a move or copy puts
    it), 'changed' (moved away, removed, edited in place) or '' (read, or not a command).
    `commands=False` (prose): only a redirect, `tee` or `touch` right before it counts."""
    if _REDIRECT.search(text, 0, start):
        return "written"
    if not commands:
        return ""
    name, args, operands, mine = _operands_at(text, start)
    if not mine:
        return ""
    last = mine[0] == len(operands) - 1
    if name in _COPIERS and len(operands) >= 2:
        if last:
            return "written"
        return "changed" if name in _MOVERS else ""
    if name in _REMOVERS or (name in _IN_PLACE and any(a.startswith("-") and "i" in a
                                                        for a in args)):
        return "changed"
    return ""
