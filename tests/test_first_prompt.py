"""The first prompt of a session with no service: a whole `lorestack hook prompt` process.

When the dense side cannot answer before the prompt deadline (here: the team's Chroma server
takes the connection and never replies, a real state), the hook answers with the BM25 recall
it made first. That recall must rank what the journal holds, not only remembered items: a
store whose knowledge sits in its events otherwise answers nothing (at 100k events the cold
process always missed the deadline and the first prompt of the day got no memory).
"""

from __future__ import annotations

import json
import socket

import pytest

from tests.conftest import run_cli


@pytest.fixture
def silent_chroma():
    """A Chroma server address that accepts connections and never answers."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)  # the kernel completes the handshakes; nothing is ever read
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()


def _prompt(repo, text: str, env: dict) -> tuple[str, str]:
    payload = json.dumps({"session_id": "first", "cwd": str(repo),
                          "hook_event_name": "UserPromptSubmit", "prompt": text})
    done = run_cli("hook", "prompt", "--client", "claude-code", input=payload, cwd=repo,
                   env=env)
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] \
        if done.stdout.strip() else ""
    log = (repo / ".memory" / ".index" / "hooks.log").read_text()
    return context, log


def test_bm25_answer_at_the_deadline_holds_journal_events(journal_store, silent_chroma):
    from tests.conftest import model_dir

    env = {
        "LORESTACK_EMBEDDING__MODEL_DIR": str(model_dir()),
        "LORESTACK_RETRIEVAL__CHROMA_URL": silent_chroma,
        "LORESTACK_RETRIEVAL__CHROMA_TIMEOUT_S": "600",
        # the full pipeline waits on the silent server for good; BM25 alone needs well under
        # a second, so this only has to be long enough for a loaded machine to start Python
        "LORESTACK_HOOKS__PROMPT_DEADLINE_MS": "8000",
    }
    context, log = _prompt(journal_store, "which read replica do the reports use?", env)
    assert "answered with BM25 recall" in log, log  # the dense side was not ready: the path here
    assert "ORCHID-7" in context


def test_the_bm25_answer_and_the_full_one_share_one_open_index(journal_store, monkeypatch):
    """In-process, the BM25 answer is made first; the full pipeline searches the index it
    opened instead of opening (tantivy, catalog) again."""
    from lorestack.app import hooks
    from lorestack.retrieval.index import MemoryIndex
    from tests.conftest import LONG_HOOK_DEADLINES, model_dir

    for var, value in LONG_HOOK_DEADLINES.items():
        monkeypatch.setenv(var, value)
    monkeypatch.setenv("LORESTACK_EMBEDDING__MODEL_DIR", str(model_dir()))
    opened: list[MemoryIndex] = []
    real = MemoryIndex.__init__

    def counted(self, *a, **kw):
        opened.append(self)
        real(self, *a, **kw)

    monkeypatch.setattr(MemoryIndex, "__init__", counted)
    payload = json.dumps({"session_id": "shared", "cwd": str(journal_store),
                          "prompt": "which read replica do the reports use?"})
    run = hooks.run_hook("prompt", "claude-code", payload, root=str(journal_store))
    assert run.ok and "ORCHID-7" in run.output
    assert len(opened) == 1


_WATCH_PRELOAD = """
import json, sys, threading
from lorestack.app import hooks
seen = []
real = hooks.prompt_context
def watched(mem, payload, retrieval, **kw):
    busy = any(t.name == "lorestack-preload-chromadb" for t in threading.enumerate())
    seen.append([retrieval, busy, "chromadb" in sys.modules])
    return real(mem, payload, retrieval, **kw)
hooks.prompt_context = watched
run = hooks.run_hook("prompt", "claude-code", sys.stdin.read(), root=sys.argv[1])
print(json.dumps({"seen": seen, "ok": run.ok}))
"""


def test_chromadb_is_imported_only_once_the_bm25_answer_is_made(journal_store):
    """The BM25 answer is what a cold process answers when time runs short; importing chromadb
    on a side thread at the same time halved its speed on a loaded machine (one interpreter)."""
    import os
    import subprocess
    import sys

    from tests.conftest import LONG_HOOK_DEADLINES, model_dir

    payload = json.dumps({"session_id": "pre", "cwd": str(journal_store),
                          "prompt": "which read replica do the reports use?"})
    env = {**os.environ, **LONG_HOOK_DEADLINES,
           "LORESTACK_EMBEDDING__MODEL_DIR": str(model_dir())}
    done = subprocess.run([sys.executable, "-c", _WATCH_PRELOAD, str(journal_store)],
                          input=payload, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["ok"]
    assert report["seen"][0] == ["bm25", False, False]  # made alone
    assert report["seen"][1][0] == "default"


_WATCH_THREAD_START = """
import json, sys, threading
from lorestack.app import hooks
seen = []
real = threading.Thread.start
def start(self):
    seen.append([self.name, "numpy" in sys.modules])
    return real(self)
threading.Thread.start = start
hooks._preload_vector_store()
print(json.dumps(seen))
"""


def test_numpy_is_loaded_before_chromadb_starts_importing_beside_the_search():
    """A cold prompt imports chromadb on a side thread while its own thread imports the
    embedding; both import numpy, and two threads importing it at once made one fail ('cannot
    import name NDArray from partially initialized module numpy._typing'), so the answer lost
    its vector half (seen in CI under load: the caveat the full answer holds was missing)."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", _WATCH_THREAD_START], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == [["lorestack-preload-chromadb", True]]
