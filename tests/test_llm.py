"""The shared LLM client through litellm's real HTTP path against a scripted local server."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from lorestack.core.errors import LLMError
from lorestack.core.settings import load_settings
from lorestack.retrieval.llm import LLMClient


class Answer(BaseModel):
    claim: str
    confidence: float


def client():
    return LLMClient(load_settings().llm)


def test_valid_reply_is_validated_and_counted(fake_llm):
    server = fake_llm(['{"claim": "queue is Redis streams", "confidence": 0.8}'])
    llm = client()
    result = llm.complete_json([{"role": "user", "content": "hi"}], Answer)
    assert result.value == Answer(claim="queue is Redis streams", confidence=0.8)
    assert llm.usage.calls == 1 and llm.usage.prompt_tokens == 100
    assert server.requests[0]["model"] == "fake-model"


def test_malformed_then_valid_is_retried(fake_llm):
    fake_llm(["not json at all", '```json\n{"claim": "x", "confidence": 1}\n```'])
    result = client().complete_json([{"role": "user", "content": "hi"}], Answer)
    assert result.value.claim == "x" and result.attempts == 2


def test_refusal_every_time_raises(fake_llm):
    fake_llm(["I can't help with that."] * 5)
    with pytest.raises(LLMError, match="did not validate"):
        client().complete_json([{"role": "user", "content": "hi"}], Answer)


def test_server_error_is_transient_then_recovers(fake_llm):
    fake_llm([{"status": 500}, '{"claim": "ok", "confidence": 0.5}'])
    assert client().complete_json([{"role": "user", "content": "x"}], Answer).value.claim == "ok"


def test_timeout_is_an_llm_error(fake_llm):
    fake_llm([{"delay": 3, "content": "{}"}] * 3, timeout_s=0.5)
    with pytest.raises(LLMError):
        client().complete_json([{"role": "user", "content": "x"}], Answer)


def test_secrets_never_reach_the_server(fake_llm):
    server = fake_llm(['{"claim": "c", "confidence": 1}'])
    client().complete_json(
        [{"role": "user", "content": "deploy with token ghp_abcdefghijklmnopqrstuvwxyz0123456789"}], Answer)
    assert "ghp_abcdef" not in server.prompts()[0]
    assert "[REDACTED" in server.prompts()[0]
