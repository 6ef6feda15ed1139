"""Writing one setting into a config.toml (`lorestack config set`): validated against the
settings models (their bounds too), the rest of the file kept as it was (tomlkit), replaced
atomically."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from lorestack.core.errors import ConfigError
from lorestack.core.settings import setting_type
from lorestack.memory_layers.fsutil import write_atomic


def write_setting(path: Path, dotted: str, raw: str,
                  screen: Callable[[str], list[str]] | None = None,
                  check: Callable[[str, Any], None] | None = None) -> Any:
    """Validate `raw` for `section.key` and write it into the TOML file at `path`.

    Only that key changes: comments and formatting of the rest of the file stay (tomlkit).
    `screen` names what must not be written (the secret guard's kinds found in the value):
    a project's config.toml is committed with `.memory/`. `check(dotted, typed value)` raises
    for a value its type allows but that cannot work (a path naming nothing usable). Returns
    the typed value written.
    """
    import tomlkit
    from pydantic import TypeAdapter

    found = screen(raw) if screen is not None else []
    if found:
        env = "LORESTACK_" + dotted.upper().replace(".", "__")
        raise ConfigError(
            f"{dotted}: the value looks like a secret ({', '.join(found)}) and {path} is "
            f"committed with the project's memory; nothing was written — set it in the "
            f"environment ({env}) or with --global")

    annotation = setting_type(dotted)
    try:
        value = TypeAdapter(annotation).validate_python(raw, strict=False)
    except ValidationError as exc:
        raise ConfigError(f"{dotted}: {exc.errors()[0]['msg']} (got {raw!r})") from exc
    if isinstance(value, float) and not math.isfinite(value):  # as the settings refuse it
        raise ConfigError(f"{dotted}: Input should be a finite number (got {raw!r})")
    if check is not None:
        check(dotted, value)
    section, _, key = dotted.partition(".")
    try:
        text = path.read_text("utf-8-sig") if path.exists() else ""  # a BOM (Notepad) dropped
    except UnicodeDecodeError as exc:  # e.g. saved as Latin-1
        raise ConfigError(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x}); "
                          "save it as UTF-8 or remove the file") from None
    try:
        doc = tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); fix or remove the file") from exc
    table = doc.get(section)
    if table is None:
        table = tomlkit.table()
        doc[section] = table
    table[key] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, tomlkit.dumps(doc).encode("utf-8"))  # keeps the file's mode
    return value
