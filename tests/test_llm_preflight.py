"""A configured model that cannot be called is found before the first call, and only errors
that a retry can fix are retried."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from lorestack.cli.main import cli
from lorestack.core.errors import LLMError
from lorestack.core.settings import load_settings
from lorestack.retrieval.llm import LLMClient, credentials_problem


class Answer(BaseModel):
    claim: str


def _journal(repo):
    runner = CliRunner()
    for text in ("We use Postgres 16 for the main database", "Postgres 16 is the main database"):
        assert runner.invoke(cli, ["log", text, "--kind", "decision"]).exit_code == 0


def test_missing_key_is_one_line_and_falls_back_to_extractive(repo, monkeypatch):
    for var in ("OPENAI_API_KEY", "AZURE_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    _journal(repo)
    done = CliRunner().invoke(
        cli, ["consolidate", "--dry-run", "--model", "openai/gpt-4o-mini", "--json"]
    )
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["method"] == "extractive" and report["llm_calls"] == 0
    assert report["added"] or report["merged"]  # the extractive path did the work
    notes = [n for n in report["notes"] if "OPENAI_API_KEY" in n]
    assert len(notes) == 1 and "extractive path" in notes[0]
    assert not report["skipped"]

    human = CliRunner().invoke(cli, ["consolidate", "--dry-run", "--model", "openai/gpt-4o-mini"])
    assert "extractive (model unavailable)" in human.output
    assert human.stderr.count("OPENAI_API_KEY") == 1

    strict = CliRunner().invoke(
        cli, ["consolidate", "--dry-run", "--model", "openai/gpt-4o-mini", "--require-llm"]
    )
    assert strict.exit_code == 1
    assert "OPENAI_API_KEY" in strict.output and "Traceback" not in strict.output


def test_local_api_base_needs_no_key(isolated, monkeypatch):
    settings = load_settings().llm.model_copy(
        update={"model": "openai/x", "api_base": "http://127.0.0.1:9"}
    )
    assert credentials_problem(settings) is None
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert "OPENAI_API_KEY" in credentials_problem(settings.model_copy(update={"api_base": ""}))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert credentials_problem(settings.model_copy(update={"api_base": ""})) is None


@pytest.mark.parametrize("status", [401, 403, 404, 400])
def test_permanent_errors_are_not_retried(fake_llm, status):
    server = fake_llm([{"status": status}] * 4)
    with pytest.raises(LLMError) as err:
        LLMClient(load_settings().llm).complete_json([{"role": "user", "content": "x"}], Answer)
    assert len(server.requests) == 1, f"HTTP {status} was retried"
    assert "after 1 attempt(s)" in str(err.value)


def test_server_errors_are_still_retried(fake_llm):
    server = fake_llm([{"status": 503}, '{"claim": "ok"}'])
    result = LLMClient(load_settings().llm).complete_json(
        [{"role": "user", "content": "x"}], Answer
    )
    assert result.value.claim == "ok" and len(server.requests) == 2


def test_known_providers_are_checked_without_litellm(isolated, monkeypatch):
    settings = load_settings().llm
    for var in ("GEMINI_API_KEY", "GOOGLE_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(var, raising=False)
    problem = credentials_problem(settings.model_copy(update={"model": "gemini/gemini-2.0-flash"}))
    assert "GEMINI_API_KEY or GOOGLE_API_KEY" in problem
    monkeypatch.setenv("GOOGLE_API_KEY", "g-test")
    assert (
        credentials_problem(settings.model_copy(update={"model": "gemini/gemini-2.0-flash"}))
        is None
    )
    assert "ANTHROPIC_API_KEY" in credentials_problem(
        settings.model_copy(update={"model": "claude-3-5-haiku-latest"})
    )
    # a local provider litellm knows needs no key: ollama's *_API_BASE has a default
    assert credentials_problem(settings.model_copy(update={"model": "ollama/llama3"})) is None
