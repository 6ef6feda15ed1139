"""A hook's settings, read before its store opens (the deadline must cover the opening).

The service composes them once per (folder, root, caller's environment, config files' stat)
and keeps them; a one-shot process composes them when asked.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from lorestack.core.clients import HookPayload


def _configured_hooks(payload: HookPayload, root: str | None):
    """The hook settings from every layer (config files, environment), without opening the
    store; the shipped defaults if they cannot be read (the store's opening then reports why)."""
    from lorestack.core.settings import HookSettings, resolve_settings

    cwd = Path(payload.cwd) if payload.cwd and Path(payload.cwd).is_dir() else None
    try:
        key = _hook_settings_key(cwd, root)
        kept = _HOOK_SETTINGS.get(key) if key is not None else None
        if kept is not None:
            return kept
        hooks = resolve_settings(cwd, root).hooks
        if key is not None:
            if len(_HOOK_SETTINGS) > 256:
                _HOOK_SETTINGS.clear()
            _HOOK_SETTINGS[key] = hooks
        return hooks
    except Exception:  # noqa: BLE001 - a bad config is reported when the store opens
        return HookSettings()


# The service composes a hook's settings once per (folder, root, caller's environment, config
# files' stat): composing them costs ~8 ms a time and every hook asks twice (ack, run).
_HOOK_SETTINGS: dict[tuple, Any] = {}


def _hook_settings_key(cwd: Path | None, root: str | None) -> tuple | None:
    from lorestack.memory_layers import parse_cache

    if not parse_cache.enabled():
        return None  # a one-shot process asks once
    from lorestack.core.overlay import environ, fingerprint
    from lorestack.core.settings import config_files, resolve_roots

    project, home = resolve_roots(cwd, root)
    stats: list[tuple] = []
    for _layer, path in config_files(project, home):
        try:
            info = os.stat(path)
            stats.append((str(path), info.st_mtime_ns, info.st_size, info.st_ino))
        except OSError:
            stats.append((str(path), None))
    return (str(project), str(home), fingerprint(dict(environ())), tuple(stats))
