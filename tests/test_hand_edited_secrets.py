"""A secret typed into a memory file by hand never reaches an index or a session's context.

The file stays exactly as the user wrote it; what is indexed and shown is redacted.
"""

from __future__ import annotations

from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.operations import remember
from lorestack.retrieval.index import MemoryIndex
from lorestack.retrieval.loader import assemble_context
from tests.conftest import run_cli

TOKEN = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def _hand_edit(mem):
    written = remember(mem, "Deploy the billing service with the release script", "fact")
    text = written.path.read_text()
    written.path.write_text(text.replace("release script", f"release script and token {TOKEN}"))
    return written.path


def test_index_and_context_hold_the_secret_redacted(mem):
    path = _hand_edit(mem)
    before = path.read_bytes()
    warnings: list[str] = []
    index = MemoryIndex(mem, warn=warnings.append)
    try:
        hits = index.search("deploy billing release script", k=5, mode="bm25")
        assert hits and all(TOKEN not in h.text for h in hits)
        assert any("[REDACTED:" in h.text for h in hits)
        # the token's parts are not searchable either: the lexical index never saw them
        assert not [h for h in index.search("abcdefghijklmnopqrstuvwxyz0123456789", k=5, mode="bm25")
                    if h.text.startswith("Deploy")]
    finally:
        index.close()
    assert any("looks like a secret" in w for w in warnings)
    context = assemble_context(mem, query="deploy billing release script", budget=2000)
    assert "Deploy the billing service" in context.text
    assert TOKEN not in context.text
    assert path.read_bytes() == before  # the user's file is never rewritten


def test_the_command_line_tells_the_user_on_stderr(repo):
    path = _hand_edit(Memory.open(repo))
    before = path.read_bytes()
    done = run_cli("reindex", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert "looks like a secret" in done.stderr and TOKEN not in done.stderr + done.stdout
    assert path.read_bytes() == before
