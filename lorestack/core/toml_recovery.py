"""What can still be read of a config.toml that is not valid TOML, table by table (for hooks).

A command stops on such a file with one line. A hook must not, and before this it left the
whole file out for one bad line, so a typo under `[loader]` also dropped `[guardrail]` and the
secret guard's settings, silently. Here the file is cut at its table headers (`[a]`, `[a.b]`,
`[[a]]`); each piece (the keys before the first header, dotted keys included, then each table)
is read alone with tomllib. In a piece that does not read, the line tomllib names is left out
and the piece read again, a few times; a piece that still does not read, or whose header is
the broken line, is left out whole. Each thing left out is one problem line naming the file,
the line and the table or key (never the line's text: it may hold a secret).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import tomllib

# a table header, or what was meant as one (`[retrieval.x` with its bracket missing); a line of
# a multi-line array (`  [1, 2],`) has a comma or an equals sign, and is not cut at
_HEADER = re.compile(r"^\s*\[\[?\s*([A-Za-z0-9_.\"' -]+?)\s*(\]\]?)?\s*(#.*)?$")
_AT_LINE = re.compile(r"\(at line (\d+), column \d+\)")
_KEY = re.compile(r"^\s*([A-Za-z0-9_.\"' -]+?)\s*=")
MAX_LINES_LEFT_OUT = 5  # per table; past that the table is left out whole
# sections whose loss changes what is protected: a notice says they run on shipped settings
GUARDS = {"guardrail": "the guardrail", "guard": "the secret guard"}


def recover(path: Path, text: str, error: BaseException) -> tuple[dict[str, Any], list[str]]:
    """(what reads, one problem line per thing left out) for a file tomllib refused."""
    data: dict[str, Any] = {}
    problems: list[str] = []
    for start, lines in _pieces(text.splitlines()):
        table = _table_name(lines[0])
        value, dropped = _read_piece(lines)
        where = f"[{table}]" if table else "the keys before any table"
        if value is None:
            problems.append(f"{path}: not valid TOML in {where} (lines {start}-"
                            f"{start + len(lines) - 1}); that table is left out"
                            + _guard_note(table, None))
            continue
        for offset, reason in dropped:
            key = _key_of(lines[offset], table)
            line = f"{path}: not valid TOML at line {start + offset} ({reason}); "
            after = [x for x in lines[offset + 1:] if x.strip() and not x.strip().startswith("#")]
            if _broken_header(lines[offset]) and after:
                meant = _table_name("[" + lines[offset].strip().strip("[]") + "]")
                problems.append(line + f"that line and the {len(after)} after it, up to the next "
                                "table, left out" + _guard_note(meant or table, None))
                continue
            problems.append(line + f"{'key ' + key if key else 'that line'} left out"
                            + _guard_note(table, key))
        clash = _merge(data, value)
        if clash:
            problems.append(f"{path}: {where} (line {start}) sets {clash} again; "
                            "left out" + _guard_note(table, clash))
    if not problems:  # every piece reads alone, yet the whole did not: say it, keep the rest
        problems.append(f"{path}: not valid TOML ({error}); read table by table")
    return data, problems


def _pieces(lines: list[str]) -> list[tuple[int, list[str]]]:
    """(first line number, lines) of the keys before any table, then of each table. A line
    inside a multi-line string is never taken for a header (`[guard]` quoted in a triple-quoted
    string is text, not the secret guard's table); one after an array left open is (the
    array's elements have commas; a bare `[a]` there was meant as a table)."""
    pieces: list[tuple[int, list[str]]] = []
    start, current = 1, list[str]()
    inside: _Open = _Open()
    for number, line in enumerate(lines, 1):
        if inside.quote is None and _HEADER.match(line) and current:
            pieces.append((start, current))
            start, current, inside = number, [], _Open()
        current.append(line)
        inside.read(line)
    if current:
        pieces.append((start, current))
    return [(s, p) for s, p in pieces if any(x.strip() and not x.strip().startswith("#")
                                            for x in p)]


_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'')


class _Open:
    """Whether a multi-line string or array is still open after the lines read so far."""

    def __init__(self) -> None:
        self.quote: str | None = None  # the open multi-line string's delimiter
        self.depth = 0  # open brackets of a multi-line array

    def open(self) -> bool:
        return self.quote is not None or self.depth > 0

    def read(self, line: str) -> None:
        rest = line
        while rest:
            if self.quote is not None:
                end = rest.find(self.quote)
                if end < 0:
                    return
                self.quote, rest = None, rest[end + 3:]
                continue
            starts = [(rest.find(q), q) for q in ('"""', "'''") if q in rest]
            head, _, tail = rest.partition("#") if not starts else (rest, "", "")
            if starts:
                at, quote = min(starts)
                head, tail = rest[:at], rest[at + 3:]
                self.quote = quote
            value = head.split("=", 1)[1] if "=" in head and not self.depth else head
            if "=" in head or self.depth:
                bare = _QUOTED.sub("", value)
                self.depth = max(0, self.depth + bare.count("[") - bare.count("]"))
            rest = tail if starts else ""


def _read_piece(lines: list[str]) -> tuple[dict[str, Any] | None, list[tuple[int, str]]]:
    """The piece read with its broken lines blanked out: (value or None, [(index, reason)])."""
    lines = list(lines)
    dropped: list[tuple[int, str]] = []
    for _ in range(MAX_LINES_LEFT_OUT + 1):
        try:
            return tomllib.loads("\n".join(lines) + "\n"), dropped
        except tomllib.TOMLDecodeError as exc:
            found = _AT_LINE.search(str(exc))
            # "at end of document": a value left open, most likely on the last line written
            index = int(found.group(1)) - 1 if found else _last_line(lines)
            if index <= 0 and _HEADER.match(lines[0]) or not 0 <= index < len(lines):
                return None, dropped  # the header itself, or no line named: the whole table
            if not lines[index].strip():
                return None, dropped  # e.g. a string or array left open above
            reason = _AT_LINE.sub("", str(exc)).replace("(at end of document)", "").strip()
            opener = _value_start(lines, index)
            if opener is not None:  # inside a multi-line array or string: the whole key goes
                # (a part of its value would be a value nobody wrote)
                end = next((n for n in range(index + 1, len(lines))
                            if _KEY.match(lines[n]) or _HEADER.match(lines[n])), len(lines))
                dropped.append((opener, reason))
                lines[opener:end] = [""] * (end - opener)
                continue
            dropped.append((index, reason))
            if _broken_header(lines[index]):  # `guardrail]`: the keys after it are another
                # table's, so they go too, not into this one
                lines[index:] = [""] * (len(lines) - index)
            else:
                lines[index] = ""
    return None, dropped


def _value_start(lines: list[str], index: int) -> int | None:
    """The key line whose multi-line value is still open at `index` (None: none is)."""
    inside, start = _Open(), None
    for number, line in enumerate(lines[:index]):
        if not inside.open():
            start = number if _KEY.match(line) else None
        inside.read(line)
    return start if inside.open() else None


def _broken_header(line: str) -> bool:
    """A line that is no key but has a bracket: a table header gone wrong."""
    return "=" not in line and ("[" in line or "]" in line)


def _last_line(lines: list[str]) -> int:
    filled = [n for n, line in enumerate(lines) if line.strip() and not line.strip()[0] == "#"]
    return filled[-1] if filled else -1


def _table_name(header: str) -> str | None:
    found = _HEADER.match(header)
    return "".join(found.group(1).split()) if found else None


def _key_of(line: str, table: str | None) -> str | None:
    found = _KEY.match(line)
    if not found:
        return None
    key = "".join(found.group(1).split())
    return f"{table}.{key}" if table else key


def _guard_note(table: str | None, key: str | None) -> str:
    """When what was left out belongs to the guardrail or the secret guard: they run on shipped
    settings for it."""
    section = (table or key or "").split(".")[0]
    who = GUARDS.get(section)
    if who is None:
        return ""
    what = key if key else f"[{table}]"
    return f"; {who} runs on shipped settings for {what}"


def _merge(into: dict[str, Any], value: dict[str, Any]) -> str | None:
    """Merge a piece into what was read; the first dotted key it sets again (None: merged)."""
    clash = _clash(into, value, "")
    if clash is None:
        _deep_merge(into, value)
    return clash


def _clash(into: dict[str, Any], value: dict[str, Any], prefix: str) -> str | None:
    for key, item in value.items():
        if key in into and not _tables(into[key], item):  # `[[a]]` again adds one to a
            if isinstance(into[key], dict) and isinstance(item, dict):
                clash = _clash(into[key], item, f"{prefix}{key}.")
                if clash:
                    return clash
            else:
                return f"{prefix}{key}"
    return None


def _tables(old: Any, new: Any) -> bool:
    """Both are arrays of tables (`[[a]]`): the new piece's tables go on the end."""
    return (isinstance(old, list) and isinstance(new, list)
            and all(isinstance(x, dict) for x in [*old, *new]))


def _deep_merge(into: dict[str, Any], value: dict[str, Any]) -> None:
    for key, item in value.items():
        if key in into and _tables(into[key], item):
            into[key].extend(item)
        elif isinstance(item, dict) and isinstance(into.get(key), dict):
            _deep_merge(into[key], item)
        else:
            into[key] = item
