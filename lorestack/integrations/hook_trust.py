"""Hooks a client will not run until the user trusts them (Codex's `/hooks` review): read,
record and forget that trust, and say which hooks a client has turned off."""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from lorestack.core import clients as registry
from lorestack.integrations.installers import (
    BACKUP_SUFFIX,
    InstallerError,
    InstallResult,
    _all_tails,
    _is_ours,
    _read,
)


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
    data, _ = _read(path, client)
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
        data, _ = _read(path, client)
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
    backup = _keep_first_backup(config)
    left = _drop_state_tables(text, keys)
    write_atomic(config, left.encode("utf-8"))
    try:
        if backup.read_text("utf-8") == left:  # back to the file as it was before us
            backup.unlink()
    except (OSError, UnicodeDecodeError):
        pass
    return len(keys)


def _keep_first_backup(config: Path) -> Path:
    """config.toml's backup, made once: the file as it was before lorestack first changed it
    (a later trust or uninstall never overwrites it with a version holding our entries)."""
    backup = config.with_name(config.name + BACKUP_SUFFIX)
    if not backup.exists():
        shutil.copy2(config, backup)
    return backup


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
        _keep_first_backup(config)
    config.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(config, new.encode("utf-8"))
    return todo
