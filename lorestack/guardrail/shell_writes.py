"""What a shell command does to a path it names: writes it, or moves it away.

Under a freeze of a folder ("Nothing new under migrations/archive/", "No changes to
third_party/") no add or change verb governs the path in `mv 0413.sql migrations/archive/`,
yet the command puts a file there. A redirect (`>`, `>>`), `tee` or `touch` before the path
writes it; the last argument of `mv`, `cp`, `rsync`, `install`, `ln`, `scp` or `git mv` is
where something goes; the other arguments of a move, and the operands of `rm`, `git rm`,
`sed -i` or `perl -i`, are changed where they are (moved or removed from there, or edited in
place). A copy's sources are only read. A flag may name the destination instead (`mv -t DIR`,
`cp --target-directory=DIR`, `tar x… -C DIR`, `unzip -d DIR`), and `git checkout REF -- PATH`
or `git restore --source=REF PATH` writes PATH from another commit.
"""

from __future__ import annotations

import re

_REDIRECT = re.compile(r"(?:>>?|\btee(?:\s+-a)?|\btouch)\s*$")
# one shell word: a quoted part keeps its spaces ("lib/helpers/my dates.py")
_WORD = re.compile(r"""(?:'[^'\n]*'|"[^"\n]*"|[^\s'"])+""")
_SEGMENT_BREAK = re.compile(r"&&|\|\||[;|\n()]")
_COPIERS = frozenset(("mv", "cp", "rsync", "install", "ln", "scp", "git mv"))
_MOVERS = frozenset(("mv", "git mv"))
_REMOVERS = frozenset(("rm", "git rm", "rmdir", "unlink", "truncate"))
_IN_PLACE = frozenset(("sed", "perl"))
_TARGETED = frozenset(("mv", "cp", "ln", "install"))  # `-t DIR`: where the files go
_TARGET_FLAG = re.compile(r"(?:^|\s)(?:-t|--target-directory)(?:=|\s+)$")
_EXTRACTORS = frozenset(("tar", "bsdtar", "unzip"))
_EXTRACT_FLAG = re.compile(r"(?:^|\s)(?:-C|--directory|-d)(?:=|\s+)$")
_RESTORERS = frozenset(("git checkout", "git restore"))
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
        for m in _WORD.finditer(segment)
    ]
    # `< list.txt` feeds the command; it is none of its operands
    spans = [sp for k, sp in enumerate(spans) if sp[1] != "<" and (k == 0 or spans[k - 1][1] != "<")]
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


def _flagged(name: str, args: list[str], before: str) -> str | None:
    """Where a flag names the destination (`mv -t DIR`, `cp --target-directory=DIR`, `tar x…
    -C DIR`, `unzip -d DIR`): 'written' for it, and for a move so flagged 'changed' for its
    sources ('' for a copy's); None when no such flag is in play."""
    if name in _TARGETED and any(a == "-t" or a.startswith("--target-directory") for a in args):
        return "written" if _TARGET_FLAG.search(before) else ("changed" if name in _MOVERS else "")
    if name in _EXTRACTORS and _EXTRACT_FLAG.search(before) and (
        name == "unzip" or "--extract" in args
        or any(re.fullmatch(r"-?[A-Za-z]*x[A-Za-z]*", a) for a in args[:1])
        or any(re.fullmatch(r"-[A-Za-z]*x[A-Za-z]*", a) for a in args)
    ):
        return "written"
    return None


def _restored_from(name: str, args: list[str]) -> int | None:
    """`git checkout REF -- PATH…`, `git restore --source=REF PATH…`: how many operands come
    before the paths it writes from another commit; None when it only puts back what is
    committed (`git checkout -- PATH`, `git restore PATH`)."""
    if name == "git checkout" and "--" in args:
        refs = [a for a in args[: args.index("--")] if not a.startswith("-")]
        return len(refs) if refs else None
    if name == "git restore" and any(a.startswith("--source=") for a in args):
        return 0
    if name == "git restore" and any(a in ("-s", "--source") for a in args):
        return 1
    return None


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
    flagged = _flagged(name, args, text[max(0, start - 40) : start])
    if flagged is not None:
        return flagged
    if not mine:
        return ""
    if name in _RESTORERS:
        skip = _restored_from(name, args)
        return "written" if skip is not None and mine[0] >= skip else ""
    last = mine[0] == len(operands) - 1
    if name in _COPIERS and len(operands) >= 2:
        if last:
            return "written"
        return "changed" if name in _MOVERS else ""
    if name in _REMOVERS or (name in _IN_PLACE and any(a.startswith("-") and "i" in a
                                                        for a in args)):
        return "changed"
    return ""


# a committed template a set-up step copies: `.env.example`, `config.sample.yml`, `app.env.dist`
_TEMPLATE = re.compile(r"(?i)[._-](?:example|sample|template|tmpl|dist|defaults?)(?:\.\w+)?$")


def copies_template(text: str, start: int) -> bool:
    """Is the word at `start` where a copy (`cp`, `install`) puts committed templates only
    (`cp .env.example .env`)? The copy holds what the project already has: nothing new
    (twenty-second session: it blocked "Move secrets from .env files to the vault")."""
    name, _, operands, mine = _operands_at(text, start)
    if name not in ("cp", "install") or len(operands) < 2 or mine != [len(operands) - 1]:
        return False
    return all(_TEMPLATE.search(word.rstrip("/").rsplit("/", 1)[-1]) for _, word in operands[:-1])


def moves_away(text: str, start: int) -> bool:
    """Is the word at `start` a source of a move (`mv`, `git mv`): renamed or moved from there?"""
    name, args, operands, mine = _operands_at(text, start)
    if name not in _MOVERS or not mine:
        return False
    if any(a == "-t" or a.startswith("--target-directory") for a in args):
        return _flagged(name, args, text[max(0, start - 40) : start]) == "changed"
    return len(operands) >= 2 and mine[0] < len(operands) - 1


def move_destination(text: str, start: int) -> str | None:
    """Where the move (`mv`, `git mv`) whose source is the word at `start` puts it (its last
    operand, or its `-t DIR`); None when the word is no move's source."""
    if not moves_away(text, start):
        return None
    name, args, operands, _ = _operands_at(text, start)
    for k, a in enumerate(args):
        if a.startswith("--target-directory="):
            return a.split("=", 1)[1]
        if a in ("-t", "--target-directory") and k + 1 < len(args):
            return args[k + 1]
    return operands[-1][1]


# a path a script deletes: `python -c 'os.remove("x/a")'`, `shutil.rmtree('x')`, `fs.rmSync(…)`
_CODE_REMOVAL_BEFORE = re.compile(
    r"(?:\bos\.(?:remove|unlink|rmdir|removedirs)|\bshutil\.rmtree|\bfs\.(?:rm|unlink)"
    r"|\.(?:rmSync|unlinkSync|rmdirSync))\(\s*[rbf]?['\"]?$"
)
_CODE_REMOVAL_AFTER = re.compile(r"""^[^\s'")]*['"]?\s*\)\s*\.(?:unlink|rmdir)\(""")  # Path("x").unlink()


def removes(text: str, start: int) -> bool:
    """Does the command around `start` delete the word there (`rm`, `git rm`, `unlink`,
    `find DIR … -delete`, `git clean -f`, `rsync --remove-source-files`, `tar --remove-files`, or a script's `os.remove`, `shutil.rmtree`,
    `Path(…).unlink()`)?"""
    if _CODE_REMOVAL_BEFORE.search(text, max(0, start - 40), start) or _CODE_REMOVAL_AFTER.match(
            text[start : start + 200]):
        return True
    name, args, operands, mine = _operands_at(text, start)
    if name == "rsync" and any(a in ("--remove-source-files", "--remove-sent-files") for a in args):
        return bool(mine) and mine[0] < len(operands) - 1  # its sources, once copied
    if name == "tar" and "--remove-files" in args:  # what it archives, not the archive
        return bool(mine) and not re.search(r"(?:^|\s)(?:-\w*f|--file)[\s=]+['\"]?$", text[:start])
    if name == "find" and "-delete" in args:
        return bool(mine) and mine[0] == 0
    if name == "git clean":  # untracked files there deleted (`-n`: only listed)
        return bool(mine) and not any(a in ("-n", "--dry-run") or (
            not a.startswith("--") and a.startswith("-") and "n" in a) for a in args)
    return bool(mine) and name in _REMOVERS and name != "truncate"
