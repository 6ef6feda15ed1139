"""What `config set` checks beyond a setting's type: a path must name something usable.

A model folder that does not hold the model is not refused by its type (a string), and the
mistake shows only later, as every search losing its vector half with a warning. A folder
someone means to fill later is not a reason to accept it: nothing reads the setting until
the model is there, so setting it then costs nothing, while a silent typo costs every search.
"""

from __future__ import annotations

import os

from lorestack.core.errors import ConfigError

# read by the thin client before any settings file is (it imports no TOML): env only
_ENV_ONLY = {"service.runtime_dir": "LORESTACK_SERVICE__RUNTIME_DIR"}


def check_setting_value(dotted: str, value: object) -> None:
    """Raise ConfigError (one line, naming the setting) for a value `config set` must not
    write; the type was checked already."""
    if dotted in _ENV_ONLY:
        raise ConfigError(
            f"{dotted} is read from the environment only ({_ENV_ONLY[dotted]}): a config file "
            "cannot set it; nothing was written")
    if dotted == "embedding.model_dir" and value:
        problem = _model_dir_problem(str(value))
        if problem:
            raise ConfigError(f"embedding.model_dir: {problem}; nothing was written")


def _model_dir_problem(raw: str) -> str | None:
    from lorestack.retrieval.embedding import MODEL_FILES, _model_folder

    path = os.path.expanduser(raw)
    if not os.path.isabs(path):
        return (f"{raw!r} is relative, so it would name another folder from every other "
                "working directory; give an absolute path")
    if not os.path.isdir(path):
        return f"no such folder {path}" if not os.path.exists(path) else f"{path} is not a folder"
    if _model_folder(path) is None:
        return (f"{path} holds no {' + '.join(MODEL_FILES)}, nor an onnx/ folder with them; "
                "point it at the all-MiniLM-L6-v2 onnx folder")
    return None
