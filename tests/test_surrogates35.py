"""The one helper for lone UTF-16 surrogates, and the three readers that use it."""

from __future__ import annotations

import pytest

from lorestack.core.clients import strip_injected
from lorestack.core.errors import InputRejected
from lorestack.core.surrogates import (
    first_lone_surrogate,
    replace_lone_surrogates,
    replace_lone_surrogates_in,
)
from lorestack.integrations.mcp_server import scrubbed_line
from memory_layers.input_check import check_input_text


def test_helpers_find_and_replace_halves_but_keep_whole_characters():
    text = "ok \U0001F600 then \ud83d cut"
    assert first_lone_surrogate(text) == text.index("\ud83d")
    assert first_lone_surrogate("plain \U0001F600") is None
    assert replace_lone_surrogates(text) == "ok \U0001F600 then \ufffd cut"
    nested = {"k\udc80": ["a\ud800", 3, None, {"x": "\udfff"}]}
    assert replace_lone_surrogates_in(nested) == {"k\ufffd": ["a\ufffd", 3, None, {"x": "\ufffd"}]}


def test_the_three_readers_agree():
    assert strip_injected("half \ud83d emoji") == "half \ufffd emoji"
    line = '{"jsonrpc":"2.0","id":1,"params":{"t":"a\\ud83db"}}\n'
    assert "a\ufffdb" in scrubbed_line(line)
    with pytest.raises(InputRejected, match="at character 4"):
        check_input_text("abcd\udc80", where="the text", outcome="nothing stored")
