"""A hook's usage record (access reinforcement for decay) is written once its reply is out:
the writer of the reply (the in-process hook after flushing stdout, the service after its
send) hands it on, as it does a notice's "told" mark. Before, the loader wrote it inside the
hook's work, before the reply (~28 ms of a cold prompt), and a BM25 answer kept for a full
recall that then made the deadline was recorded too, though never sent."""

from __future__ import annotations

import json
import sqlite3

import pytest

from lorestack.app.secret_notice import give_back, hand_on, told_after_reply
from lorestack.integrations.hooks import run_hook


def _usage(repo) -> dict[str, int]:
    path = repo / ".memory" / ".index" / "usage.sqlite"
    if not path.exists():
        return {}
    db = sqlite3.connect(str(path))
    try:
        return dict(db.execute("SELECT id, count FROM usage WHERE count > 0"))
    except sqlite3.OperationalError:  # no table yet
        return {}
    finally:
        db.close()


def _prompt(repo, session: str = "s1") -> tuple[str, list]:
    payload = json.dumps({"session_id": session, "cwd": str(repo), "hook_event_name":
                          "UserPromptSubmit", "prompt": "which read replica do the reports use?"})
    with told_after_reply() as held:
        run = run_hook("prompt", "claude-code", payload, root=str(repo))
    return run.output, held


@pytest.mark.parametrize("mode", ["bm25", "default"])
def test_a_prompt_is_recorded_only_once_its_reply_is_handed_on(journal_store, long_hook_deadlines,
                                                                monkeypatch, mode):
    monkeypatch.setenv("LORESTACK_HOOKS__PROMPT_RETRIEVAL", mode)
    output, held = _prompt(journal_store)
    assert "ORCHID-7" in output
    assert _usage(journal_store) == {}  # the reply is not out yet
    hand_on(held)
    recorded = _usage(journal_store)
    assert recorded and set(recorded.values()) == {1}  # the BM25 answer kept aside is not counted


def test_a_reply_that_did_not_get_out_is_not_recorded(journal_store, long_hook_deadlines,
                                                       monkeypatch):
    monkeypatch.setenv("LORESTACK_HOOKS__PROMPT_RETRIEVAL", "bm25")
    output, held = _prompt(journal_store)
    assert "ORCHID-7" in output
    give_back(held)
    assert _usage(journal_store) == {}


def test_a_context_command_still_records_at_once(journal_store):
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.loader import assemble_context

    result = assemble_context(Memory.open(journal_store), query="read replica ORCHID-7",
                              tiers=("topk",), recent=False, retrieval="bm25", sync=False)
    assert "ORCHID-7" in result.text
    assert _usage(journal_store)
