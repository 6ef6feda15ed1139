"""A `.memory` folder that cannot be written (read-only mount, permissions) is named as such,
never taken for corruption: no rebuild that deletes indexes it cannot write back, and recall
in hooks still answers from what can be read (trial finding).

Tests run as root here, and root ignores permission bits, so `chmod -R a-w` alone changes
nothing. The failure is made real at the narrowest point: every sqlite file lorestack opens is
opened with `mode=ro`, so a write raises sqlite's own "attempt to write a readonly database".
(A read-only bind mount was checked by hand; see the commit message.)
"""

from __future__ import annotations

import json
import os
import sqlite3

import pytest
from click.testing import CliRunner

from tests.conftest import run_cli


@pytest.fixture
def read_only(repo, monkeypatch):
    facts = repo / ".memory" / "facts"
    (facts / "kafka.md").write_text(
        "---\nid: kafka\ntype: fact\ntitle: Kafka consumer deploys\n---\n"
        "We deploy the kafka consumer with blue green.\n")
    assert run_cli("reindex", cwd=repo, timeout=300).returncode == 0
    (facts / "redis.md").write_text(  # a change the next search would sync: it must write
        "---\nid: redis\ntype: fact\ntitle: Redis streams\n---\nRedis streams queue.\n")
    for root, dirs, files in os.walk(repo / ".memory"):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o555 if name in dirs else 0o444)
    real = sqlite3.connect

    def connect(database, *args, **kwargs):
        if isinstance(database, str) and not database.startswith("file:"):
            database, kwargs["uri"] = f"file:{database}?mode=ro", True
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", connect)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("LORESTACK_SERVICE__ENABLED", "false")
    return repo


def test_search_names_a_read_only_store_and_destroys_nothing(read_only):
    from lorestack.cli.main import cli

    index = read_only / ".memory" / ".index"
    before = sorted(p.name for p in index.iterdir())
    result = CliRunner().invoke(cli, ["search", "kafka consumer"])
    assert result.exit_code == 1
    assert "is read-only" in result.output and "unexpected" not in result.output
    assert "rebuilding" not in result.output
    # nothing deleted (root may still add sqlite's -wal/-shm beside a file opened read-only)
    assert set(before) <= {p.name for p in index.iterdir()}
    assert (index / "tantivy" / "meta.json").is_file()
    assert (index / "chroma" / "chroma.sqlite3").is_file()


def test_prompt_hook_on_a_read_only_store_still_recalls(read_only, long_hook_deadlines):
    # long deadlines: past the shipped one the in-process hook ends with os._exit(0), which
    # took the whole pytest process with it at load 9 (no summary)
    from lorestack.cli.main import cli

    payload = {"session_id": "ro", "cwd": str(read_only), "hook_event_name": "UserPromptSubmit",
               "prompt": "how do we deploy the kafka consumer?"}
    result = CliRunner().invoke(cli, ["hook", "prompt", "--client", "claude-code"],
                                input=json.dumps(payload))
    assert result.exit_code == 0
    context = json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "kafka consumer" in context
