"""Helpers for anchors that read a path as the repository names it, find where a symbol went
when git can no longer say, and say what changed under a glob."""

from __future__ import annotations

import fnmatch
import hashlib
import os
import posixpath
import re
from pathlib import Path

from lorestack.core.git import git_try
from lorestack.memory_layers.secret_guard import has_secret

MAX_SYMBOL_CANDIDATES = 40  # files read to find a moved symbol (those naming it, same name first)
SHOWN_NAMES = 3  # files a changed glob names before "and N more"
_FILE_END = re.compile(r"\.[A-Za-z0-9]{1,8}$")


def repo_path(repo: Path, path: str) -> str:
    """`path` as a repository path: `src//a.py` and `src/x/../a.py` are `src/a.py`, and an
    absolute path inside the repository (as written: a link is not followed) is relative to
    its top. Anchors written before they were kept so are read this way too."""
    if not path or not (path[0] == "/" or "//" in path or "/." in path or path[0] == "."):
        return path  # already a repository path (most anchors): the hook reads many
    out = posixpath.normpath(path)
    if posixpath.isabs(out):
        top = Path(os.path.normpath(repo)).as_posix().rstrip("/")
        if out.startswith(top + "/"):
            out = out[len(top) + 1:]
    return out


def symbol_print(lines: list[str] | None) -> str:
    """A symbol's fingerprint from its lines ("" when the file does not define it)."""
    if lines is None:
        return ""
    return "sym:" + hashlib.sha1("\n".join(line.rstrip() for line in lines).encode()).hexdigest()


def glob_print(pairs: dict[str, str | None]) -> str | None:
    """A glob's fingerprint over the files it matches and theirs (None when it matches none)."""
    parts = [f"{f}={pairs[f]}" for f in sorted(pairs)]
    return "glob:" + hashlib.sha1("\n".join(parts).encode()).hexdigest() if pairs else None


def moved_symbol(repo: Path, symbol: str, then: str, path: str, lines_of,
                 defines: str) -> str | None:
    """The file (not `path`, not ignored) defining `symbol` with the pinned content `then`. One
    `git grep` for the word; only files where a line holding it defines it (`defines`, a
    pattern with `{name}`) are read, those with `path`'s name first."""
    # untracked files too: code cut into a new file is often not added yet
    out = git_try(repo, "grep", "--untracked", "-z", "-w", "-F", "-e", symbol, "--", timeout=5)
    define = re.compile(defines.format(name=re.escape(symbol)))
    files: dict[str, None] = {}
    for line in out.split("\n"):
        name, _, text = line.partition("\0")
        if name and name != path and name not in files and define.search(text):
            files[name] = None
    base = posixpath.basename(path)
    hits = sorted(files, key=lambda f: posixpath.basename(f) != base)
    for name in hits[:MAX_SYMBOL_CANDIDATES]:
        try:
            text = (repo / name).read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        if symbol_print(lines_of(text, symbol)) == then:
            return name
    return None


def remembered_move(index, key: str, then: str, find, holds) -> str | None:
    """`find()` (where the code pinned as `then` went), kept in the index's cache: a file found
    is trusted while it `holds` that code; "not found" while git's index file is unchanged (a
    checkout, a commit or an add rewrites it). So a hook does not search on every look. Code
    pasted into a file after that "not found" rewrites no git index: the user's own look
    (`index.look_again`) searches again, and its answer is kept for the hooks."""
    stamp = _git_index_stamp(index.repo)
    hit = index._cache.get("moved:" + key)
    if hit and hit[0] == then:
        if hit[1] and holds(hit[1]):
            return hit[1]
        if not hit[1] and stamp and hit[2] == stamp and not index.look_again:
            return None
    found = find()
    if not has_secret(key):  # a path named after a key is never kept
        index._cache["moved:" + key] = [then, found, stamp]
        index._dirty = True
    return found


def _git_index_stamp(repo: Path) -> str:
    try:
        st = (repo / ".git" / "index").stat()
    except OSError:  # a worktree's or submodule's .git is a file: no stamp, no "not found" kept
        return ""
    return f"{st.st_size}:{st.st_mtime_ns}"


def glob_change(repo: Path, pattern: str, old: str, commit: str,
                now: dict[str, str | None]) -> str:
    """Which files under a changed glob changed, were added or removed since `commit`, when the
    files it matched there are what the item pinned; else how many it matches now."""
    now = {f: fp for f, fp in now.items() if fp is not None}  # a deleted file git still tracks
    then: dict[str, str | None] = {}
    if commit:  # only the folder before the first wildcard is listed
        top = re.split(r"[*?\[]", pattern, maxsplit=1)[0].rpartition("/")[0]
        for rec in git_try(repo, "ls-tree", "-r", "-z", commit, "--", *([top] if top else []),
                           timeout=5).split("\0"):
            meta, _, name = rec.partition("\t")
            if name and fnmatch.fnmatchcase(name, pattern) and len(meta.split()) == 3:
                then[name] = meta.split()[2]
    if not then or glob_print(then) != old:
        return f"{len(now)} file{'s match' if len(now) != 1 else ' matches'} it now"
    said = [f"{f} changed" for f in sorted(then.keys() & now.keys()) if then[f] != now[f]]
    said += [f"{f} removed" for f in sorted(then.keys() - now.keys())]
    said += [f"{f} added" for f in sorted(now.keys() - then.keys())]
    more = len(said) - SHOWN_NAMES
    return ", ".join(said[:SHOWN_NAMES]) + (f" and {more} more" if more > 0 else "")


def defined_in(repo: Path, grep_defines: str, name: str) -> str | None:
    """The one tracked file that defines `name` (`grep_defines`: its definition as a
    `git grep -E` pattern), if exactly one does."""
    out = git_try(repo, "grep", "-l", "-E", "-e", grep_defines.format(name=name), "--", timeout=5)
    hits = [h for h in out.splitlines() if h]
    return hits[0] if len(hits) == 1 else None


def about_form_error(spec: str, defined_in) -> str | None:
    """What is missing from `--about :NAME` or `--about FILE:`, or wrong with the symbol in
    `FILE:get_*` or `FILE:Class.method` (None for any other form); `defined_in(name)` is the one tracked file defining a name, or None."""
    if spec.startswith(":") and len(spec) > 1:
        name = spec[1:]
        where = defined_in(name) if name.isidentifier() else None
        hint = f" ({where} defines it: '{where}:{name}')" if where else ""
        return (f"'{spec}' names no file: an anchor on a symbol is FILE:{name}, the file that "
                f"defines it{hint}")
    if spec.endswith(":") and spec.strip(":"):
        path = spec.rstrip(":")
        return (f"'{spec}' names no symbol after the ':': give '{path}' for the whole file, or "
                f"'{path}:NAME' for one function, class or constant in it")
    if spec.strip() == ":":
        return "':' names no file and no symbol: give a file, a glob or FILE:SYMBOL"
    path, _, name = spec.rpartition(":")
    # only after a file's name (`a.py:x`, `src/*.py:x`): `docs/a:b.md` or `C:/x` is a path
    if not path or "/" in name or re.fullmatch(r"[A-Za-z_]\w*", name) or not (
            _FILE_END.search(path) or set("*?[") & set(path)):
        return None
    whole = f"or '{path}' for the whole file"
    if set("*?[") & set(name) or name.endswith(".*"):
        return (f"'{spec}': a symbol is one name, not a pattern; give '{path}:NAME' for one "
                f"function, class or constant, {whole} (a glob names files, not symbols)")
    last = re.findall(r"[A-Za-z_]\w*", name)
    plain = f"'{path}:{last[-1]}'" if last else f"'{path}:NAME'"
    return (f"'{name}' after the ':' is not a name as the code spells it; give {plain} (a "
            f"method by its own name), {whole}")


def without_call_parens(spec: str) -> str:
    """`a.py:handler(` or `a.py:handler(event)` as people copy a call: `a.py:handler`."""
    found = re.fullmatch(r"(.+:[A-Za-z_]\w*)\s*\([^/:]*\)?\s*", spec)
    return found.group(1) if found else spec
