"""Settings layer: shipped default < ~/.lorestack/config.toml < .memory/config.toml < env < flags."""

from __future__ import annotations

import json

import pytest

from lorestack.core.errors import ConfigError
from lorestack.core.settings import load_settings
from lorestack.memory_layers.memory import Memory


def test_shipped_defaults():
    s = load_settings()
    assert s.loader.budget == 2000 and s.retrieval.rrf_k == 10 and s.tokens.encoding == "cl100k_base"


def test_layers_in_order(repo, monkeypatch, tmp_path):
    home = tmp_path / "home" / ".lorestack"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("[loader]\nbudget = 1000\nresident_budget = 500\n[retrieval]\nk = 7\n")
    (repo / ".memory" / "config.toml").write_text("[loader]\nbudget = 1500\n")
    mem = Memory.open(repo)
    assert mem.settings.loader.budget == 1500          # project beats user
    assert mem.settings.loader.resident_budget == 500  # user beats default, merged per key
    assert mem.settings.retrieval.k == 7
    monkeypatch.setenv("LORESTACK_LOADER__BUDGET", "1800")
    assert Memory.open(repo).settings.loader.budget == 1800                    # env beats files
    assert Memory.open(repo, **{"loader.budget": 900}).settings.loader.budget == 900  # flags beat env


def test_invalid_value_names_the_setting(repo):
    (repo / ".memory" / "config.toml").write_text("[loader]\nbudget = 'lots'\n")
    with pytest.raises(ConfigError, match="loader.budget"):
        Memory.open(repo)


def test_shipped_toml_documents_exactly_the_model_defaults():
    """The models are the one source of defaults; configs/default.toml must say the same."""
    import tomllib

    from lorestack.core.settings import Settings, default_config_text

    shipped = tomllib.loads(default_config_text())
    defaults = Settings.model_construct().model_dump()
    assert set(shipped) == set(defaults), "sections differ"
    for section, values in defaults.items():
        assert shipped[section] == values, f"[{section}] in configs/default.toml differs from the model"


def test_invalid_values_name_every_key_and_the_file(repo):
    config = repo / ".memory" / "config.toml"
    config.write_text("[loader]\nbudget = 'lots'\n[retrieval]\nk = 'many'\n")
    with pytest.raises(ConfigError) as err:
        Memory.open(repo)
    message = str(err.value)
    assert "loader.budget" in message and "retrieval.k" in message
    assert str(config) in message


def _cli(*args, input=None):
    from click.testing import CliRunner

    from lorestack.cli.main import cli

    return CliRunner().invoke(cli, list(args), input=input)


def test_user_config_is_honoured_by_install(isolated, tmp_path):
    """Regression: `install` used to read settings without the roots and wrote timeout 10."""
    import json

    home = tmp_path / "home" / ".lorestack"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("[hooks]\nclient_timeout_s = 42\n")
    result = _cli("install", "claude-code", "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    written = json.loads(json.loads(result.output)["content"])
    timeouts = {h["timeout"] for entries in written["hooks"].values() for e in entries
                for h in e["hooks"]}
    assert timeouts == {42}


def test_user_config_model_dir_is_honoured_by_bench_embed(isolated, tmp_path, monkeypatch):
    """Regression: bench read settings without the roots, so embedding.model_dir was ignored."""
    import json

    from tests.conftest import model_dir

    monkeypatch.delenv("LORESTACK_EMBEDDING__MODEL_DIR", raising=False)
    home = tmp_path / "home" / ".lorestack"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(f"[embedding]\nmodel_dir = '{model_dir()}'\n")
    result = _cli("bench", "embed", "--texts", "20", "--json")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["texts"] == 20 and figures["min_cosine"] > 0.999


def test_config_set_get_show_and_path(repo, tmp_path, monkeypatch):
    import json

    config = repo / ".memory" / "config.toml"
    config.write_text("# my notes stay\n[loader]\nbudget = 1500  # tuned by hand\n")
    result = _cli("config", "set", "loader.resident_budget", "700")
    assert result.exit_code == 0, result.output
    text = config.read_text()
    assert "# my notes stay" in text and "# tuned by hand" in text and "resident_budget = 700" in text
    got = json.loads(_cli("config", "get", "loader.resident_budget", "--json").output)
    assert got == {"key": "loader.resident_budget", "value": 700, "source": str(config)}
    shown = {row["key"]: row for row in json.loads(_cli("config", "show", "--json").output)}
    assert shown["loader.budget"]["value"] == 1500 and shown["loader.budget"]["source"] == str(config)
    assert shown["retrieval.k"]["source"] == "default"
    monkeypatch.setenv("LORESTACK_RETRIEVAL__K", "7")
    shown = {row["key"]: row for row in json.loads(_cli("config", "show", "--json").output)}
    assert shown["retrieval.k"] == {"key": "retrieval.k", "value": 7,
                                    "source": "environment LORESTACK_RETRIEVAL__K"}
    assert _cli("config", "set", "--global", "hooks.deadline_ms", "900").exit_code == 0
    assert "deadline_ms = 900" in (tmp_path / "home" / ".lorestack" / "config.toml").read_text()
    paths = json.loads(_cli("config", "path", "--json").output)
    assert [p["layer"] for p in paths] == ["global", "project"] and all(p["exists"] for p in paths)


def test_config_set_refuses_bad_keys_and_values(repo):
    bad_key = _cli("config", "set", "loader.budgett", "5")
    assert bad_key.exit_code != 0 and "unknown setting 'loader.budgett'" in bad_key.output
    assert "budget" in bad_key.output  # names the known keys
    bad_value = _cli("config", "set", "loader.budget", "lots")
    assert bad_value.exit_code != 0 and "loader.budget" in bad_value.output
    assert "Traceback" not in bad_value.output
    assert not (repo / ".memory" / "config.toml").exists()


def test_config_set_checks_path_settings(repo, tmp_path):
    """A model folder that does not exist, or holds no model, was written silently and every
    search then lost its vector half; a relative one worked only from the folder it was set in."""
    import os

    config = repo / ".memory" / "config.toml"
    empty = tmp_path / "empty model"
    empty.mkdir()
    for value, says in ((str(tmp_path / "nonexistent"), "no such folder"),
                        (str(empty), "holds no model.onnx"),
                        ("models/onnx", "absolute path")):
        refused = _cli("config", "set", "embedding.model_dir", value)
        assert refused.exit_code == 1, (value, refused.output)
        assert refused.stderr.count("\n") == 1 and says in refused.stderr, refused.stderr
        assert "embedding.model_dir" in refused.stderr and "nothing was written" in refused.stderr
        assert not config.exists()
    # the runtime dir is read from the environment only: in a config file it did nothing
    ignored = _cli("config", "set", "--global", "service.runtime_dir", str(tmp_path))
    assert ignored.exit_code == 1 and "LORESTACK_SERVICE__RUNTIME_DIR" in ignored.stderr
    from tests.conftest import model_dir

    model = str(model_dir())
    for good in (model, os.path.dirname(model), ""):  # the onnx folder, its parent, unset
        assert _cli("config", "set", "embedding.model_dir", good).exit_code == 0, good


def test_user_config_is_honoured_by_hooks(repo, tmp_path, long_hook_deadlines):
    """The hook path reads the same layers: ~/.lorestack/config.toml shapes what it answers.
    (Long deadlines: with the shipped ones a loaded machine made the first answer empty once.)"""
    from tests.conftest import run_cli

    payload = json.dumps({"session_id": "s1", "cwd": str(repo), "hook_event_name": "SessionStart"})
    before = run_cli("hook", "session-start", "--client", "claude-code", input=payload, cwd=repo)
    assert before.returncode == 0 and "additionalContext" in before.stdout
    home = tmp_path / "home" / ".lorestack"
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text("[loader]\nbudget = 0\n")
    after = run_cli("hook", "session-start", "--client", "claude-code", input=payload, cwd=repo)
    assert after.returncode == 0 and "additionalContext" not in after.stdout


def test_a_misspelt_setting_is_named_by_config_show_and_doctor(repo, tmp_path):
    """Trial finding: `[loader] budgte = 3000` (or a misspelt section) was ignored in silence by
    every command, `config show` and `doctor` included. Now both name it, with the likely key;
    it still loads (an older or newer file must), and a clean file gives no warning."""
    config = repo / ".memory" / "config.toml"
    config.write_text("[loader]\nbudget = 1500\nbudgte = 3000\n[hookz]\ndeadline_ms = 1\n")
    (tmp_path / "home" / ".lorestack").mkdir(parents=True, exist_ok=True)
    (tmp_path / "home" / ".lorestack" / "config.toml").write_text(
        "[hooks]\nprompt_deadline = 4000\n")
    shown = _cli("config", "show")
    assert shown.exit_code == 0
    warnings = [line for line in shown.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 3, shown.stderr
    assert any("[loader] budgte" in w and "did you mean budget?" in w and str(config) in w
               for w in warnings)
    assert any("[hookz]" in w and "did you mean hooks?" in w for w in warnings)
    assert any("prompt_deadline" in w and "prompt_deadline_ms" in w for w in warnings)
    assert "loader.budget" in shown.stdout and "1500" in shown.stdout
    doctor = json.loads(_cli("doctor", "--json").stdout)
    assert len(doctor["config"]) == 3 and any("budgte" in line for line in doctor["config"])
    config.write_text("[loader]\nbudget = 1500\n")
    (tmp_path / "home" / ".lorestack" / "config.toml").write_text("")
    clean = _cli("config", "show")
    assert "warning:" not in clean.stderr and json.loads(_cli("doctor", "--json").stdout)[
        "config"] == []


@pytest.mark.parametrize("text, key", [("[retrieval]\nk = 0\n", "retrieval.k"),
                                       ("[retrieval]\nrrf_k = -10\n", "retrieval.rrf_k"),
                                       ("[loader]\nbudget = -5\n", "loader.budget")])
def test_out_of_range_settings_are_refused_by_name(repo, text, key):
    """Trial finding: `retrieval.k = 0` made every search answer 'no matches' and
    `retrieval.rrf_k = -10` crashed it with ZeroDivisionError ('a bug in lorestack'). A
    setting out of range is now one line naming it and the file, from the file or from
    `config set` (which wrote `loader.budget = -5` before)."""
    config = repo / ".memory" / "config.toml"
    config.write_text(text)
    searched = _cli("search", "anything")
    assert searched.exit_code == 1
    assert key in searched.stderr and str(config) in searched.stderr
    assert "bug" not in searched.stderr and "Traceback" not in searched.stderr
    config.unlink()
    refused = _cli("config", "set", key, "--", "-5")
    assert refused.exit_code == 1 and "greater than or equal" in refused.stderr
    assert not config.exists()


def test_an_unknown_token_encoding_is_a_setting_to_fix_not_a_bug(repo, monkeypatch):
    """Trial finding: `tokens.encoding = "bogus"` gave 'unexpected ValueError ... this is a
    bug in lorestack' over three lines."""
    monkeypatch.setenv("LORESTACK_TOKENS__ENCODING", "bogus")
    shown = _cli("context", "--query", "x")
    assert shown.exit_code == 1
    assert shown.stderr.strip().count("\n") == 0, shown.stderr
    assert "tokens.encoding 'bogus'" in shown.stderr and "cl100k_base" in shown.stderr
    assert "bug" not in shown.stderr


@pytest.mark.parametrize("value, said", [
    ('{"budget": "lots"}', "loader.budget (environment LORESTACK_LOADER): Input should be"),
    ("{budget: lots", "loader (environment LORESTACK_LOADER): not a JSON object"),
    ("[500]", "loader (environment LORESTACK_LOADER): not a JSON object"),
])
def test_a_whole_section_in_one_variable_is_read_or_named(tmp_path, monkeypatch, value, said):
    # not JSON was silently unused; a bad key in it was blamed on "default"
    from lorestack.core.settings_lenient import load_settings_lenient

    shipped = load_settings(tmp_path, None).loader.budget
    monkeypatch.setenv("LORESTACK_LOADER", value)
    with pytest.raises(ConfigError) as caught:
        load_settings(tmp_path, None)
    assert said in str(caught.value)
    settings, problems = load_settings_lenient(tmp_path, None)
    assert settings.loader.budget == shipped
    assert len(problems) == 1 and "LORESTACK_LOADER" in problems[0]
    monkeypatch.setenv("LORESTACK_LOADER", '{"budget": 777}')
    assert load_settings(tmp_path, None).loader.budget == 777
