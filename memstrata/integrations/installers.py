"""Write memstrata's hook entries into each client's settings — idempotently, with a backup.

Where each client reads hooks (looked up in their current documentation):
- Claude Code — `~/.claude/settings.json` (user) or `<repo>/.claude/settings.json` (project):
  `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": …, "timeout": s}]}]}}`
  with events SessionStart, UserPromptSubmit, SessionEnd, PreCompact (and PreToolUse, which
  takes a tool-name `matcher`, for the optional guardrail). Timeouts are in seconds.
- Codex — `~/.codex/hooks.json` or `<repo>/.codex/hooks.json`, the same event → matcher group
  → handler layout as Claude Code. Codex has no SessionEnd: PreCompact and Stop (end of each
  turn) carry the transcript. Older Codex releases need `[features] codex_hooks = true` in
  config.toml; current ones enable hooks by default.
- Cursor — `~/.cursor/hooks.json` or `<repo>/.cursor/hooks.json`:
  `{"version": 1, "hooks": {"sessionStart": [{"command": …}], …}}` (flat handler lists);
  events sessionStart, sessionEnd, preCompact (beforeSubmitPrompt cannot add context).
- Gemini CLI — `~/.gemini/settings.json` or `<repo>/.gemini/settings.json`: the same group
  layout, handlers with a `name`, timeouts in milliseconds; events SessionStart, BeforeAgent,
  SessionEnd, PreCompress.

An entry is ours when its command mentions memstrata and carries our exact arguments, so a
moved virtualenv is updated in place rather than duplicated, and uninstall removes exactly
those entries (plus containers that became empty), leaving every other setting as it was.

The file is edited, not regenerated: its indentation is kept, top-level members other than
`hooks` keep their exact text, its permission bits are kept, the first backup is never
overwritten, and an uninstall that brings the file back to its original content restores the
original bytes and removes the backup. Project-scope files are shared through the repository,
so their entries call `memstrata` from PATH (and say so when it is missing) instead of this
machine's absolute path.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from memstrata.core.errors import MemstrataError

CLIENTS: tuple[str, ...] = ("claude-code", "codex", "cursor", "gemini")
BACKUP_SUFFIX = ".memstrata-backup"
GUARDRAIL_MATCHER = "Edit|MultiEdit|Write|NotebookEdit|Bash"

# client event -> memstrata hook event
_EVENTS: dict[str, list[tuple[str, str]]] = {
    "claude-code": [("SessionStart", "session-start"), ("UserPromptSubmit", "prompt"),
                    ("PreCompact", "session-end"), ("SessionEnd", "session-end")],
    "codex": [("SessionStart", "session-start"), ("UserPromptSubmit", "prompt"),
              ("PreCompact", "session-end"), ("Stop", "session-end")],
    "cursor": [("sessionStart", "session-start"), ("preCompact", "session-end"),
               ("sessionEnd", "session-end")],
    "gemini": [("SessionStart", "session-start"), ("BeforeAgent", "prompt"),
               ("PreCompress", "session-end"), ("SessionEnd", "session-end")],
}
_FILES = {
    "claude-code": (".claude", "settings.json"),
    "codex": (".codex", "hooks.json"),
    "cursor": (".cursor", "hooks.json"),
    "gemini": (".gemini", "settings.json"),
}


class InstallerError(MemstrataError):
    pass


@dataclass
class HookSpec:
    event: str             # the client's event name
    command: str
    tail: str              # what our command ends with (identifies the entry)
    matcher: str | None = None
    name: str = ""


@dataclass
class InstallResult:
    client: str
    scope: str
    path: Path
    changed: bool
    dry_run: bool
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    backup: Path | None = None
    notes: list[str] = field(default_factory=list)
    content: str = ""      # the file as written (or as it would be, with --dry-run)


def portable_command(tail: str) -> str:
    """A hook command that works on any teammate's machine: `memstrata` from PATH, and a
    one-line message on stderr (exit 1, which clients show without blocking) when it is not
    installed there."""
    message = ("memstrata hook: the `memstrata` command is not on PATH; install it "
               "(pipx install memstrata) or remove the hooks with `memstrata uninstall`")
    return (f"if command -v memstrata >/dev/null 2>&1; then memstrata {tail}; "
            f"else echo {shlex.quote(message)} >&2; exit 1; fi")


def memstrata_command() -> str:
    """The absolute command that runs this memstrata, inside or outside its virtualenv."""
    exe = Path(sys.executable)
    script = exe.parent / ("memstrata.exe" if os.name == "nt" else "memstrata")
    if script.is_file():
        return shlex.quote(str(script))
    return f"{shlex.quote(str(exe))} -m memstrata.cli"


def settings_path(client: str, scope: str, project_dir: Path | None = None) -> Path:
    folder, name = _FILES[client]
    if scope == "project":
        base = Path(project_dir) if project_dir else Path.cwd()
    else:
        base = Path.home()
    return base / folder / name


def hook_specs(client: str, command: str | None, *, guardrail: bool = False) -> list[HookSpec]:
    """The entries to install; `command=None` means the portable PATH form (project scope)."""

    def full(tail: str) -> str:
        return portable_command(tail) if command is None else f"{command} {tail}"

    specs = []
    for client_event, our_event in _EVENTS[client]:
        tail = f"hook {our_event} --client {client}"
        specs.append(HookSpec(client_event, full(tail), tail,
                              name=f"memstrata-{client_event.lower()}"))
    if guardrail:
        if client != "claude-code":
            raise InstallerError("--guardrail is available for claude-code only")
        tail = f"check --hook pre-tool --client {client}"
        specs.append(HookSpec("PreToolUse", full(tail), tail, matcher=GUARDRAIL_MATCHER,
                              name="memstrata-guardrail"))
    return specs


def _all_tails(client: str) -> list[str]:
    tails = [f"hook {e} --client {client}" for e in ("session-start", "prompt", "session-end")]
    return tails + [f"check --hook pre-tool --client {client}"]


def _is_ours(handler, tails: list[str]) -> bool:
    if not isinstance(handler, dict):
        return False
    command = handler.get("command")
    if not isinstance(command, str) or "memstrata" not in command:
        return False
    # `… memstrata <tail>` (user scope) or `if command -v memstrata …; then memstrata <tail>; …`
    return any(command.rstrip().endswith(tail) or f"memstrata {tail};" in command
               for tail in tails)


def _handler(client: str, spec: HookSpec, timeout_s: int) -> dict:
    if client == "cursor":
        return {"command": spec.command}
    if client == "gemini":
        return {"name": spec.name, "type": "command", "command": spec.command,
                "timeout": timeout_s * 1000, "description": "memstrata memory"}
    return {"type": "command", "command": spec.command, "timeout": timeout_s}


def _read(path: Path) -> tuple[dict, str | None]:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallerError(f"cannot read {path}: {exc}; nothing was changed") from exc
    return _parse(text, path), text


def _parse(text: str, path: Path) -> dict:
    if not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InstallerError(
            f"{path} is not valid JSON ({exc}); fix it (or move it away) and run again; "
            "nothing was changed") from exc
    if not isinstance(data, dict):
        raise InstallerError(f"{path} does not hold a JSON object; nothing was changed")
    return data


def _hooks_table(data: dict, path: Path) -> dict:
    hooks = data.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallerError(f"{path}: 'hooks' is not an object; nothing was changed")
    return hooks


def _event_list(hooks: dict, event: str, path: Path) -> list:
    entries = hooks.setdefault(event, [])
    if not isinstance(entries, list):
        raise InstallerError(f"{path}: hooks.{event} is not a list; nothing was changed")
    return entries


def _apply_install(client: str, data: dict, specs: list[HookSpec], timeout_s: int,
                   path: Path, result: InstallResult) -> None:
    if client == "cursor":
        data.setdefault("version", 1)
    hooks = _hooks_table(data, path)
    for spec in specs:
        entries = _event_list(hooks, spec.event, path)
        desired = _handler(client, spec, timeout_s)
        found = False
        handler_lists = [entries] if client == "cursor" else [
            g.get("hooks") for g in entries if isinstance(g, dict) and isinstance(g.get("hooks"), list)]
        for handlers in handler_lists:
            for handler in list(handlers):
                if not _is_ours(handler, [spec.tail]):
                    continue
                if found:  # a duplicate of ours (e.g. pasted twice): keep one
                    handlers.remove(handler)
                    result.updated.append(f"{spec.event} (duplicate removed)")
                    continue
                found = True
                if handler != desired:
                    handler.clear()
                    handler.update(desired)
                    result.updated.append(spec.event)
        if not found:
            if client == "cursor":
                entries.append(desired)
            else:
                group = {"matcher": spec.matcher, "hooks": [desired]} if spec.matcher else {"hooks": [desired]}
                entries.append(group)
            result.added.append(spec.event)


def _apply_uninstall(client: str, data: dict, result: InstallResult) -> None:
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return
    tails = _all_tails(client)
    for event in list(hooks):
        entries = hooks[event]
        if not isinstance(entries, list):
            continue
        if client == "cursor":
            kept = [h for h in entries if not _is_ours(h, tails)]
            if len(kept) != len(entries):
                result.removed.append(event)
            hooks[event] = kept
        else:
            kept_groups = []
            for group in entries:
                handlers = group.get("hooks") if isinstance(group, dict) else None
                if not isinstance(handlers, list):
                    kept_groups.append(group)
                    continue
                remaining = [h for h in handlers if not _is_ours(h, tails)]
                if len(remaining) != len(handlers):
                    result.removed.append(event)
                    if not remaining:
                        continue  # the group held only our handler: it was ours
                    group["hooks"] = remaining
                kept_groups.append(group)
            hooks[event] = kept_groups
        if not hooks[event]:
            del hooks[event]
    if not hooks:
        del data["hooks"]


# ---- editing the file's text -------------------------------------------------------------
def _indent_of(text: str | None) -> str:
    """The file's indentation unit (two spaces for a new file)."""
    for line in (text or "").splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and line != stripped:
            return line[: len(line) - len(stripped)]
    return "  "


def _members(text: str) -> list[tuple[str, int, int, int]] | None:
    """(key, member start, value start, value end) of each top-level member, or None when the
    text is not one plain JSON object."""
    decoder = json.JSONDecoder()
    ws = " \t\r\n"
    i = len(text) - len(text.lstrip(ws))
    if not text.startswith("{", i):
        return None
    i += 1
    spans: list[tuple[str, int, int, int]] = []
    while True:
        while i < len(text) and text[i] in ws:
            i += 1
        if text.startswith("}", i):
            break
        if spans:
            if not text.startswith(",", i):
                return None
            i += 1
            while i < len(text) and text[i] in ws:
                i += 1
        start = i
        try:
            key, i = decoder.raw_decode(text, i)
            while text[i] in ws:
                i += 1
            if text[i] != ":":
                return None
            i += 1
            while text[i] in ws:
                i += 1
            _, end = decoder.raw_decode(text, i)
        except (ValueError, IndexError):
            return None
        if not isinstance(key, str):
            return None
        spans.append((key, start, i, end))
        i = end
    return spans


def _dump(value, indent: str, ascii_only: bool, level: int = 0) -> str:
    text = json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    return text.replace("\n", "\n" + indent * level) if level else text


def render_json(original_text: str | None, original: dict, data: dict) -> str:
    """`data` as text, changing only the top-level members that differ from `original` and
    keeping the file's indentation; falls back to a whole re-serialisation (same indentation)
    when the text is not laid out as one plain object."""
    indent = _indent_of(original_text)
    ascii_only = "\\u" in (original_text or "")
    if not original_text or not original_text.strip():
        return _dump(data, indent, ascii_only) + "\n"
    if "\n" not in original_text.strip():  # a one-line file stays on one line
        compact = '": ' not in original_text and '", ' not in original_text
        separators = (",", ":") if compact else (", ", ": ")
        return json.dumps(data, ensure_ascii=ascii_only, separators=separators) + "\n"
    spans = _members(original_text)
    ending = "" if original_text.endswith("\n") else "\n"
    if spans is None or [k for k, *_ in spans] != [k for k in original] or len(set(original)) != len(spans):
        return _dump(data, indent, ascii_only) + "\n"
    text = original_text
    # edit from the end so earlier offsets stay valid
    for key, start, vstart, vend in reversed(spans):
        if key not in data:
            # drop the member with the comma that joins it to its neighbour
            before = text[:start].rstrip()
            if before.endswith(","):
                text = before[:-1] + text[vend:]
            else:
                after = text[vend:]
                stripped = after.lstrip()
                text = text[:start] + (stripped[1:].lstrip() if stripped.startswith(",") else after)
        elif data[key] != original[key]:
            text = text[:vstart] + _dump(data[key], indent, ascii_only, 1) + text[vend:]
    new_keys = [k for k in data if k not in original]
    if new_keys:
        close = text.rstrip().rfind("}")
        body = text[:close].rstrip()
        has_members = not body.endswith("{")
        added = "".join(
            f"{',' if has_members or n else ''}\n{indent}{json.dumps(k, ensure_ascii=ascii_only)}: "
            f"{_dump(data[k], indent, ascii_only, 1)}" for n, k in enumerate(new_keys))
        text = body + added + "\n" + text[close:]
    try:
        if json.loads(text) != data:
            raise ValueError
    except ValueError:
        return _dump(data, indent, ascii_only) + "\n"
    return text + ending if text.strip() != "{}" else "{}\n"


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _write(path: Path, data: dict, original: dict, original_text: str | None,
           result: InstallResult) -> None:
    from memstrata.memory_layers.fsutil import write_atomic

    result.changed = data != original
    empty = not data or (result.client == "cursor" and data == {"version": 1})
    remove_file = empty and bool(result.removed)
    backup = backup_path(path)
    restore: bytes | None = None
    if result.removed and backup.exists():
        # an exact uninstall: the file is back to what it was before our first install
        try:
            saved = backup.read_bytes()
            if _parse(saved.decode("utf-8"), backup) == data:
                restore = saved
        except (OSError, UnicodeDecodeError, InstallerError):
            restore = None
    if restore is not None:
        result.content = restore.decode("utf-8")
    elif remove_file:
        result.content = ""
    elif result.changed or original_text is None:
        result.content = render_json(original_text, original, data)
    else:
        result.content = original_text
    if result.dry_run or not result.changed:
        return
    if restore is not None:
        write_atomic(path, restore)
        backup.unlink()
        result.notes.append(f"restored the original file and removed {backup.name}")
        return
    if backup.exists():
        result.backup = backup
    elif original_text is not None and not _has_ours(result.client, original):
        # keep the first backup: the file as it was before memstrata touched it
        shutil.copy2(path, backup)  # same bytes, same mode
        result.backup = backup
    if remove_file:
        path.unlink()  # nothing left but what we had added
        _remove_empty_dir(path.parent)
        return
    write_atomic(path, result.content.encode("utf-8"))


def _has_ours(client: str, data: dict) -> bool:
    probe = InstallResult(client, "", Path(), False, True)
    _apply_uninstall(client, json.loads(json.dumps(data)), probe)
    return bool(probe.removed)


def _remove_empty_dir(folder: Path) -> None:
    try:
        folder.rmdir()  # only succeeds when empty: a folder we created for this file
    except OSError:
        pass


def install(client: str, scope: str = "user", *, project_dir: Path | None = None,
            dry_run: bool = False, guardrail: bool = False, command: str | None = None,
            timeout_s: int = 10) -> InstallResult:
    """Add (or refresh) memstrata's hook entries; running it twice changes nothing."""
    if client not in CLIENTS:
        raise InstallerError(f"unknown client '{client}'; choose from {', '.join(CLIENTS)}")
    path = settings_path(client, scope, project_dir)
    data, text = _read(path)
    original = json.loads(json.dumps(data))
    result = InstallResult(client, scope, path, False, dry_run)
    if command is None and scope != "project":
        command = memstrata_command()  # the user's own machine: this exact install
    specs = hook_specs(client, command, guardrail=guardrail)
    _apply_install(client, data, specs, timeout_s, path, result)
    _write(path, data, original, text, result)
    if scope == "project" and command is None:
        result.notes.append("project hooks call `memstrata` from PATH so they work for every "
                            "teammate who has it installed")
    if client == "codex":
        result.notes.append("Codex releases before hooks were on by default need "
                            "`[features] codex_hooks = true` in ~/.codex/config.toml")
    if client == "gemini":
        result.notes.append("older Gemini CLI releases need hooks enabled in settings.json "
                            "(see `gemini` docs: hooks)")
    if client == "cursor":
        result.notes.append("Cursor's beforeSubmitPrompt cannot add context, so per-prompt "
                            "recall is not installed; use the MCP server (`memstrata mcp`)")
    return result


def uninstall(client: str, scope: str = "user", *, project_dir: Path | None = None,
              dry_run: bool = False) -> InstallResult:
    """Remove exactly the entries `install` adds (and containers that became empty)."""
    if client not in CLIENTS:
        raise InstallerError(f"unknown client '{client}'; choose from {', '.join(CLIENTS)}")
    path = settings_path(client, scope, project_dir)
    data, text = _read(path)
    original = json.loads(json.dumps(data))
    result = InstallResult(client, scope, path, False, dry_run)
    _apply_uninstall(client, data, result)
    if client == "cursor" and result.removed and data.get("version") == 1 and set(data) == {"version"}:
        data = {}  # only the version marker we wrote is left
    _write(path, data, original, text, result)
    return result
