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

An entry is ours when its command mentions memstrata and ends with our exact arguments, so a
moved virtualenv is updated in place rather than duplicated, and uninstall removes exactly
those entries (plus containers that became empty), leaving every other setting as it was.
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


def hook_specs(client: str, command: str, *, guardrail: bool = False) -> list[HookSpec]:
    specs = []
    for client_event, our_event in _EVENTS[client]:
        tail = f"hook {our_event} --client {client}"
        specs.append(HookSpec(client_event, f"{command} {tail}", tail,
                              name=f"memstrata-{client_event.lower()}"))
    if guardrail:
        if client != "claude-code":
            raise InstallerError("--guardrail is available for claude-code only")
        tail = f"check --hook pre-tool --client {client}"
        specs.append(HookSpec("PreToolUse", f"{command} {tail}", tail, matcher=GUARDRAIL_MATCHER,
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
    return any(command.rstrip().endswith(tail) for tail in tails)


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
    if not text.strip():
        return {}, text
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InstallerError(
            f"{path} is not valid JSON ({exc}); fix it (or move it away) and run again; "
            "nothing was changed") from exc
    if not isinstance(data, dict):
        raise InstallerError(f"{path} does not hold a JSON object; nothing was changed")
    return data, text


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


def _write(path: Path, data: dict, original: dict, original_text: str | None,
           result: InstallResult) -> None:
    from memstrata.memory_layers.fsutil import write_atomic

    result.changed = data != original
    empty = not data or (result.client == "cursor" and data == {"version": 1})
    result.content = "" if empty and result.removed else json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    if result.dry_run or not result.changed:
        return
    if original_text is not None:
        backup = path.with_name(path.name + BACKUP_SUFFIX)
        shutil.copy2(path, backup)
        result.backup = backup
    if empty and result.removed:
        path.unlink()  # nothing left but what we had added
        return
    write_atomic(path, result.content.encode("utf-8"))


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
    specs = hook_specs(client, command or memstrata_command(), guardrail=guardrail)
    _apply_install(client, data, specs, timeout_s, path, result)
    _write(path, data, original, text, result)
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
