"""Settings for a hook when a config.toml is broken: what can be read, and what was not.

A command stops on a broken config file (the user is there to read the one-line error). A hook
must not: a session would lose its memory over a typo, with nothing said. So a hook reads the
layers it can (the global `~/.lorestack/config.toml`, the project's `.memory/config.toml`),
keeps what reads table by table of a file that is not valid TOML (`core.toml_recovery`: only
the broken line or table is left out) and leaves out a key whose value has the wrong type (the
rest of that file still applies) or a `LORESTACK_SECTION__KEY` environment value of the wrong type, and
returns one problem line for each, which the session is told once (`app.secret_notice`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from lorestack.core.errors import ConfigError
from lorestack.core.settings import (
    Settings,
    _env_name,
    _json_object,
    _read_toml,
    compose_settings,
    config_files,
    load_settings,
)


def load_settings_lenient(project_root: Path | None, home: Path | None,
                          **overrides: Any) -> tuple[Settings, list[str]]:
    """(settings, problems): every readable layer, without what is broken in them. Raises
    ConfigError only when what is wrong is an explicit value (a flag)."""
    try:
        return load_settings(project_root, home, **overrides), []
    except ConfigError as exc:
        first = exc
    problems: list[str] = []
    layers: list[tuple[Path, dict[str, Any]]] = []
    for _name, path in config_files(project_root, home):
        try:
            layers.append((path, _read_toml(path)))
        except ConfigError as exc:  # not TOML: what reads table by table is kept
            data, lost = _recovered(path, exc)
            problems.extend(lost)
            if data:
                layers.append((path, data))
    env_skip: set[str] = set()
    for _ in range(64):  # each round leaves out at least one key, or gives up
        try:
            settings = compose_settings(
                {"layer_files": (), "layer_data": tuple(data for _, data in layers),
                 "env_skip": frozenset(env_skip)}, overrides)
            return settings, problems
        except ValidationError as exc:
            left_out = [_leave_out(layers, env_skip, error, overrides)
                        for error in exc.errors()]
            if not any(left_out):
                raise first from exc
            problems.extend(p for p in left_out if p)
    raise first


def _recovered(path: Path, error: ConfigError) -> tuple[dict[str, Any], list[str]]:
    """What reads of a file that is not valid TOML (`core.toml_recovery`); a file that cannot be
    read as text at all is left out whole (the error's own line)."""
    from lorestack.core.toml_recovery import recover

    if not path.is_file():  # a FIFO or device would block the read
        return {}, [str(error)]
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}, [str(error)]
    if text.startswith("\ufeff"):
        text = text[1:]
    return recover(path, text, error.__cause__ or error)


def _leave_out(layers: list[tuple[Path, dict[str, Any]]], env_skip: set[str], error: Any,
               overrides: dict[str, Any]) -> str | None:
    """Drop the value an error is about from the layer it comes from (an environment variable
    is above the files; a flag is not dropped); its problem line."""
    from lorestack.core.overlay import environ

    loc = [str(part) for part in error["loc"]]
    if not loc:
        return None
    section, key = loc[0], (loc[1] if len(loc) > 1 else None)
    dotted = f"{section}.{key}"
    if key is not None and overrides.get(dotted) is not None:
        return None
    variable = _env_name(dotted)
    if key is not None and dotted not in env_skip and variable in environ():
        env_skip.add(dotted)
        return f"environment {variable}: {error['msg']} (left out)"
    whole = _env_name(section)  # a whole section as JSON: LORESTACK_LOADER='{"budget": …}'
    if key is None and section not in env_skip and whole in environ():
        env_skip.add(section)  # not a JSON object at all: the whole variable is left out
        return f"environment {whole}: not a JSON object of {section} settings (left out)"
    in_json = key is not None and key in _json_object(environ().get(whole) or "")
    if in_json and dotted not in env_skip:
        env_skip.add(dotted)
        return f"environment {whole}: {key}: {error['msg']} (left out)"
    for path, data in reversed(layers):
        table = data.get(section)
        if key is not None and isinstance(table, dict) and key in table:
            del table[key]
            return f"{path}: {section}.{key}: {error['msg']} (left out)"
        if section in data and (key is None or not isinstance(table, dict)):
            del data[section]
            return f"{path}: [{section}]: {error['msg']} (left out)"
    return None
