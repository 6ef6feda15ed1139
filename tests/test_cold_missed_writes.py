"""A memory written while no service ran reaches the first prompt, answered in-process.

`lorestack remember` (and `log`, `supersede`, a hand edit, a `git pull`) with no service
running writes the file and nothing else; hooks search without syncing, so a cold prompt hook
never had it until some command synced the index (review of the nineteenth session). The cold
hook now brings the word index up to the files before its BM25 answer, without opening Chroma
or embedding, and without waiting for the sync lock.
Whole `lorestack hook prompt` processes, no service, a real store (files, tantivy, Chroma, the
ONNX model); asserted on what is answered and on the index's state, never on time."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import LONG_HOOK_DEADLINES, model_dir, run_cli, run_cli_cold_always_late

FACT = "The reporting read replica is ORCHID-7 on port 6432"


@pytest.fixture
def indexed(repo):
    """Two unrelated items, indexed (words and vectors)."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember
    from lorestack.retrieval.index import MemoryIndex

    mem = Memory.open(repo, **{"embedding.model_dir": str(model_dir())})
    remember(mem, "Refunds are written through the ledger service, never with direct SQL",
             "decision")
    remember(mem, "Never run migrations on Friday afternoons", "caveat")
    index = MemoryIndex(mem)
    index.sync()
    index.close()
    return repo


def _env(deadline_ms: str, mode: str = "default") -> dict:
    return {**LONG_HOOK_DEADLINES, "LORESTACK_HOOKS__PROMPT_DEADLINE_MS": deadline_ms,
            "LORESTACK_EMBEDDING__MODEL_DIR": str(model_dir()),
            "LORESTACK_HOOKS__PROMPT_RETRIEVAL": mode}


def _cold_prompt(repo, deadline_ms: str = "600000", mode: str = "default") -> tuple[str, str]:
    """(context, what hooks.log gained) of one whole hook process with no service."""
    log = repo / ".memory" / ".index" / "hooks.log"
    before = log.stat().st_size if log.exists() else 0
    payload = json.dumps({"session_id": "cold", "cwd": str(repo), "hook_event_name":
                          "UserPromptSubmit", "prompt": "which read replica do the reports use?"})
    late = deadline_ms == "late"  # the cold full recall estimated not to fit a long deadline
    run = run_cli_cold_always_late if late else run_cli
    done = run("hook", "prompt", "--client", "claude-code", input=payload, cwd=repo,
               env=_env("600000" if late else deadline_ms, mode))
    assert done.returncode == 0, done.stderr
    out = done.stdout.strip()
    context = json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""
    return context, log.read_bytes()[before:].decode() if log.exists() else ""


def _state(repo) -> tuple[str | None, int]:
    """(catalog state, documents in Chroma), read without syncing."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import MemoryIndex

    index = MemoryIndex(Memory.open(repo, **{"embedding.model_dir": str(model_dir())}))
    try:
        return index.catalog.get_meta("state"), index.vectors.collection().count()
    finally:
        index.close()


@pytest.mark.parametrize(("deadline_ms", "mode"), [
    ("600000", "default"),  # the full recall
    ("late", "default"),  # the BM25 answer sent at once
    ("600000", "bm25"),  # prompts set to BM25 recall
])
def test_a_fact_remembered_with_no_service_is_in_the_first_cold_prompt(indexed, deadline_ms,
                                                                        mode):
    done = run_cli("remember", FACT, "--type", "fact", cwd=indexed, env=_env("600000"))
    assert done.returncode == 0, done.stderr
    _, vectors = _state(indexed)
    context, log = _cold_prompt(indexed, deadline_ms, mode)
    assert "ORCHID-7" in context, log
    # the words only: nothing embedded by the hook, and the next full sync knows it must
    state, after = _state(indexed)
    assert (state, after) == ("text", vectors)
    done = run_cli("search", "ORCHID-7", cwd=indexed, env=_env("600000"))
    assert done.returncode == 0, done.stderr
    assert _state(indexed) == ("clean", vectors + 1)


def test_a_file_added_by_hand_reaches_the_cold_prompt(indexed):
    """As a `git pull` brings one: a file no lorestack process wrote."""
    folder = indexed / ".memory" / "caveats"
    model = next(p for p in sorted(folder.rglob("*.md")) if "Friday" in p.read_text())
    text = model.read_text().replace("Never run migrations on Friday afternoons", FACT)
    text = "\n".join("id: pulled-replica-fact" if line.startswith("id:") else line
                     for line in text.splitlines()) + "\n"
    (model.parent / "pulled-replica-fact.md").write_text(text)
    context, log = _cold_prompt(indexed)
    assert "ORCHID-7" in context, log


def test_a_sync_under_way_elsewhere_is_not_waited_for(indexed):
    """The lock held by another process's sync: the hook answers from the index as it is,
    and says why in hooks.log, instead of waiting for the lock."""
    from lorestack.memory_layers.fsutil import locked
    from lorestack.memory_layers.memory import Memory

    run_cli("remember", FACT, "--type", "fact", cwd=indexed, env=_env("600000"))
    with locked(Memory.open(indexed).primary.locks_dir, "index-sync"):
        context, log = _cold_prompt(indexed)
    assert "word index not caught up" in log, log
    assert "ORCHID-7" not in context
    context, log = _cold_prompt(indexed)  # the lock released: the next one catches up
    assert "ORCHID-7" in context, log


# a whole hook process as at a store of 100k docs: neither the cold full recall nor the
# whole reconcile of the word index ever fits the time left
_AS_100K = ("import runpy, sys; from lorestack.app import cold_recall; "
            "cold_recall.COLD_FULL_MS = cold_recall.BM25_RESERVE_MS = 1e12; "
            "cold_recall.ALWAYS_DOCS = 0; sys.argv[0] = 'lorestack'; "
            "runpy.run_module('lorestack.cli', run_name='__main__')")


def test_one_changed_file_reaches_the_first_prompt_at_a_store_too_large_to_reconcile(indexed):
    """One remembered fact is merged alone (its file's docs, not the store's): no longer left
    to a detached sync for the next prompt where the whole reconcile would not fit."""
    done = run_cli("remember", FACT, "--type", "fact", cwd=indexed, env=_env("600000"))
    assert done.returncode == 0, done.stderr
    log = indexed / ".memory" / ".index" / "hooks.log"
    before = log.stat().st_size if log.exists() else 0
    payload = json.dumps({"session_id": "cold", "cwd": str(indexed), "hook_event_name":
                          "UserPromptSubmit", "prompt": "which read replica do the reports use?"})
    done = subprocess.run([sys.executable, "-c", _AS_100K, "hook", "prompt", "--client",
                           "claude-code"], input=payload, capture_output=True, text=True,
                          cwd=indexed, env={**os.environ, **_env("600000")}, timeout=600)
    assert done.returncode == 0, done.stderr
    said = log.read_bytes()[before:].decode() if log.exists() else ""
    assert "ORCHID-7" in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"], said
    assert "answered with BM25 recall at once" in said and "synced behind" not in said
    assert _state(indexed)[0] == "text"


def test_a_change_too_costly_for_the_time_left_is_synced_behind(indexed, monkeypatch):
    """The whole text-only reconcile reads every doc's state (~1 s at 100k docs): when the
    changed files are too many to merge alone and too little time is left beside the BM25
    answer, it is not done in the prompt; the index is left dirty and a detached sync takes
    the change in, for the next prompt."""
    from lorestack.app import cold_recall
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember
    from lorestack.retrieval import sync_partial

    mem = Memory.open(indexed, **{"embedding.model_dir": str(model_dir())})
    remember(mem, FACT, "fact")
    monkeypatch.setattr(cold_recall, "ALWAYS_DOCS", 0)  # as a 100k store
    monkeypatch.setattr(sync_partial, "MAX_FILES", 0)  # as a `git pull` of many files
    said = cold_recall.catch_up_text(mem, 0.5) or ""
    assert "synced behind" in said
    assert _state(indexed)[0] == "dirty"
    assert (mem.primary.index_dir / "syncing").exists()  # the detached sync was started
    assert cold_recall.catch_up_text(mem, 0.5) is None  # in the file table: not deferred again
