"""Rules on the files of a folder ("Never delete files under fixtures/golden/", "Never rename
or move files in sdk/"): what a change does to them that no verb of the rule names.

- A file moved out of the folder is gone from there: `mv X/a /tmp/`, `git mv X/a archive/`,
  a diff's `rename from X/a` / `rename to archive/a` meet a rule on deleting there (a rename
  inside the folder keeps the file there), and any rename meets a rule on moving.
- A deletion whose operand is the folder's parent or the project root (`grep -rl x . |
  xargs rm`, `find . -name '*.tmp' -delete`) may reach the folder: the rule applies,
  undecided.
- A command whose every path lies outside the folder (`rm -rf build/`) cannot touch it: it is
  not asked about by meaning.
- Likewise a change under any rule whose every forbidden thing is a folder or a file (a
  freeze, "gen/ is read-only", "Move from setup.py to pyproject.toml"): a diff or a command
  whose every path is named and lies outside them (`outside_files`, twenty-third session).

Twenty-first session (issue 22): the first two passed in silence, the third was "applies,
undecided" by meaning.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lorestack.guardrail.globs import glob_matches, normalise_path
from lorestack.guardrail.shell_writes import move_destination, removes


def moved_out(prepared, gate: str, glob: str | None, hit) -> bool:
    """Is the file of this path hit moved or renamed away from where the rule keeps it?
    `removed`: moved out of the folder; `moved`: renamed or moved anywhere."""
    if gate not in ("removed", "moved") or not glob or not hit.quoted:
        return False
    folder = _folder(glob)  # a one-folder glob matches at any depth (globs.py); a move is
    # read where the rule names it (a rename in tests/sdk/ is none under a rule on sdk/: no
    # guess blocks); the folder itself moved (`mv fixtures/golden /tmp/`) takes its files
    if folder and not (hit.quoted.rstrip("/") + "/").startswith(folder + "/"):
        return False
    if prepared.change or hit.start < 0:
        target = dict(prepared.moved).get(hit.quoted)
    elif prepared.code:
        target = move_destination(prepared.text, hit.start) or _moved_by_code(prepared.text, hit.start)
    else:
        return False
    if target is None:
        return False
    return gate == "moved" or not glob_matches(glob, normalise_path(target).rstrip("/") + "/x")


# what names paths only when it runs: a variable, a wildcard, a list read from a file
_UNNAMED = re.compile(r"[$*?`]|--files-from|(?<![<\d])<(?![<(])")
# commands whose output lists files inside the paths they are given (`grep -rl x docs/ |
# xargs rm` deletes in docs/ only); any other command's output is a list from elsewhere
_LISTERS = frozenset(("find", "grep", "rg", "ls", "fd", "git"))


def _names_at_run_time(text: str) -> bool:
    """Does the command take the paths it acts on from what it reads at run time (`xargs rm <
    /tmp/stale.txt`, `cat stale.txt | xargs rm`)? rguard21: both were judged by their one
    path, /tmp/stale.txt, and passed in silence where they had been asked by meaning."""
    if _UNNAMED.search(text):
        return True
    stages = [s.split() for line in text.splitlines() for s in re.split(r"(?<!\|)\|(?!\|)", line)[:-1]]
    return any(not words or words[0] not in _LISTERS for words in stages)


# a script's move: `shutil.move('X/a', '/tmp/')`, `os.rename("X/a", "b")`, `os.replace(…)`
_CODE_MOVE = re.compile(r"""\b(?:shutil\.move|os\.rename|os\.replace)\(\s*[rbf]?(['"])([^'"]+)\1\s*,"""
                        r"""\s*[rbf]?(['"])([^'"]+)\3""")


def _moved_by_code(text: str, start: int) -> str | None:
    """Where a script's move whose source begins at `start` puts it, else None (rguard21:
    `python -c "import shutil; shutil.move('fixtures/golden/a.png', '/tmp/')"` passed)."""
    for m in _CODE_MOVE.finditer(text):
        if m.start(2) <= start < m.end(2):
            return m.group(4)
    return None


def _folder(glob: str) -> str | None:
    """The folder of a `X/**` glob, else None."""
    return glob[:-3].rstrip("/") if glob.endswith("/**") and "*" not in glob[:-3] else None


def _above(word: str, folders: Sequence[str]) -> bool:
    """Is `word` the project root or a folder holding one of `folders`?"""
    base = normalise_path(word.strip("'\"")).rstrip("/")
    if base in ("", "."):
        return word.strip("'\"") in (".", "./")
    return any(f.startswith(base + "/") for f in folders)


def removal_above(text: str, globs: Sequence[str]) -> str:
    """The command line deleting at the root or a parent of a kept folder (`rm .` that
    `grep -rl x . | xargs rm` unwraps to, `find . … -delete`), else ''."""
    folders = [f for f in (_folder(g) for g in globs) if f]
    if not folders:
        return ""
    for m in re.finditer(r"\S+", text):
        if _above(m.group(0), folders) and removes(text, m.start()):
            begin = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.start())
            return text[begin : end if end >= 0 else len(text)].strip()
    return ""


def all_outside(paths: Sequence[str], globs: Sequence[str], text: str) -> bool:
    """Does a command name paths, every one outside each kept folder and above none of them
    (`rm -rf build/` under a rule on fixtures/golden/)? A variable, a wildcard or a list of
    paths read at run time (`xargs rm < stale.txt`, `tar --files-from`) may be anywhere:
    then no."""
    folders = [_folder(g) for g in globs]
    if not paths or not folders or None in folders or _names_at_run_time(text):
        return False
    return not any(
        glob_matches(g, p) or glob_matches(g, p.rstrip("/") + "/x") or _above(p, folders)  # type: ignore[arg-type]
        for g in globs for p in paths
    )


_FILE = re.compile(r"[^*?\[\]/][^*?\[\]]*\.[A-Za-z0-9]+")  # setup.py, config/settings.py, .env


def outside_files(paths: Sequence[str], globs: Sequence[str], text: str) -> bool:
    """`all_outside` for folders (`X/**`) and single files (`setup.py`, `config/settings.py`)
    alike: every path named, none matching, inside or above one of them. Any other glob (a
    wildcard, a path drafted from a URL such as `/v1`) may be anywhere: then no."""
    if not globs or not all(_folder(g) or _FILE.fullmatch(g) for g in globs):
        return False
    if not paths or _names_at_run_time(text):
        return False
    folders = [_folder(g) or g.rpartition("/")[0] for g in globs]
    if _unsure_words(text, [f for f in folders if f]):
        return False
    return not any(
        glob_matches(g, p) or glob_matches(g, p.rstrip("/") + "/x")
        or _above(p, [f for f in folders if f]) or (not all(folders) and _root(p))
        for g in globs for p in paths
    )


def _unsure_words(text: str, folders: Sequence[str]) -> bool:
    """Does the command name a guarded folder's parent in a word the path reader may not
    have taken for a path (`tar xzf gen.tgz -C clients`, `cd clients && touch gen/x.py`),
    or a path through '..' (`touch ../repo/clients/gen/x.py`)? Then not every path is known
    (review of the twenty-third session)."""
    for m in re.finditer(r"\S+", text):
        for word in m.group(0).strip("'\"();&|<>").split("="):
            if ".." in word.split("/") or (folders and _above(word, folders)
                                          and word.strip("'\"") not in (".", "./")):
                return True
    return False


def _root(word: str) -> bool:
    """The project root itself (a file at the root is below it)."""
    return word.strip("'\"") in (".", "./")
