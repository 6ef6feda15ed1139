"""What the guardrail judges: a proposal built from text, a file, a git diff or a client's
pre-tool hook payload (Claude Code, Codex, Cursor, Gemini CLI).

A proposal is reduced to the text that would come into being (prose, a diff's added lines,
a shell command, the content a tool would write) plus the paths it touches. Removed lines
are not judged: deleting a cron job never breaks "no cron".
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from lorestack.core.clients import CLIENTS, DEFAULT_CLIENT
from lorestack.core.errors import LorestackError
from lorestack.core.git import git_ok
from lorestack.guardrail.diff_headers import (  # noqa: F401  (parse_unified_diff: re-exported)
    created_in_diff,
    deleted_in_diff,
    moved_in_diff,
    parse_unified_diff,
    removed_in_diff,
    written_in_diff,
)
from lorestack.guardrail.shell_unwrap import unwrap
from lorestack.guardrail.terms import normalise_path, paths_in_text
from lorestack.guardrail.tool_paths import (
    ABSOLUTE,
    cwd_below_root,
    in_project,
    on_disk,
    relative_path,
)
from lorestack.guardrail.written_lines import on_disk_text, patch_written, written

EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's well-known empty tree

# tools that only read or talk: judging them would block harmless exploration
READ_ONLY_TOOLS = frozenset(
    {
        # Claude Code / Codex
        "Read",
        "Glob",
        "Grep",
        "LS",
        "WebFetch",
        "WebSearch",
        "TodoWrite",
        "TodoRead",
        "ExitPlanMode",
        "BashOutput",
        "KillShell",
        "ListMcpResourcesTool",
        "ReadMcpResourceTool",
        "view_image",
        "update_plan",
        "read_file",
        # Gemini CLI
        "read_many_files",
        "list_directory",
        "glob",
        "search_file_content",
        "google_web_search",
        "web_fetch",
        "save_memory",
        # Cursor
        "beforeReadFile",
        "Read File",
    }
)
_PATH_KEYS = (
    "file_path",
    "path",
    "notebook_path",
    "filePath",
    "target_file",
    "absolute_path",
    "directory",
    "dir_path",
)
_TEXT_KEYS = (
    "command",
    "content",
    "new_string",
    "new_source",
    "description",
    "prompt",
    "patch",
    "input",
    "code_edit",
    "new_str",
    "instructions",
    "query",
)


class ProposalError(LorestackError):
    pass


class Proposal(BaseModel):
    """The text and paths a check judges, and where they came from."""

    source: Literal["text", "file", "diff", "tool"] = "text"
    text: str = ""
    paths: list[str] = Field(default_factory=list)
    label: str = ""
    tool: str | None = None
    client: str | None = None
    skip_reason: str = ""  # set when there is nothing worth judging (a read-only tool)
    # touched paths known to exist before the change (an edit, not a new file): a freeze on
    # adding ("nothing new under X/") is not met there; a path not listed may be new
    existing: list[str] = Field(default_factory=list)
    replaced: str = ""  # the text an edit replaces (old_string): not proposed, not new
    # touched paths the change deletes (a diff's `deleted file mode`, apply_patch's `*** Delete
    # File:`): "never delete files under X/" is met there, and they add nothing there
    deleted: list[str] = Field(default_factory=list)
    # touched paths the change renames away, with where they go (a diff's `rename from/to`)
    moved: dict[str, str] = Field(default_factory=dict)
    written: list[str] = Field(default_factory=list)  # touched paths it adds a line to
    # a hook payload over the bytes a hook reads: judged on what its first `payload_cut` held
    payload_cut: int = 0
    cut_notes: list[str] = Field(default_factory=list)  # what else was left unjudged, and why

    def is_change(self) -> bool:
        """A diff or a tool's edit: its text is what would be added (not a description)."""
        return self.source == "diff" or (self.source == "tool" and bool(self.paths))

    def judged_paths(self) -> list[str]:
        """Touched paths plus, for prose or a command, path-like words in the text (a
        diff's or an edit's text is file content: a path in it is not touched)."""
        out = list(self.paths)
        if self.is_change():
            return out
        for p in paths_in_text(self.text):
            if p not in out:
                out.append(p)
        return out

    def merged_with(self, other: Proposal) -> Proposal:
        paths = list(self.paths) + [p for p in other.paths if p not in self.paths]
        text = "\n\n".join(t for t in (self.text, other.text) if t.strip())
        label = " + ".join(x for x in (self.label, other.label) if x)
        return Proposal(
            source=other.source if self.source == "text" else self.source,
            text=text,
            paths=paths,
            label=label,
            tool=self.tool or other.tool,
            client=self.client or other.client,
            existing=list(dict.fromkeys(self.existing + other.existing)),
            deleted=list(dict.fromkeys(self.deleted + other.deleted)),
            moved={**self.moved, **other.moved},
            written=list(dict.fromkeys(self.written + other.written)),
            replaced="\n".join(t for t in (self.replaced, other.replaced) if t),
        )


def from_text(text: str, label: str = "text") -> Proposal:
    return Proposal(source="text", text=text or "", label=label)


def from_file(path: str | os.PathLike) -> Proposal:
    """A plan or design note on disk; judged as prose. Read as every command reads a file
    (strict UTF-8, the BOM Notepad writes dropped); a binary file is refused in one line."""
    from lorestack.memory_layers.input_check import InputRejected, check_input_text, read_text_file

    file = Path(path)
    if not file.exists():
        raise ProposalError(f"{file}: no such file")
    try:
        text = read_text_file(file, outcome="nothing was checked")
        check_input_text(text, where=str(file), outcome="nothing was checked")
    except InputRejected as exc:
        raise ProposalError(str(exc)) from None
    return Proposal(source="file", text=text, label=str(file))


# ---- git diffs --------------------------------------------------------------------------
def _git(repo_dir: Path, *args: str) -> str:
    from lorestack.core.git import GitError, git_out

    try:
        return git_out(repo_dir, *args)
    except GitError as exc:
        raise ProposalError(f"--diff: {exc}") from exc


def _names(raw: str) -> list[str]:
    return [normalise_path(n) for n in raw.split("\0") if n.strip()]


UNTRACKED_MAX_FILES = 200  # a tree that never got a .gitignore (node_modules …): paths only past it
UNTRACKED_MAX_BYTES = 256_000


def _untracked_as_new_files(repo: Path, spec: list[str]) -> str:
    """The working tree's files git does not track yet (and does not ignore), written as the
    new-file diffs `git add -N` would show: `git diff HEAD` leaves them out, so a change that
    only created a file read as "nothing to judge"."""
    names = _names(_git(repo, "ls-files", "--others", "--exclude-standard", "--full-name",
                        "-z", *spec))
    if not names:
        return ""
    top = Path(_git(repo, "rev-parse", "--show-toplevel").strip())
    parts = []
    for i, name in enumerate(names):
        lines: list[str] = []
        if i < UNTRACKED_MAX_FILES:
            try:
                raw = (top / name).read_bytes()[:UNTRACKED_MAX_BYTES]
            except OSError:
                raw = b""
            if b"\0" not in raw:  # a binary file counts by its path alone
                lines = raw.decode("utf-8", "replace").splitlines()
        body = "".join(f"+{line}\n" for line in lines)
        parts.append(f"diff --git a/{name} b/{name}\nnew file mode 100644\n--- /dev/null\n"
                     f"+++ b/{name}\n@@ -0,0 +1,{len(lines)} @@\n{body}")
    return "".join(parts)


def from_git_diff(
    repo_dir: str | os.PathLike, rev: str | None = None, *, staged: bool = False
) -> Proposal:
    """Changed paths and added lines of the staged changes, the working tree (vs HEAD, with
    the files git does not track yet as new files), a revision (what that commit introduced, with its message) or a range `A..B`."""
    repo = Path(repo_dir)
    # explicit prefixes: a user's diff.noprefix / diff.mnemonicPrefix must not change paths
    base = ["--no-color", "--no-ext-diff", "--src-prefix=a/", "--dst-prefix=b/", "-U0"]
    message = ""
    if not git_ok(repo, "rev-parse", "--git-dir"):
        need = "--staged" if staged else "--diff"
        raise ProposalError(f"{repo} is not inside a git repository; {need} needs one")
    if rev and ".." not in rev and not git_ok(repo, "rev-parse", "--verify", "-q",
                                              f"{rev}^{{commit}}"):
        raise ProposalError(f"--diff {rev}: not a commit in {repo} (give a commit, a branch "
                            "or a range A..B)")
    if staged:
        diff_args, label = ["diff", "--cached", *base], "staged changes"
    elif not rev:
        head = "HEAD" if git_ok(repo, "rev-parse", "--verify", "-q", "HEAD") else EMPTY_TREE
        diff_args, label = ["diff", *base, head], "working tree vs HEAD"
    elif ".." in rev:
        diff_args, label = ["diff", *base, rev], f"git diff {rev}"
    else:
        diff_args, label = (
            ["diff-tree", "-p", "-r", "--root", "--no-commit-id", *base, rev],
            f"commit {rev}",
        )
        message = _git(repo, "log", "-1", "--format=%B", rev).strip()
    # the memory folder holds the rules themselves: committing a criterion is no proposal
    spec = ["--", ":/", ":(exclude).memory"]
    diff = _git(repo, *diff_args, *spec)
    if not staged and not rev:  # the working tree: files not tracked yet are new files in it
        untracked = _untracked_as_new_files(repo, spec)
        diff += ("\n" if diff and not diff.endswith("\n") else "") + untracked
        label += " (and files not tracked yet)" if untracked else ""
    paths, added = parse_unified_diff(diff)
    names_args = [a for a in diff_args if a not in ("-p", "-U0") and "prefix" not in a] + [
        "--name-only",
        "-z",
    ]
    for name in _names(_git(repo, *names_args, *spec)):  # binary files and mode changes too
        if name not in paths:
            paths.append(name)
    text = "\n".join(x for x in (message, "\n".join(added)) if x)
    created = created_in_diff(diff)
    existing = [p for p in paths if p not in created]
    return Proposal(source="diff", text=text, paths=paths, label=label, existing=existing,
                    deleted=deleted_in_diff(diff), moved=moved_in_diff(diff),
                    replaced=removed_in_diff(diff), written=written_in_diff(diff))


# ---- client hook payloads ---------------------------------------------------------------
def _parse_apply_patch(patch: str) -> tuple[list[str], list[str]]:
    """Codex's apply_patch envelope: `*** Update File: p` headers and `+` lines."""
    paths, added = [], []
    for line in patch.splitlines():
        for marker in ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "):
            if line.startswith(marker):
                paths.append(normalise_path(line[len(marker) :]))
                break
        else:
            if line.startswith("+") and not line.startswith("+++"):
                added.append(line[1:])
    return paths, added


_EDITS_EXISTING = ("old_string", "old_str", "old_source", "edits")


def _collect(
    value: Any, texts: list[str], paths: list[str], key: str = "", existing: list | None = None
) -> None:
    """Walk a tool input: path-ish keys become paths, text-ish values become judged text;
    `existing` gets the paths an edit replaces text in (they are there already)."""
    existing = [] if existing is None else existing
    if isinstance(value, dict):
        edits = any(k in value for k in _EDITS_EXISTING)
        for k, v in value.items():
            if k in ("old_string", "old_str", "old_source"):
                continue  # text being removed is not proposed
            if edits and k in _PATH_KEYS and isinstance(v, str):
                existing.append(v)
            _collect(v, texts, paths, k, existing)
    elif isinstance(value, list):
        if key == "command" and all(isinstance(v, str) for v in value):
            _collect(" ".join(value), texts, paths, key, existing)  # argv form (Codex exec)
        else:
            for v in value:
                _collect(v, texts, paths, key, existing)
    elif isinstance(value, str) and value.strip():
        if key in _PATH_KEYS:
            paths.append(value)
        elif "*** Begin Patch" in value:
            patch_paths, added = _parse_apply_patch(value)
            paths.extend(patch_paths)
            existing.extend(  # `*** Update File:` changes a file that is there
                normalise_path(ln[len("*** Update File: "):]) for ln in value.splitlines()
                if ln.startswith("*** Update File: ")
            )
            texts.append("\n".join(added))
        elif key in _TEXT_KEYS or not key or key.endswith(("_string", "content", "text")):
            texts.append(value)


def from_hook_payload(
    payload: str | dict, client: str = DEFAULT_CLIENT, *, repo_dir: str | os.PathLike | None = None,
    max_bytes: int = 0,
) -> Proposal:
    """A pre-tool hook's stdin. Claude Code / Codex PreToolUse and Gemini BeforeTool send
    `tool_name` + `tool_input`; Cursor's beforeShellExecution sends a top-level `command`.
    Only what is judged is read for paths: its first `max_bytes` and `MAX_PATHS` paths
    (reading all of a 1 MiB command or 15,000 paths took seconds)."""
    if client not in CLIENTS:
        raise ProposalError(f"unknown client '{client}'; use one of: {', '.join(CLIENTS)}")
    from lorestack.guardrail.payload_cut import MAX_DEPTH, json_payload, too_deep, within

    cut = 0
    if isinstance(payload, str):
        if not payload.strip():
            raise ProposalError("the hook payload on stdin is empty")
        payload, cut = json_payload(payload)
    if not isinstance(payload, dict):
        raise ProposalError("the hook payload must be a JSON object")
    tool = payload.get("tool_name") or payload.get("toolName")
    if tool is not None and not isinstance(tool, str):
        raise ProposalError("the hook payload's tool_name must be a string "
                            f"(got {type(tool).__name__})")
    tool_input = payload.get("tool_input", payload.get("toolInput"))
    event = str(payload.get("hook_event_name", ""))
    if tool is None and "command" in payload:  # Cursor beforeShellExecution
        tool, tool_input = "Shell", {"command": payload["command"]}
    elif tool is None and ("file_path" in payload or "edits" in payload):  # Cursor file events
        tool, tool_input = (
            event or "Edit",
            {k: payload[k] for k in ("file_path", "edits", "content") if k in payload},
        )
    if isinstance(tool_input, str):
        try:
            tool_input = json.loads(tool_input)
        except json.JSONDecodeError:
            tool_input = {"input": tool_input}
    if isinstance(tool_input, dict) and tool_input.get("command") and "description" in tool_input:
        # a shell call's description is the agent's prose about the command, not what runs:
        # a rule's forbidden words there blocked a harmless `terraform plan` described as
        # "Preview the changes before terraform apply" (Claude Code describes every Bash call)
        tool_input = {k: v for k, v in tool_input.items() if k != "description"}
    roots = payload.get("workspace_roots")
    named = [payload.get("cwd"), *(roots if isinstance(roots, list) else [])]
    # a folder given as anything but text is absent, as the other hooks read it (a TypeError
    # here failed the check open: a call breaking a block rule went through)
    bases = [Path(b) for b in (repo_dir, *(n for n in named if isinstance(n, str))) if b]
    label = f"{client} {tool or event or 'tool call'}"
    if tool in READ_ONLY_TOOLS or event in READ_ONLY_TOOLS:
        return Proposal(
            source="tool",
            tool=tool,
            client=client,
            label=label,
            skip_reason=f"{tool or event} only reads; nothing to judge",
        )
    texts: list[str] = []
    raw_paths: list[str] = []
    edited: list[str] = []
    if too_deep(tool_input):  # walked by recursion below: a RecursionError said nothing
        raise ProposalError(f"the tool input is nested more than {MAX_DEPTH} levels deep")
    _collect(tool_input if tool_input is not None else {}, texts, raw_paths, "", edited)
    here = cwd_below_root(payload.get("cwd") if isinstance(payload.get("cwd"), str) else None,
                          bases)
    text, cut_notes, raw_paths = within(texts, raw_paths, max_bytes)
    paths = list(dict.fromkeys(r for r in (relative_path(p, bases, here) for p in raw_paths) if r))
    if not paths:  # a command, read from where it runs: the hook's cwd, then its `cd`s
        # (`cd lib && touch helpers/x.py`, `sh -c '…'`: shell_unwrap.py), then the project's
        # files it names absolutely, as the project names them (each name resolved once)
        text = unwrap(text, here, bases[0] if bases else None)
        named_once: dict[str, str] = {}
        text = ABSOLUTE.sub(lambda m: named_once.get(m.group(0)) or named_once.setdefault(
            m.group(0), in_project(m.group(0), bases)), text)
    deleted = [relative_path(p, bases, here) for p in _patch_deletions(tool_input)]
    edited += [p for p in deleted if p not in edited]  # a file deleted was there
    edited_rel = {relative_path(p, bases, here) for p in edited}
    existing = [p for p in paths if p in edited_rel or on_disk(p, bases)]
    if not paths:  # a command: `>> x`, `touch x`, `cat > x` on a file there already edit it
        existing += [p for p in paths_in_text(text) if on_disk(p, bases)]
    replaced = _replaced(tool_input)
    return Proposal(source="tool", text=text, paths=paths, tool=tool, client=client, label=label,
                    existing=existing, replaced=replaced, deleted=deleted,
                    written=written(paths, deleted, text, replaced or on_disk_text(paths, bases))
                    or _in(paths, tool_input, lambda p: relative_path(p, bases, here)),
                    payload_cut=cut, cut_notes=cut_notes)


def _in(paths: list[str], tool_input: Any, relative: Callable[[str], str]) -> list[str]:
    """Of a patch of several files (one file is compared with the file on disk above), the
    files it writes that are among the judged paths (a path cut from the judged text is not)."""
    if len(paths) < 2:
        return []
    return [p for p in dict.fromkeys(map(relative, patch_written(tool_input))) if p in paths]


def _patch_deletions(value: Any) -> list[str]:
    """The files an apply_patch envelope deletes (`*** Delete File: p`)."""
    if isinstance(value, dict):
        return [p for v in value.values() for p in _patch_deletions(v)]
    if isinstance(value, list):
        return [p for v in value for p in _patch_deletions(v)]
    if isinstance(value, str) and "*** Delete File: " in value:
        return [ln[len("*** Delete File: "):].strip() for ln in value.splitlines()
                if ln.startswith("*** Delete File: ")]
    return []


def _replaced(value: Any) -> str:
    """The old_string(s) of an edit (MultiEdit's `edits` too)."""
    if isinstance(value, dict):
        own = [v for k, v in value.items() if k in _EDITS_EXISTING[:3] and isinstance(v, str)]
        return "\n".join(own + [_replaced(v) for v in value.values() if isinstance(v, (dict, list))])
    return "\n".join(_replaced(v) for v in value) if isinstance(value, list) else ""
