"""The service's BM25 answer made at half the deadline (`late_fallback`, on a timer thread)
runs in the hook's own context, as the full recall does: its deadline
(`core.guarded.current_deadline`, which bounds a wait for another request's opening of the
index) and a skipped warm-up's mark (`pool.not_warmed`: open no pooled index). A
`threading.Timer` starts with an empty context, so the fallback waited for an opening with no
bound and could open the index beside another memory's warm-up."""

from __future__ import annotations

import json
import threading

from lorestack.app import hooks
from lorestack.integrations.hooks import run_hook


def test_the_late_bm25_answer_runs_under_the_hooks_deadline(journal_store, monkeypatch):
    from lorestack.core.guarded import current_deadline
    from lorestack.memory_layers import parse_cache

    monkeypatch.setenv("LORESTACK_HOOKS__PROMPT_RETRIEVAL", "default")
    real = hooks.prompt_context
    seen: dict = {}
    fallback_ran = threading.Event()

    def watched(mem, payload, retrieval, fallback=False):
        if fallback:
            seen["fallback"] = current_deadline()
            fallback_ran.set()
        else:  # the full recall is busy until the fallback has run (a bound only on a hang)
            seen["full"] = current_deadline()
            fallback_ran.wait(60)
        return real(mem, payload, retrieval, fallback=fallback)

    monkeypatch.setattr(hooks, "prompt_context", watched)
    payload = json.dumps({"session_id": "s1", "cwd": str(journal_store),
                          "hook_event_name": "UserPromptSubmit",
                          "prompt": "which read replica do the reports use?"})
    parse_cache.enable(True)  # the service's path: the fallback only when the full one is late
    try:
        run_hook("prompt", "claude-code", payload, root=str(journal_store),
                 deadline_ms=120_000)
    finally:
        parse_cache.enable(False)
    assert fallback_ran.is_set()
    assert seen["full"] is not None
    assert seen["fallback"] is seen["full"]
