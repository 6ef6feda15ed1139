"""A config.toml that is not valid TOML, read by a hook: only the broken line or table is left
out, and the notice names it (one bad line used to drop the whole file, so the guardrail and
the secret guard ran on shipped settings without a word about them)."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.service_helpers import context_of, hook
from tests.service_helpers import stocked as stocked  # noqa: F401 - fixture


def _lenient(project, home):
    from lorestack.core.settings_lenient import load_settings_lenient

    return load_settings_lenient(project, home)


@pytest.fixture
def layers(tmp_path):
    project, home = tmp_path / "p", tmp_path / "h"
    project.mkdir()
    home.mkdir()
    return project, home


def test_a_bad_line_leaves_out_that_key_only(layers):
    project, home = layers
    config = project / "config.toml"
    config.write_text("retrieval.k = 3\nloader.budget = \n[loader]\nprompt_budget = 777\n"
                      "oops\n[guardrail]\nhook_deadline_ms = 1234\n[guard]\nredact = true\n")
    settings, problems = _lenient(project, home)
    assert settings.retrieval.k == 3 and settings.loader.prompt_budget == 777
    assert settings.guardrail.hook_deadline_ms == 1234 and settings.guard.redact is True
    assert len(problems) == 2 and all(str(config) in p for p in problems)
    assert "line 2" in problems[0] and "loader.budget left out" in problems[0]
    assert "line 5" in problems[1] and "that line left out" in problems[1]
    assert not any("shipped settings" in p for p in problems)


def test_the_guards_say_they_run_on_shipped_settings(layers):
    project, home = layers
    (project / "config.toml").write_text(
        "[loader]\nprompt_budget = 777\n[guardrail]\nhook_deadline_ms = \n[guard\nredact = true\n")
    settings, problems = _lenient(project, home)
    assert settings.loader.prompt_budget == 777 and settings.guard.redact is False
    assert len(problems) == 2
    assert "guardrail.hook_deadline_ms left out" in problems[0]
    assert "the guardrail runs on shipped settings for guardrail.hook_deadline_ms" in problems[0]
    assert "[guard] (lines 5-6); that table is left out" in problems[1]
    assert "the secret guard runs on shipped settings for [guard]" in problems[1]


def test_sub_tables_and_a_key_set_twice(tmp_path):
    from lorestack.core.toml_recovery import recover

    path = tmp_path / "c.toml"
    text = ("[a.b]\nx = 1\n[a.c]\ny = 2\nbad = [1,\n[a]\nz = 3\n[a.b]\nx = 9\n"
            "[[items]]\nn = 1\n[[items]]\nn = 2\n")
    data, problems = recover(path, text, ValueError("x"))
    assert data["a"] == {"b": {"x": 1}, "c": {"y": 2}, "z": 3}
    assert data["items"] == [{"n": 1}, {"n": 2}]
    assert any("a.c.bad left out" in p for p in problems)
    assert any("[a.b] (line 8) sets a.b.x again" in p for p in problems)


def test_a_hook_tells_which_key_was_left_out_and_a_command_still_stops(stocked,  # noqa: F811
                                                                       long_hook_deadlines):
    config = stocked / ".memory" / "config.toml"
    config.write_text("[guardrail]\nllm = yes please\n[loader]\nbudget = 4000\n")
    payload = {"session_id": "r1", "cwd": str(stocked), "prompt": "refunds"}
    start = context_of(hook("session-start", payload, stocked))
    assert "ledger service" in start
    told = [line for line in start.splitlines() if "settings file is broken" in line]
    assert len(told) == 1 and "guardrail.llm left out" in told[0]
    assert "the guardrail runs on shipped settings for guardrail.llm" in told[0]
    listed = run_cli("list", cwd=stocked)
    assert listed.returncode != 0 and "not valid TOML" in listed.stderr
    assert len(listed.stderr.strip().splitlines()) == 1 and "Traceback" not in listed.stderr


def test_no_key_is_read_into_another_table_or_out_of_a_broken_value(tmp_path):
    """Review findings: a header missing its opening bracket put the next table's keys into the
    table above (`mode = "block"` read as loader.mode); `[guard]` inside a multi-line string
    was cut as a header, so a quoted line became guard.threshold; a broken array element left
    the rest of the array as a value nobody wrote."""
    from lorestack.core.toml_recovery import recover

    path = tmp_path / "c.toml"
    data, problems = recover(path, '[loader]\nbudget = 500\nguardrail]\nmode = "block"\n',
                             ValueError("x"))
    assert data == {"loader": {"budget": 500}}
    assert len(problems) == 1 and "line 3" in problems[0]
    assert "the guardrail runs on shipped settings for [guardrail]" in problems[0]

    data, problems = recover(path, "[loader]\nbudget = 5x\nnote = '''\n[guard]\n"
                             "threshold = 1.0\n'''\n", ValueError("x"))
    assert data == {"loader": {"note": "[guard]\nthreshold = 1.0\n"}}
    assert len(problems) == 1 and "loader.budget left out" in problems[0]
    assert not any("secret guard" in p for p in problems)

    data, problems = recover(path, "ports = [\n  1,\n  2 3,\n]\ny = 2\n[guard]\nredact = true\n",
                             ValueError("x"))
    assert data == {"y": 2, "guard": {"redact": True}}
    assert len(problems) == 1 and "key ports left out" in problems[0]
