"""Nothing on a hook's path waits on the network: no local model means no vectors, not a download."""

from __future__ import annotations

import json

import pytest

from lorestack.core.errors import ConfigError
from lorestack.core.settings import load_settings
from tests.conftest import run_cli


def test_no_model_and_downloads_off_is_a_clear_error(monkeypatch, tmp_path):
    from lorestack.retrieval import embedding

    monkeypatch.delenv("LORESTACK_EMBEDDING__MODEL_DIR", raising=False)
    monkeypatch.setattr(embedding, "CHROMA_CACHE", tmp_path / "no-cache")
    settings = load_settings(**{"embedding.allow_download": False})
    with pytest.raises(ConfigError, match="downloads are off"):
        embedding.resolve_model_dir(settings.embedding)


def test_hooks_open_memory_with_downloads_off(repo):
    from lorestack.integrations.hooks import HookPayload, _open_memory

    mem = _open_memory(HookPayload(client="claude-code", event="prompt", cwd=str(repo)), None)
    assert mem.settings.embedding.allow_download is False
    assert load_settings().embedding.allow_download is True  # commands keep the default


def test_prompt_hook_without_any_model_still_answers(repo, tmp_path):
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import log_event

    log_event(Memory.open(repo), "We pinned ERR_CONN_RESET retries to 3", "decision")
    # a generous deadline: this test is about answering without a model, not about speed
    no_model = {"LORESTACK_EMBEDDING__MODEL_DIR": "", "HOME": str(tmp_path / "nohome"),
                "LORESTACK_HOOKS__PROMPT_DEADLINE_MS": "60000"}
    built = run_cli("reindex", cwd=repo, env={**no_model, "LORESTACK_EMBEDDING__ALLOW_DOWNLOAD": "false"})
    assert built.returncode == 0
    assert "downloads are off" in built.stderr  # said once, on stderr, not silently skipped
    payload = {"session_id": "s1", "cwd": str(repo), "hook_event_name": "UserPromptSubmit",
               "prompt": "how many retries for ERR_CONN_RESET?"}
    result = run_cli("hook", "prompt", "--client", "claude-code", input=json.dumps(payload), cwd=repo,
                     env=no_model)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    out = json.loads(result.stdout)
    # BM25 still finds the identifier without any embedding model
    assert "ERR_CONN_RESET" in out["hookSpecificOutput"]["additionalContext"]
