"""Write lorestack's hook entries into each client's settings — idempotently, with a backup.

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

An entry is ours when its command mentions lorestack and carries our exact arguments, so a
moved virtualenv is updated in place rather than duplicated, and uninstall removes exactly
those entries (plus containers that became empty), leaving every other setting as it was.

The file is edited, not regenerated: its indentation is kept, top-level members other than
`hooks` keep their exact text, its permission bits are kept, the first backup is never
overwritten, and an uninstall that brings the file back to its original content restores the
original bytes and removes the backup. Project-scope files are shared through the repository,
so their entries call `lorestack` from PATH (and say so when it is missing) instead of this
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

from lorestack.core import clients as registry
from lorestack.core import legacy
from lorestack.core.clients import CLIENTS  # noqa: F401 - re-exported
from lorestack.core.errors import LorestackError
from lorestack.integrations.settings_text import BOM_NAMES, FileText, render_json

BACKUP_SUFFIX = ".lorestack-backup"
GUARDRAIL_MATCHER = "Edit|MultiEdit|Write|NotebookEdit|Bash"


class InstallerError(LorestackError):
    pass


def _known(client: str) -> None:
    if client not in registry.CLIENT_SPECS:
        raise InstallerError(f"unknown client '{client}'; choose from {', '.join(registry.CLIENTS)}")


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
    """A hook command that works on any teammate's machine: `lorestack` from PATH, and a
    one-line message on stderr (exit 1, which clients show without blocking) when it is not
    installed there."""
    message = ("lorestack hook: the `lorestack` command is not on PATH; install it "
               "(pipx install lorestack) or remove the hooks with `lorestack uninstall`")
    return (f"if command -v lorestack >/dev/null 2>&1; then lorestack {tail}; "
            f"else echo {shlex.quote(message)} >&2; exit 1; fi")


def lorestack_command() -> str:
    """The absolute command that runs this lorestack, inside or outside its virtualenv."""
    exe = Path(sys.executable)
    script = exe.parent / ("lorestack.exe" if os.name == "nt" else "lorestack")
    if script.is_file():
        return shlex.quote(str(script))
    return f"{shlex.quote(str(exe))} -m lorestack.cli"


def hook_command() -> str:
    """The absolute command a client runs for a hook on this machine: this install's Python
    without `site`, on the thin entry beside this package (`lorestack/thin.py`), which asks the
    resident service and restarts itself with `site` for anything more. Starting without
    `site` saves about 17 ms a hook. Elsewhere than POSIX, the console script."""
    import lorestack

    script = Path(os.path.abspath(lorestack.__file__)).parent / "thin.py"
    if os.name != "posix" or not script.is_file() or not Path(sys.executable).is_file():
        return lorestack_command()
    # the package folder exactly as imported (not resolved): the service's identity is derived
    # from it, and the thin start must name the same install as the service it talks to
    return f"{shlex.quote(sys.executable)} -S {shlex.quote(str(script))}"


def settings_path(client: str, scope: str, project_dir: Path | None = None) -> Path:
    spec = registry.get(client)
    folder, name = spec.settings_dir, spec.settings_file
    if scope == "project":
        base = Path(project_dir) if project_dir else Path.cwd()
    else:
        base = Path.home()
    return base / folder / name


def hook_specs(client: str, command: str | None, *, guardrail: bool = False) -> list[HookSpec]:
    """The entries to install; `command=None` means the portable PATH form (project scope)."""
    spec_ = registry.get(client)

    def full(tail: str) -> str:
        return portable_command(tail) if command is None else f"{command} {tail}"

    specs = []
    for client_event, our_event in spec_.events:
        tail = f"hook {our_event} --client {client}"
        specs.append(HookSpec(client_event, full(tail), tail,
                              matcher=spec_.event_matchers.get(client_event),
                              name=f"lorestack-{client_event.lower()}"))
    if guardrail:
        if not spec_.guardrail_install or not spec_.pre_tool_event:
            offered = [s.name for s in registry.CLIENT_SPECS.values() if s.guardrail_install]
            raise InstallerError(f"--guardrail is available for {', '.join(offered)} only")
        tail = f"check --hook pre-tool --client {client}"
        specs.append(HookSpec(spec_.pre_tool_event, full(tail), tail, matcher=GUARDRAIL_MATCHER,
                              name="lorestack-guardrail"))
    return specs


def _all_tails(client: str) -> list[str]:
    tails = [f"hook {e} --client {client}" for e in registry.EVENTS]
    return tails + [f"check --hook pre-tool --client {client}"]


def _is_ours(handler, tails: list[str]) -> bool:
    if not isinstance(handler, dict):
        return False
    command = handler.get("command")
    if not isinstance(command, str):
        return False
    # `… lorestack <tail>` (user scope) or `if command -v lorestack …; then lorestack <tail>; …`;
    # an entry the tool wrote under its former name is ours too, so install replaces it
    return any(name in command and (command.rstrip().endswith(tail) or f"{name} {tail};" in command)
               for name in legacy.names() for tail in tails)


def _handler(client: str, spec: HookSpec, timeout_s: int) -> dict:
    client_spec = registry.get(client)
    if client_spec.layout == "flat":
        return {"command": spec.command}
    timeout = timeout_s * 1000 if client_spec.timeout_unit == "ms" else timeout_s
    if client_spec.named_handlers:
        return {"name": spec.name, "type": "command", "command": spec.command,
                "timeout": timeout, "description": "lorestack memory"}
    return {"type": "command", "command": spec.command, "timeout": timeout}


def _flat(client: str) -> bool:
    return registry.get(client).layout == "flat"


def _read(path: Path, client: str) -> tuple[dict, FileText | None]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}, None
    except OSError as exc:
        raise InstallerError(f"cannot read {path}: {exc}; nothing was changed") from exc
    try:
        text = FileText.of(raw)
    except UnicodeDecodeError as exc:
        raise InstallerError(f"cannot read {path}: {exc}; nothing was changed") from exc
    spec = registry.get(client)
    if text.bom is not None and text.bom not in (spec.settings_boms or ()):
        # a Windows editor's save: lorestack could read it, but a client that cannot would
        # not run the hooks written into it (Codex skips the file, Gemini CLI will not start)
        reads = "may not read it" if spec.settings_boms is None else "does not read it"
        raise InstallerError(
            f"{path} begins with {BOM_NAMES[text.bom]}, and {spec.title} {reads}: save it as "
            "UTF-8 without a BOM (your editor's 'UTF-8', not 'UTF-8 with BOM') and run again; "
            "nothing was changed")
    return _parse(text.text, path), text


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
    version = registry.get(client).settings_version
    if version is not None:
        data.setdefault("version", version)
    hooks = _hooks_table(data, path)
    for spec in specs:
        entries = _event_list(hooks, spec.event, path)
        desired = _handler(client, spec, timeout_s)
        found = False
        handler_lists: list[list] = [entries] if _flat(client) else [
            g["hooks"] for g in entries if isinstance(g, dict) and isinstance(g.get("hooks"), list)]
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
            if _flat(client):
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
        if _flat(client):
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


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _write(path: Path, data: dict, original: dict, original_file: FileText | None,
           result: InstallResult) -> None:
    from lorestack.memory_layers.fsutil import write_atomic

    original_text = original_file.text if original_file is not None else None
    result.changed = data != original
    version = registry.get(result.client).settings_version
    empty = not data or (version is not None and data == {"version": version})
    remove_file = empty and bool(result.removed)
    backup = backup_path(path)
    restore: bytes | None = None
    if result.removed and backup.exists():
        # an exact uninstall: the file is back to what it was before our first install
        try:
            saved = backup.read_bytes()
            if _parse(FileText.of(saved).text, backup) == data:
                restore = saved
        except (OSError, UnicodeDecodeError, InstallerError):
            restore = None
    if restore is not None:
        result.content = FileText.of(restore).text
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
        # keep the first backup: the file as it was before lorestack touched it
        shutil.copy2(path, backup)  # same bytes, same mode
        result.backup = backup
    if remove_file:
        path.unlink()  # nothing left but what we had added
        _remove_empty_dir(path.parent)
        return
    # saved with a BOM (a Windows editor), or as UTF-16: written back the same way
    write_atomic(path, (original_file or FileText("")).encode(result.content))


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
    """Add (or refresh) lorestack's hook entries; running it twice changes nothing."""
    _known(client)
    path = settings_path(client, scope, project_dir)
    data, text = _read(path, client)
    original = json.loads(json.dumps(data))
    result = InstallResult(client, scope, path, False, dry_run)
    if command is None and scope != "project":
        command = hook_command()  # the user's own machine: this exact install
    specs = hook_specs(client, command, guardrail=guardrail)
    _apply_install(client, data, specs, timeout_s, path, result)
    _write(path, data, original, text, result)
    if scope == "project" and command is None:
        result.notes.append("project hooks call `lorestack` from PATH so they work for every "
                            "teammate who has it installed")
    result.notes.extend(registry.install_notes(client))
    return result


def uninstall(client: str, scope: str = "user", *, project_dir: Path | None = None,
              dry_run: bool = False) -> InstallResult:
    """Remove exactly the entries `install` adds (and containers that became empty)."""
    _known(client)
    path = settings_path(client, scope, project_dir)
    data, text = _read(path, client)
    original = json.loads(json.dumps(data))
    result = InstallResult(client, scope, path, False, dry_run)
    _apply_uninstall(client, data, result)
    version = registry.get(client).settings_version
    if version is not None and result.removed and data.get("version") == version and set(data) == {"version"}:
        data = {}  # only the version marker we wrote is left
    _write(path, data, original, text, result)
    return result


# the trust records live beside this module (hook_trust.py, which builds on this one); their
# names stay reachable here, resolved on first use
_MOVED_TO_HOOK_TRUST = ("HookTrust", "_codex_hash", "codex_home", "forget_trust", "hook_trust",
                        "hooks_turned_off", "trust_hooks", "trust_instructions")


def __getattr__(name: str):
    if name in _MOVED_TO_HOOK_TRUST:
        from lorestack.integrations import hook_trust

        return getattr(hook_trust, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
