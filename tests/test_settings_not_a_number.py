"""A setting that is not a finite number (nan, inf) is a broken value like any other (qa32u).

TOML and the environment can spell `nan` and `inf`, and the settings took them for floats:
`loader.catalog_share = nan` made `lorestack context` stop with "unexpected ValueError:
cannot convert float NaN to integer (this is a bug in lorestack)", every session-start hook
answer nothing (a traceback in hooks.log), `config set` wrote it without a word, and
`config show --json` printed `NaN`, which is not JSON (JSON.parse refuses it).
"""

from __future__ import annotations

import json

import pytest

from tests import service_helpers
from tests.conftest import run_cli
from tests.service_helpers import context_of, hook

stocked = service_helpers.stocked  # fixture


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_config_set_refuses_a_value_that_is_not_a_finite_number(repo, value):
    result = run_cli("config", "set", "loader.catalog_share", value, "--json", cwd=repo)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stdout == "" and "loader.catalog_share" in result.stderr
    assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (repo / ".memory" / "config.toml").exists()


def test_nan_in_config_toml_stops_a_command_in_one_line_and_not_a_session(
        stocked, long_hook_deadlines):
    config = stocked / ".memory" / "config.toml"
    config.write_text("[loader]\ncatalog_share = nan\n")
    context = run_cli("context", "--json", cwd=stocked)
    assert context.returncode == 1 and context.stdout == ""
    assert "loader.catalog_share" in context.stderr and "bug" not in context.stderr
    start = context_of(hook("session-start", {"session_id": "n1", "cwd": str(stocked)}, stocked))
    assert "ledger service" in start  # the memory still arrives, without the broken key
    assert "loader.catalog_share" in start  # and the session is told what was left out


def test_inf_in_the_environment_is_left_out_by_a_hook(stocked, long_hook_deadlines):
    env = {"LORESTACK_LOADER__JOURNAL_SHARE": "inf"}
    listed = run_cli("context", "--json", cwd=stocked, env=env)
    assert listed.returncode == 1 and "LORESTACK_LOADER__JOURNAL_SHARE" in listed.stderr
    start = context_of(hook("session-start", {"session_id": "n2", "cwd": str(stocked)},
                            stocked, env=env))
    assert "ledger service" in start


def test_config_show_json_is_strict_json(repo):
    shown = run_cli("config", "show", "--json", cwd=repo)
    assert shown.returncode == 0
    json.loads(shown.stdout, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
