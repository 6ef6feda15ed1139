"""An in-process `lorestack hook` whose reply cannot be written (the client closed its end of
the pipe: it gave up on the hook) exits 0, records nothing for that reply (usage, what the
session received) and says so in hooks.log in one line; it logged a traceback of the
BrokenPipeError. Real CLI process, real store and index."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys


def test_a_reply_the_client_did_not_read_is_one_line_in_hooks_log(journal_store,
                                                                  long_hook_deadlines,
                                                                  monkeypatch):
    monkeypatch.setenv("LORESTACK_HOOKS__PROMPT_RETRIEVAL", "bm25")
    payload = json.dumps({"session_id": "s1", "cwd": str(journal_store),
                          "hook_event_name": "UserPromptSubmit",
                          "prompt": "which read replica do the reports use?"})
    read_end, write_end = os.pipe()
    os.close(read_end)  # the client is gone before the reply
    try:
        proc = subprocess.run([sys.executable, "-m", "lorestack.cli", "hook", "prompt"],
                              input=payload.encode(), stdout=write_end,
                              stderr=subprocess.PIPE, cwd=journal_store, timeout=300)
    finally:
        os.close(write_end)
    assert proc.returncode == 0 and proc.stderr == b""
    log = (journal_store / ".memory" / ".index" / "hooks.log").read_text()
    assert "Traceback" not in log, log
    assert "reply not written" in log
    usage = journal_store / ".memory" / ".index" / "usage.sqlite"
    if usage.exists():
        db = sqlite3.connect(str(usage))
        try:
            assert db.execute("SELECT count(*) FROM usage WHERE count > 0").fetchone()[0] == 0
        finally:
            db.close()
