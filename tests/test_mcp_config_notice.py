"""`lorestack mcp` (a whole process, as a client starts it) with a broken settings layer: every
tool failed with the config error, so the model had no memory at all over a typo. Now the
server opens memory with what is broken left out and its first answer says what to fix."""

from __future__ import annotations

import json
import os
import sys

import anyio


def _json(result):
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


def test_the_server_answers_and_tells_once(repo):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    (repo / ".memory" / "facts" / "queue.md").write_text(
        "---\nid: fact-queue\ntype: fact\ntitle: Jobs run on Sidekiq\n"
        "created: '2030-01-01T00:00:00Z'\n---\nBackground jobs run on Sidekiq with Redis 7.\n")
    config = repo / ".memory" / "config.toml"
    config.write_text('[retrieval]\nk = "many"\n')
    env = {**os.environ, "LORESTACK_LOADER__BUDGET": "lots"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "lorestack.cli", "mcp"],
                                   env=env, cwd=str(repo))

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            first = _json(await session.call_tool("list_memories", {"type": "fact"}))
            assert "fact-queue" in [row["id"] for row in first["items"]]
            notice = first["notice"]
            assert len(notice) == 2
            assert any(str(config) in line and "retrieval.k" in line for line in notice)
            assert any("LORESTACK_LOADER__BUDGET" in line for line in notice)
            hits = _json(await session.call_tool("recall", {"query": "which job queue?"}))
            assert hits["results"][0]["id"] == "fact-queue"
            assert "notice" not in hits  # told once

    anyio.run(main)
