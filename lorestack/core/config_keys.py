"""Keys in the user's config.toml files that are not settings (a typo is otherwise silent).

Settings ignore unknown keys so that an older or newer config file still loads; this module
names them instead, for `config show` and `doctor`: "[loader] budgte is not a setting (did
you mean budget?)".
"""

from __future__ import annotations

import difflib
from pathlib import Path


def unknown_keys(project_root: Path | None, home: Path | None) -> list[str]:
    """One line per unknown section or key in the global and project config.toml."""
    from lorestack.core.errors import ConfigError
    from lorestack.core.settings import Settings, _read_toml, config_files

    lines: list[str] = []
    sections = Settings.model_fields
    for _, path in config_files(project_root, home):
        try:
            data = _read_toml(path)
        except ConfigError as exc:  # said by every command that loads the settings
            lines.append(str(exc))
            continue
        for section, values in data.items():
            field = sections.get(section)
            model = getattr(field, "annotation", None) if field else None
            keys = getattr(model, "model_fields", None) if model else None
            if keys is None:
                lines.append(f"{path}: [{section}] is not a settings section"
                             f"{_guess(section, list(sections))}; it has no effect")
                continue
            if not isinstance(values, dict):
                lines.append(f"{path}: {section} must be a [{section}] table")
                continue
            for key in values:
                if key not in keys:
                    lines.append(f"{path}: [{section}] {key} is not a setting"
                                 f"{_guess(key, list(keys))}; it has no effect")
    return lines


def _guess(name: str, known: list[str]) -> str:
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""
