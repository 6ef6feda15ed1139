"""Memory anchored to code: which files, globs and symbols an item is about, and whether that
code changed since the item was written.

An item's `anchors` (frontmatter) name what it is about: `src/users/repo.ts` (a file),
`src/users/repo.ts:getUserById` (a symbol in it) or `migrations/**/*.sql` (a glob). Its
`anchored` map records, per anchor, the fingerprint of that code when the item was written or
last confirmed: the git blob id of the file, a hash of the symbol's lines, or a hash over the
files a glob matches; `anchor_commit` is HEAD at that moment, so a rename can be followed.

Checking costs one `stat` per anchored file while nothing changed: fingerprints are cached by
(path, size, mtime) in `.memory/.index/anchors.json`. A changed anchor reports how many lines
changed when git still has the old blob; a deleted file or symbol, and a rename, are said so.
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lorestack.core.errors import LorestackError
from lorestack.core.git import git_try
from lorestack.memory_layers.anchor_paths import (
    glob_change,
    glob_print,
    moved_symbol,
    remembered_move,
    repo_path,
    symbol_print,
)
from lorestack.memory_layers.secret_guard import has_secret

if TYPE_CHECKING:
    from lorestack.memory_layers.models import MemoryItem

CACHE_NAME = "anchors.json"
MAX_SYMBOL_LOOKUPS = 3  # `git grep` calls one remember may make for the identifiers it names
_GLOB_CHARS = set("*?[")
# a path as people write it in a note: a/b.c, ./a/b, src/x.py:func (3+ chars, one dot or slash)
_PATH_TOKEN = re.compile(r"(?<![\w/.\-])((?:\.?/)?[\w.\-]+(?:/[\w.\-]+)*\.[A-Za-z0-9]{1,8}|"
                         r"[\w.\-]+(?:/[\w.\-]+)+/?)(?::([A-Za-z_]\w*))?")
_IDENTIFIER = re.compile(r"(?<![\w.])([A-Za-z_][A-Za-z0-9_]*(?:[A-Z][a-z0-9]+|_[a-z0-9]+)+)"
                         r"(?:\(\))?")
_DEFINES = (r"(?:^|\s)(?:async\s+)?(?:def|class|function\*?|func|fn|const|let|var|interface|type|"
            r"struct|enum|trait|impl|module)\s+{name}\b|^\s*(?:export\s+)?(?:public\s+|private\s+|"
            r"protected\s+|static\s+|async\s+)*{name}\s*[(=:]")

# the same definitions for `git grep -E` (POSIX classes, no look-arounds)
GREP_DEFINES = (r"(def|class|function|func|fn|const|let|var|interface|type|struct|enum|trait)"
                 r"[[:space:]]+{name}([^A-Za-z0-9_]|$)")


@dataclass(frozen=True)
class Anchor:
    path: str  # repository-relative, forward slashes; a glob when it has * ? [
    symbol: str = ""

    @property
    def is_glob(self) -> bool:
        return bool(_GLOB_CHARS & set(self.path))

    def __str__(self) -> str:
        return f"{self.path}:{self.symbol}" if self.symbol else self.path


@dataclass
class AnchorState:
    anchor: str
    # "ok" | "changed" | "deleted" | "symbol gone" | "renamed" | "moved" (a symbol) | "unpinned"
    state: str
    detail: str = ""  # "+3 -1 lines", "renamed to src/x.ts", "getUser moved to src/x.ts"


def parse(spec: str) -> Anchor:
    """`path[:symbol]` (a Windows drive letter or URL is not a symbol)."""
    spec = spec.strip().replace("\\", "/")
    while spec.startswith("./"):
        spec = spec[2:]
    path, sep, symbol = spec.rpartition(":")
    if sep and path and re.fullmatch(r"[A-Za-z_]\w*", symbol):
        return Anchor(path.rstrip("/"), symbol)
    return Anchor(spec.rstrip("/"))


def blob_id(data: bytes) -> str:
    """What `git hash-object` says for these bytes."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def symbol_lines(text: str, symbol: str) -> list[str] | None:
    """The lines that define `symbol`: from its definition to the end of its block (braces
    balanced, or the indentation closes it), or None when the file does not define it."""
    pattern = re.compile(_DEFINES.format(name=re.escape(symbol)))
    lines = text.splitlines()
    for start, line in enumerate(lines):
        if not pattern.search(line):
            continue
        indent = len(line) - len(line.lstrip())
        depth, opened, end = 0, False, start
        for end in range(start, len(lines)):
            depth += lines[end].count("{") - lines[end].count("}")
            opened = opened or "{" in lines[end]
            if opened and depth <= 0:
                break
            nxt = lines[end + 1] if end + 1 < len(lines) else ""
            if not opened and end > start and nxt.strip() and \
                    len(nxt) - len(nxt.lstrip()) <= indent and not nxt.lstrip().startswith((")", "]")):
                break
            if not opened and end == start and not line.rstrip().endswith((":", "(", ",", "{")):
                break  # a one-line definition
        block = lines[start:end + 1]
        while block and not block[-1].strip():
            block.pop()
        return block
    return None


class AnchorIndex:
    """Fingerprints of the anchored code in one repository, cached by (size, mtime)."""

    def __init__(self, repo: Path, cache_dir: Path | None = None, look_again: bool = False):
        self.repo = repo
        # a user's own look (`anchors`, `anchors accept`) searches again where the hooks keep
        # "not found" (remembered_move): code pasted elsewhere changes no git index
        self.look_again = look_again
        self.cache_path = cache_dir / CACHE_NAME if cache_dir else None
        self._cache: dict[str, list] = {}
        self._dirty = False
        self._files: list[str] | None = None
        if self.cache_path and self.cache_path.is_file():
            try:
                self._cache = json.loads(self.cache_path.read_text("utf-8"))
            except (OSError, ValueError):
                self._cache = {}

    def save(self) -> None:
        if self.cache_path and self._dirty:
            try:
                self.cache_path.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.cache_path.with_suffix(".tmp")
                tmp.write_text(json.dumps(self._cache), "utf-8")
                os.replace(tmp, self.cache_path)
            except OSError:
                pass  # a cache: the next check computes again
            self._dirty = False

    def anchor(self, spec: str) -> Anchor:
        """`spec` read as a repository path (an item written before anchors were kept so may
        say `/repo/src/a.py` or `src//a.py`; its file is left as it is)."""
        anchor = parse(spec)
        path = repo_path(self.repo, anchor.path)
        return anchor if path == anchor.path else Anchor(path, anchor.symbol)

    def files(self) -> list[str]:
        if self._files is None:
            out = git_try(self.repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
            self._files = [f for f in out.split("\0") if f]
        return self._files

    def _read(self, rel: str) -> bytes | None:
        try:
            return (self.repo / rel).read_bytes()
        except OSError:
            return None

    def fingerprint(self, anchor: Anchor) -> str | None:
        """The anchor's fingerprint now; None for a missing file, "" for a missing symbol."""
        if anchor.is_glob:
            matched = [f for f in self.files() if fnmatch.fnmatchcase(f, anchor.path)]
            return glob_print({f: self.fingerprint(Anchor(f)) for f in matched})
        try:
            st = (self.repo / anchor.path).stat()
        except OSError:
            return None
        key = str(anchor)
        hit = self._cache.get(key)
        if hit and hit[0] == st.st_size and hit[1] == st.st_mtime_ns:
            return hit[2]
        data = self._read(anchor.path)
        if data is None:
            return None
        if anchor.symbol:
            value = symbol_print(symbol_lines(data.decode("utf-8", "replace"), anchor.symbol))
        else:
            value = blob_id(data)
        if not has_secret(key):  # a file named after a key: computed each time, never kept
            self._cache[key] = [st.st_size, st.st_mtime_ns, value]
            self._dirty = True
        return value

    def pin(self, specs: list[str]) -> dict:
        """Frontmatter fields that anchor an item to the code as it is now."""
        anchored = {}
        for spec in specs:
            fp = self.fingerprint(self.anchor(spec))
            if fp:
                anchored[str(self.anchor(spec))] = fp
        head = git_try(self.repo, "rev-parse", "HEAD")
        return {"anchored": anchored, **({"anchor_commit": head} if head else {})}

    def _old_text(self, anchor: Anchor, old: str) -> str | None:
        """The anchored code as it was, when git still has it (a committed blob)."""
        if anchor.symbol or anchor.is_glob or old.startswith(("sym:", "glob:")):
            return None
        out = git_try(self.repo, "cat-file", "-p", old, timeout=5)
        return out if out else None

    def _renamed(self, path: str, commit: str, then: str = "", symbol: str = "") -> str | None:
        """Where git saw `path` renamed since `commit`; when that commit has left the history
        (a squash, a rebase), the tracked file holding the pinned content (`then`: the file's
        blob, or the symbol's lines), if any."""
        if commit:
            out = git_try(self.repo, "diff", "-M", "--name-status", commit, "--", timeout=10)
            for line in out.splitlines():
                parts = line.split("\t")
                if len(parts) == 3 and parts[0].startswith("R") and parts[1] == path:
                    return parts[2]
            if out or git_try(self.repo, "cat-file", "-t", commit, timeout=5) == "commit":
                return None
        if symbol:
            return self.symbol_moved(Anchor(path, symbol), then)
        if then and not then.startswith(("sym:", "glob:")):  # a whole file's blob id
            for line in git_try(self.repo, "ls-files", "-s", timeout=10).splitlines():
                meta, _, name = line.partition("\t")
                if meta.split()[1:2] == [then] and name != path:
                    return name
        return None

    def symbol_moved(self, anchor: Anchor, then: str) -> str | None:
        """The file (not the anchor's own) now defining the symbol with its pinned lines
        (`then`); one `git grep`, its answer kept in anchors.json (remembered_move)."""
        if not then.startswith("sym:"):
            return None
        return remembered_move(self, str(anchor), then, lambda: moved_symbol(
            self.repo, anchor.symbol, then, anchor.path, symbol_lines, _DEFINES),
            lambda name: self.fingerprint(Anchor(name, anchor.symbol)) == then)

    def check(self, anchors: list[str], anchored: dict, commit: str = "") -> list[AnchorState]:
        """The state of each anchor against what the item recorded."""
        out = []
        for spec in anchors:
            anchor = self.anchor(spec)
            key = str(anchor)
            then = anchored.get(key, anchored.get(str(parse(spec))))
            now = self.fingerprint(anchor)
            if then is None:  # never pinned (typed by hand, or a glob that matched nothing)
                out.append(AnchorState(key, "unpinned" if now or anchor.is_glob else "deleted"))
            elif now is None:
                moved = None if anchor.is_glob else self._renamed(anchor.path, commit, then,
                                                                  anchor.symbol)
                if moved:
                    out.append(AnchorState(key, "renamed", f"renamed to {moved}"))
                else:
                    out.append(AnchorState(key, "deleted", "no file matches" if anchor.is_glob
                                           else "the file is gone"))
            elif now == "" and (moved := self.symbol_moved(anchor, then)):
                out.append(AnchorState(key, "moved", f"{anchor.symbol} moved to {moved}"))
            elif now == "":
                out.append(AnchorState(key, "symbol gone", f"{anchor.symbol} is no longer "
                                       f"defined in {anchor.path}"))
            elif now != then:
                out.append(AnchorState(key, "changed", self._change_size(anchor, then, commit)))
            else:
                out.append(AnchorState(key, "ok"))
        return out

    def _change_size(self, anchor: Anchor, old: str, commit: str = "") -> str:
        if anchor.is_glob:  # which files it matches changed, came or went
            return glob_change(self.repo, anchor.path, old, commit, {
                f: self.fingerprint(Anchor(f)) for f in self.files()
                if fnmatch.fnmatchcase(f, anchor.path)})
        before = self._old_text(anchor, old)
        data = self._read(anchor.path)
        if anchor.symbol and commit and data is not None:
            # the symbol as the anchor's commit had it, when that is what the item pinned
            then = git_try(self.repo, "show", f"{commit}:{anchor.path}", timeout=5)
            lines = symbol_lines(then, anchor.symbol) if then else None
            if lines is not None and symbol_print(lines) == old:
                before = "\n".join(lines)
                data = "\n".join(symbol_lines(data.decode("utf-8", "replace"), anchor.symbol)
                                 or []).encode()
        now = data
        if before is None or now is None:
            return "changed"
        added = removed = 0
        for line in difflib.unified_diff(before.splitlines(), now.decode("utf-8", "replace")
                                         .splitlines(), lineterm="", n=0):
            if line.startswith("+") and not line.startswith("+++"):
                added += 1
            elif line.startswith("-") and not line.startswith("---"):
                removed += 1
        return f"+{added} -{removed} lines"

    def propose(self, text: str) -> list[str]:
        """Paths (and path:symbol) the text names that exist in the repository, and symbols it
        names that exactly one tracked file defines."""
        files = self.files()
        known = set(files)
        dirs = {f.rsplit("/", 1)[0] for f in files if "/" in f}
        found: list[str] = []
        for m in _PATH_TOKEN.finditer(text):
            path = m.group(1).lstrip("./") if m.group(1).startswith("./") else m.group(1)
            path = path.rstrip("/")
            if path in known or path in dirs:
                spec = f"{path}:{m.group(2)}" if m.group(2) and path in known else (
                    path if path in known else path + "/**")
                if spec not in found:
                    found.append(spec)
        named = {str(parse(s).path) for s in found}
        names = list(dict.fromkeys(m.group(1) for m in _IDENTIFIER.finditer(text)))
        for name in names[:MAX_SYMBOL_LOOKUPS] if files else []:
            if any(name in s for s in found):
                continue
            out = git_try(self.repo, "grep", "-l", "-E", "-e", GREP_DEFINES.format(name=name),
                          "--", timeout=5)
            hits = [h for h in out.splitlines() if h]
            if len(hits) != 1 or f"{hits[0]}:{name}" in found:
                continue
            if hits[0] in named:  # "assign_role in src/users/roles.py": the symbol, narrower
                found = [f"{hits[0]}:{name}" if f == hits[0] else f for f in found]
            else:
                found.append(f"{hits[0]}:{name}")
        return found

    def about(self, anchors: list[str], path: str) -> bool:
        """Whether an item with these anchors is about the file at `path`."""
        rel = path.replace("\\", "/").lstrip("./") if not path.startswith("../") else path
        for spec in anchors:
            anchor = self.anchor(spec)
            if anchor.path == rel or (anchor.is_glob and fnmatch.fnmatchcase(rel, anchor.path)):
                return True
            if anchor.path.endswith("/**") and rel.startswith(anchor.path[:-2]):
                return True
        return False


def relative(repo: Path, path: str) -> str:
    """`path` (absolute, or relative to the repository) as a repository-relative path."""
    p = Path(path)
    if p.is_absolute():
        try:
            return p.resolve().relative_to(repo.resolve()).as_posix()
        except ValueError:
            return p.as_posix()
    return p.as_posix().removeprefix("./")


def stale_states(states: list[AnchorState]) -> list[AnchorState]:
    return [s for s in states if s.state not in ("ok", "unpinned")]


def index_for(mem, look_again: bool = False) -> AnchorIndex | None:
    """The anchor index of the memory's repository (None without a project memory);
    `look_again`: a moved symbol is searched for again, not read as kept "not found"."""
    project = getattr(mem, "project", None)
    if project is None:
        return None
    return AnchorIndex(project.repo_dir, project.index_dir, look_again)


def item_states(index: AnchorIndex, item) -> list[AnchorState]:
    extra = item.model_extra or {}
    return index.check(list(item.anchors), dict(extra.get("anchored") or {}),
                       str(extra.get("anchor_commit") or ""))


def stale_items(mem, loaded=None) -> list[tuple[MemoryItem, list[AnchorState]]]:
    """Active project items whose anchored code changed, with what changed. `loaded`: the
    project store's `load_all(include_archived=False)` when the caller has it already."""
    index = index_for(mem)
    if index is None:
        return []
    out = []
    if loaded is None:
        loaded = mem.require_project().store.load_all(include_archived=False)
    for one in loaded.items:
        item = one.item
        if not item.anchors:
            continue
        stale = stale_states(item_states(index, item))
        if stale:
            out.append((item, stale))
    index.save()
    return out


def stale_note(states: list[AnchorState]) -> str:
    """`may be stale: src/x.ts +3 -1 lines` for a context line ("" when nothing is stale)."""
    if not states:
        return ""
    parts = [f"{s.anchor} {s.detail or s.state}" for s in states]
    return "may be stale: " + "; ".join(parts)


class AnchorError(LorestackError):
    pass
