"""Lone UTF-16 surrogates: half of an emoji's pair, alone in a str.

JSON may escape half a pair on its own (`\\ud83d`: text cut inside an emoji, which a JS
client sends as is), and Python decodes undecodable bytes to such halves with
`surrogateescape`. No UTF-8 file, tokenizer or JSON-RPC parser takes one. Readers that
pass text on replace each with U+FFFD; readers that store what the user typed refuse it.
"""

from __future__ import annotations

import re
from typing import Any

LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def first_lone_surrogate(text: str) -> int | None:
    """Where the first lone surrogate in `text` is, or None."""
    found = LONE_SURROGATE.search(text)
    return None if found is None else found.start()


def replace_lone_surrogates(text: str) -> str:
    """`text` with each lone surrogate replaced by U+FFFD."""
    return LONE_SURROGATE.sub("\ufffd", text)


def replace_lone_surrogates_in(value: Any) -> Any:
    """A JSON value (str, list, dict, or a scalar) with each string's lone surrogates,
    keys included, replaced by U+FFFD."""
    if isinstance(value, str):
        return replace_lone_surrogates(value)
    if isinstance(value, list):
        return [replace_lone_surrogates_in(v) for v in value]
    if isinstance(value, dict):
        return {replace_lone_surrogates_in(k): replace_lone_surrogates_in(v)
                for k, v in value.items()}
    return value
