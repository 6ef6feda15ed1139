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
    from lorestack.memory_layers.fsutil import write_atomic

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
        # keep the first backup: the file as it was before lorestack touched it
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
    """Add (or refresh) lorestack's hook entries; running it twice changes nothing."""
    _known(client)
    path = settings_path(client, scope, project_dir)
    data, text = _read(path)
    original = json.loads(json.dumps(data))
    result = InstallResult(client, scope, path, False, dry_run)
    if command is None and scope != "project":
        command = lorestack_command()  # the user's own machine: this exact install
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
    data, text = _read(path)
    original = json.loads(json.dumps(data))
    result = InstallResult(client, scope, path, False, dry_run)
    _apply_uninstall(client, data, result)
    version = registry.get(client).settings_version
    if version is not None and result.removed and data.get("version") == version and set(data) == {"version"}:
        data = {}  # only the version marker we wrote is left
    _write(path, data, original, text, result)
    return result


# ---- hooks the client will not run -----------------------------------------------------------
# Codex runs a user's or project's hook only once its exact definition has been trusted: the
# TUI's `/hooks` review records `[hooks.state."<hooks.json path>:<event>:<group>:<handler>"]
# trusted_hash = "sha256:…"` in ~/.codex/config.toml (user layers only), where the hash is the
# SHA-256 of the canonical (sorted-key, compact) JSON of {event_name, matcher?, hooks: [the one
# normalized handler]}. An edited definition (new path, new timeout) needs trusting again.
# Until then `codex exec` skips it without a word.
@dataclass
class HookTrust:
    event: str          # the client's event name
    command: str
    key: str            # Codex's key for the handler
    hash: str           # the hash Codex expects for this definition
    status: str         # trusted | untrusted | modified | disabled


def codex_home() -> Path:
    env = os.environ.get("CODEX_HOME")
    return Path(env).expanduser() if env else Path.home() / ".codex"


def _snake(event: str) -> str:
    return "".join(("_" + c.lower()) if c.isupper() else c for c in event).lstrip("_")


def _codex_hash(event: str, group: dict, handler: dict) -> str:
    import hashlib

    timeout = handler.get("timeout")
    normalized: dict = {"type": "command", "command": handler.get("command", ""),
                        "timeout": max(1, int(timeout)) if isinstance(timeout, (int, float)) else 600,
                        "async": bool(handler.get("async", False))}
    if isinstance(handler.get("statusMessage"), str):
        normalized["statusMessage"] = handler["statusMessage"]
    identity: dict = {"event_name": _snake(event), "hooks": [normalized]}
    # Codex ignores matchers on these events, so they are not part of the identity
    if isinstance(group.get("matcher"), str) and event not in ("UserPromptSubmit", "Stop"):
        identity["matcher"] = group["matcher"]
    canonical = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _hook_states_by_hand(text: str) -> dict:
    """Python 3.10 has no tomllib: read just the `[hooks.state."…"]` tables."""
    import re

    states: dict = {}
    current: dict | None = None
    for line in text.splitlines():
        header = re.match(r'^\s*\[\s*hooks\.state\.("(?:[^"\\]|\\.)*")\s*\]\s*$', line)
        if header:
            current = states.setdefault(json.loads(header.group(1)), {})
        elif line.strip().startswith("["):
            current = None
        elif current is not None:
            pair = re.match(r'^\s*(trusted_hash|enabled)\s*=\s*("[^"]*"|true|false)\s*(#.*)?$', line)
            if pair:
                current[pair.group(1)] = json.loads(pair.group(2))
    return {"hooks": {"state": states}} if states else {}


def _read_toml(path: Path) -> dict:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InstallerError(f"cannot read {path}: {exc}") from exc
    try:
        import tomllib
    except ImportError:  # Python 3.10
        return _hook_states_by_hand(text)
    try:
        return tomllib.loads(text)
    except ValueError as exc:
        raise InstallerError(f"cannot read {path}: {exc}") from exc


def hook_trust(client: str, path: Path) -> list[HookTrust]:
    """lorestack's handlers in the client's settings file at PATH and whether the client will
    run them ([] for clients that run every configured hook)."""
    if not registry.get(client).hooks_need_trust:
        return []
    data, _ = _read(path)
    hooks = data.get("hooks")
    if not isinstance(hooks, dict):
        return []
    state = _read_toml(codex_home() / "config.toml").get("hooks", {})
    state = state.get("state", {}) if isinstance(state, dict) else {}
    tails = _all_tails(client)
    found = []
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            continue
        for gi, group in enumerate(groups):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                continue
            for hi, handler in enumerate(handlers):
                if not _is_ours(handler, tails):
                    continue
                key = f"{path}:{_snake(event)}:{gi}:{hi}"
                digest = _codex_hash(event, group, handler)
                entry = state.get(key) if isinstance(state, dict) else None
                entry = entry if isinstance(entry, dict) else {}
                if entry.get("enabled") is False:
                    status = "disabled"
                elif entry.get("trusted_hash") == digest:
                    status = "trusted"
                elif entry.get("trusted_hash"):
                    status = "modified"
                else:
                    status = "untrusted"
                found.append(HookTrust(event, handler["command"], key, digest, status))
    return found


def hooks_turned_off(client: str, path: Path) -> list[tuple[str | None, str]]:
    """Why the client will skip lorestack's hooks in PATH, when its own config says so:
    (the client event, or None for all of them; the reason)."""
    switch = registry.get(client).off_switch
    if switch == "features":  # Codex: config.toml `[features] hooks = false`
        config = codex_home() / "config.toml"
        features = _read_toml(config).get("features")
        if isinstance(features, dict):
            for key in ("hooks", "codex_hooks"):  # 0.171's name, then the older one
                if features.get(key) is False:
                    return [(None, f"hooks are turned off in {config} ([features] {key} = false)")]
    if switch == "hooksConfig":  # Gemini CLI: settings.json hooksConfig.enabled / .disabled
        data, _ = _read(path)
        hooks_config = data.get("hooksConfig")
        if not isinstance(hooks_config, dict):
            return []
        if hooks_config.get("enabled") is False:
            return [(None, f"hooks are turned off in {path} (hooksConfig.enabled = false)")]
        disabled = hooks_config.get("disabled")
        if isinstance(disabled, list):
            raw_hooks = data.get("hooks")
            hooks: dict = raw_hooks if isinstance(raw_hooks, dict) else {}
            tails = _all_tails(client)
            return [
                (event, f"listed in hooksConfig.disabled in {path}")
                for event, groups in hooks.items() if isinstance(groups, list)
                for group in groups if isinstance(group, dict)
                for handler in group.get("hooks") or []
                if _is_ours(handler, tails)
                and (handler.get("name") in disabled or handler.get("command") in disabled)
            ]
    return []


def trust_instructions(client: str, result: InstallResult) -> list[str]:
    """What the user must do so the client runs the hooks just installed ([] if nothing)."""
    if result.dry_run or not registry.get(client).hooks_need_trust:
        return []
    pending = [t for t in hook_trust(client, result.path) if t.status != "trusted"]
    if not pending:
        return []
    events = ", ".join(dict.fromkeys(t.event for t in pending))
    lines = [
        f"Codex will not run these {len(pending)} hooks ({events}) until you trust them; "
        "`codex exec` skips untrusted hooks without a warning. To trust them:",
        "  1. start `codex` (the interactive CLI): it says hooks need review; or type `/hooks`;",
        "  2. review the lorestack hooks (`… lorestack hook … --client codex`) and trust them;",
        f"  or run `lorestack install codex --scope {result.scope} --trust`, which records the "
        f"same trust in {codex_home() / 'config.toml'} for exactly these commands.",
        "Check with `lorestack doctor`; reinstalling with a different command or timeout needs "
        "trusting again.",
    ]
    if result.scope == "project":
        lines.append("Project hooks also need the project itself trusted in Codex "
                     "(`[projects.\"<repo>\"] trust_level = \"trusted\"`, asked on first start).")
    return lines


def _toml_key(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a TOML basic string for ordinary paths


_TRUST_NOTE = "# trusted by `lorestack install"


def _drop_state_tables(text: str, keys: list[str]) -> str:
    """TEXT without the `[hooks.state."KEY"]` tables (and the note lorestack wrote above them)."""
    headers = {f"[hooks.state.{_toml_key(key)}]" for key in keys}
    kept: list[str] = []
    skipping = False
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.startswith("["):
            skipping = stripped in headers
            if skipping:
                while kept and (kept[-1].startswith(_TRUST_NOTE) or not kept[-1].strip()):
                    kept.pop()
        if not skipping:
            kept.append(line)
    new = "".join(kept)
    return new + "\n" if new and not new.endswith("\n") else new


def forget_trust(client: str, entries: list[HookTrust]) -> int:
    """After uninstall: drop the trust tables of handlers that are gone (the count removed)."""
    from lorestack.memory_layers.fsutil import write_atomic

    config = codex_home() / "config.toml"
    try:
        text = config.read_text("utf-8")
    except FileNotFoundError:
        return 0
    keys = [t.key for t in entries if f"[hooks.state.{_toml_key(t.key)}]" in text]
    if not keys:
        return 0
    shutil.copy2(config, config.with_name(config.name + BACKUP_SUFFIX))
    write_atomic(config, _drop_state_tables(text, keys).encode("utf-8"))
    return len(keys)


def trust_hooks(client: str, path: Path) -> list[HookTrust]:
    """Record trust for lorestack's own handlers in PATH, as Codex's `/hooks` review would.

    Only called when the user asks for it (`install codex --trust`); touches only the
    `[hooks.state."…"]` tables of those handlers, with a backup of config.toml.
    """
    from lorestack.memory_layers.fsutil import write_atomic

    entries = hook_trust(client, path)
    todo = [t for t in entries if t.status in ("untrusted", "modified")]  # never re-enable
    if not todo:
        return []
    config = codex_home() / "config.toml"
    try:
        text = config.read_text("utf-8")
    except FileNotFoundError:
        text = ""
    new = _drop_state_tables(text, [t.key for t in todo])
    for t in todo:
        new += (f"\n# trusted by `lorestack install {client} --trust` ({t.event})\n"
                f"[hooks.state.{_toml_key(t.key)}]\ntrusted_hash = {_toml_key(t.hash)}\n")
    try:
        import tomllib

        tomllib.loads(new)
    except ImportError:
        pass
    except ValueError as exc:
        raise InstallerError(f"{config}: could not add the trust entries ({exc}); "
                             "nothing was changed") from exc
    if text:
        shutil.copy2(config, config.with_name(config.name + BACKUP_SUFFIX))
    config.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(config, new.encode("utf-8"))
    return todo
