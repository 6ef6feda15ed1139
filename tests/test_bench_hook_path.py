"""The bench's `default` mode measures what the prompt hook gives, not another pipeline."""

from __future__ import annotations

from pathlib import Path

from lorestack.bench.ask import hook_context
from lorestack.bench.dataset import ingest_events, read_dataset

CHAT = Path(__file__).parent / "data" / "bench_small_chat.jsonl"


def test_the_bench_default_context_is_the_prompt_hooks_context():
    from lorestack.app.hooks import prompt_context
    from lorestack.core.clients import HookPayload
    from lorestack.retrieval import pool

    line = read_dataset(CHAT, limit=1)[0]
    store = ingest_events(line.events)
    try:
        store.index.close()
        mem = store.mem
        budget = mem.settings.loader.prompt_budget
        questions = [q.question for q in line.questions[:6]]
        warm = pool.IndexPool()
        pool.install(warm)  # the service's warm index, as the hook sees it
        try:
            for n, question in enumerate(questions):
                ours = hook_context(mem, question, budget, None).text
                payload = HookPayload(client="claude-code", event="prompt",
                                      session_id=f"bench-{n}", prompt=question)
                theirs, shown, _ = prompt_context(mem, payload, mem.settings.hooks.prompt_retrieval)
                assert ours and shown
                assert ours == theirs, question
        finally:
            pool.install(None)
            warm.close_all()
    finally:
        store.workdir.cleanup()
