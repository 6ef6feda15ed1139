"""Settings layer: shipped default < ~/.memstrata/config.toml < .memory/config.toml < env < flags."""

from __future__ import annotations

import pytest
from memstrata.memory_layers.memory import Memory

from memstrata.core.errors import ConfigError
from memstrata.core.settings import load_settings


def test_shipped_defaults():
    s = load_settings()
    assert s.loader.budget == 2000 and s.retrieval.rrf_k == 10 and s.tokens.encoding == "cl100k_base"


def test_layers_in_order(repo, monkeypatch, tmp_path):
    home = tmp_path / "home" / ".memstrata"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("[loader]\nbudget = 1000\nresident_budget = 500\n[retrieval]\nk = 7\n")
    (repo / ".memory" / "config.toml").write_text("[loader]\nbudget = 1500\n")
    mem = Memory.open(repo)
    assert mem.settings.loader.budget == 1500          # project beats user
    assert mem.settings.loader.resident_budget == 500  # user beats default, merged per key
    assert mem.settings.retrieval.k == 7
    monkeypatch.setenv("MEMSTRATA_LOADER__BUDGET", "1800")
    assert Memory.open(repo).settings.loader.budget == 1800                    # env beats files
    assert Memory.open(repo, **{"loader.budget": 900}).settings.loader.budget == 900  # flags beat env


def test_invalid_value_names_the_setting(repo):
    (repo / ".memory" / "config.toml").write_text("[loader]\nbudget = 'lots'\n")
    with pytest.raises(ConfigError, match="loader.budget"):
        Memory.open(repo)
