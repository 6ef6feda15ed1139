"""Token counting with tiktoken, offline.

tiktoken downloads its encodings on first use. llama-index-core and litellm ship
`cl100k_base` and `o200k_base` in their packages, so when TIKTOKEN_CACHE_DIR is unset we
point it at such a bundled copy (found on sys.path without importing those packages).
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

_BUNDLED = (
    ("llama_index", "core", "_static", "tiktoken_cache"),
    ("litellm", "litellm_core_utils", "tokenizers"),
)
# tiktoken names cached files by sha1 of the download URL
_ENCODING_FILES = {
    "cl100k_base": "9b5ad71b2ce5302211f9c61530b329a4922fc6a4",
    "o200k_base": "fb374d419588a4632f3f557e76b4b70aebbca790",
}


def bundled_cache_dir() -> Path | None:
    for entry in sys.path:
        for parts in _BUNDLED:
            candidate = Path(entry, *parts)
            if (candidate / _ENCODING_FILES["cl100k_base"]).is_file():
                return candidate
    return None


def ensure_offline_cache() -> None:
    if os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR"):
        return
    found = bundled_cache_dir()
    if found is not None:
        os.environ["TIKTOKEN_CACHE_DIR"] = str(found)


@lru_cache(maxsize=8)
def get_encoding(name: str = "cl100k_base"):
    ensure_offline_cache()
    import tiktoken

    try:
        return tiktoken.get_encoding(name)
    except ValueError as exc:  # an unknown name: a setting to fix, not a bug
        from lorestack.core.errors import ConfigError

        raise ConfigError(f"tokens.encoding {name!r} is not a tiktoken encoding; use one of "
                          f"{', '.join(_ENCODING_FILES)} (shipped for offline use)") from exc
    except Exception as exc:  # noqa: BLE001 - tiktoken downloads any other encoding
        from lorestack.core.errors import ConfigError

        raise ConfigError(f"tokens.encoding {name!r} could not be loaded ({type(exc).__name__}; "
                          "tiktoken downloads it on first use); offline, use one of "
                          f"{', '.join(_ENCODING_FILES)}") from exc


def count_tokens(text: str, encoding: str = "cl100k_base") -> int:
    if not text:
        return 0
    return len(get_encoding(encoding).encode(text, disallowed_special=()))


class TokenCounter:
    """Counts with one encoding; caches nothing but the encoder."""

    def __init__(self, encoding: str = "cl100k_base"):
        self.encoding = encoding
        self._enc = get_encoding(encoding)

    def __call__(self, text: str) -> int:
        return len(self._enc.encode(text, disallowed_special=())) if text else 0

    def truncate(self, text: str, limit: int) -> str:
        tokens = self._enc.encode(text, disallowed_special=())
        return self._enc.decode(tokens[: max(0, limit)])
