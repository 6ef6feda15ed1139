"""The MCP server through the SDK's own client, in process."""

from __future__ import annotations

import json

import anyio
import pytest


def _client(repo):
    from mcp import Client

    from lorestack.integrations.mcp_server import build_server

    return Client(build_server(str(repo)))


def _json(result):
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


def test_tools_are_listed_with_schemas_and_teach_when_to_call(repo):
    async def main():
        async with _client(repo) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == {"remember", "recall", "forget", "list_memories", "check"}
            remember = tools["remember"]
            assert remember.input_schema["required"] == ["text"]
            props = remember.input_schema["properties"]
            assert {"type", "supersedes", "scope", "tags"} <= set(props)
            assert "supersedes" in remember.description and "secret" in remember.description
            assert "before answering" in tools["recall"].description
            assert tools["recall"].annotations.read_only_hint is True
            assert set(tools["forget"].input_schema["required"]) == {"id", "reason"}
            resources = {str(r.uri) for r in (await client.list_resources()).resources}
            assert resources == {"lorestack://project", "lorestack://profile"}

    anyio.run(main)


def test_remember_recall_supersede_forget_round_trip(repo):
    async def main():
        async with _client(repo) as client:
            first = _json(await client.call_tool("remember", {
                "text": "Background jobs run on Sidekiq with Redis 7", "type": "decision"}))
            hits = _json(await client.call_tool("recall", {"query": "which job queue do we use?"}))
            assert hits["results"][0]["id"] == first["id"]
            assert hits["results"][0]["age"] == "today"

            second = _json(await client.call_tool("remember", {
                "text": "Background jobs moved to Temporal workflows", "type": "decision",
                "supersedes": first["id"]}))
            assert second["archived"]
            listed = _json(await client.call_tool("list_memories", {"type": "decision"}))
            ids = [row["id"] for row in listed["items"]]
            assert second["id"] in ids and first["id"] not in ids
            hits = _json(await client.call_tool("recall", {"query": "job queue workflows"}))
            assert first["id"] not in [h["id"] for h in hits["results"]]

            context = _json(await client.call_tool("recall", {"mode": "context", "budget": 400}))
            assert context["tokens"] <= 400 and "reference data" in context["context"]

            gone = _json(await client.call_tool("forget", {"id": second["id"], "reason": "dropped"}))
            assert "archive" in gone["archived_to"]
            card = await client.read_resource("lorestack://project")
            assert "id: project" in card.contents[0].text

    anyio.run(main)


@pytest.mark.parametrize("text", [
    "the staging key is AKIAIOSFODNN7EXAMPLE",
    "DATABASE_URL=postgres://admin:s3cretPassw0rd@db.internal:5432/app",
])
def test_secrets_are_refused_through_mcp(repo, text):
    async def main():
        async with _client(repo) as client:
            result = await client.call_tool("remember", {"text": text, "type": "fact"})
            assert result.is_error
            assert "secret" in result.content[0].text and "nothing was written" in result.content[0].text
            # the tool has no --redact (a CLI flag): the agent is told what it can do instead
            assert "--redact" not in result.content[0].text
            assert "again without the secret" in result.content[0].text
            listed = _json(await client.call_tool("list_memories", {}))
            assert all("AKIA" not in row["title"] and "s3cret" not in row["title"]
                       for row in listed["items"])

    anyio.run(main)
    assert not list((repo / ".memory" / "facts").glob("*.md"))


def test_tool_errors_are_readable(repo):
    async def main():
        async with _client(repo) as client:
            result = await client.call_tool("forget", {"id": "fact-nope0000", "reason": "x"})
            assert result.is_error and "no memory item" in result.content[0].text
            # a plain sentence is accepted as typed (issue 22); a broken regex is not
            result = await client.call_tool("remember", {
                "text": "No oops", "type": "criterion", "forbid": ["/(oops/"]})
            assert result.is_error and "invalid regex" in result.content[0].text

    anyio.run(main)


def test_check_tool_blocks_a_proposal_against_a_criterion(repo):
    async def main():
        async with _client(repo) as client:
            _json(await client.call_tool("remember", {
                "text": "Scheduled jobs must use the job runner, never crontab", "type": "criterion",
                "keywords": ["cron", "schedule"], "forbid": ["crontab"], "verdict": "block"}))
            verdict = _json(await client.call_tool("check", {
                "proposal": "Add a crontab entry to schedule the nightly cron export"}))
            assert verdict["verdict"] == "block"
            assert verdict["violations"][0]["type"] == "criterion"
            ok = _json(await client.call_tool("check", {"proposal": "Rename a CSS class"}))
            assert ok["verdict"] == "pass"
            # an empty proposal answered 'pass' (nothing had been checked); the CLI refuses it
            empty = await client.call_tool("check", {"proposal": "  "})
            assert empty.is_error and "nothing to check" in empty.content[0].text

    anyio.run(main)


def test_stdio_server_lists_pages_and_sees_edits_between_calls(repo):
    """`lorestack mcp` keeps parsed items between calls (as the service does); an edited or
    new file is read again, and list_memories says the total beside its page."""
    import os
    import sys

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    facts = repo / ".memory" / "facts"
    for n in range(4):
        (facts / f"f{n}.md").write_text(f"---\nid: fact-f{n}\ntype: fact\ntitle: Old title {n}\n"
                                        f"created: '2030-01-0{n + 1}T00:00:00Z'\n---\nBody {n}.\n")
    params = StdioServerParameters(command=sys.executable, args=["-m", "lorestack.cli", "mcp"],
                                   env=dict(os.environ), cwd=str(repo))

    async def main():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            first = _json(await session.call_tool("list_memories", {"type": "fact", "limit": 2}))
            # the card (project.md) is a fact too: 4 + 1
            assert first["total"] == 5 and [r["id"] for r in first["items"]] == ["fact-f2", "fact-f3"]
            path = facts / "f3.md"
            path.write_text(path.read_text().replace("Old title 3", "New title three"))
            (facts / "f4.md").write_text("---\nid: fact-f4\ntype: fact\ntitle: Added\n"
                                         "created: '2030-01-09T00:00:00Z'\n---\nLater.\n")
            again = _json(await session.call_tool("list_memories", {"type": "fact", "limit": 2}))
            assert again["total"] == 6
            assert [r["title"] for r in again["items"]] == ["New title three", "Added"]

    anyio.run(main)


def test_an_item_named_after_a_key_reaches_the_model_redacted(repo):
    """A file written by hand under a key's name (its id too): recall and list_memories
    handed the model the key in the item's id and path."""
    key = "AKIAIOSFODNN7EXAMPLE"
    (repo / ".memory" / "facts" / f"{key}.md").write_text(
        f"---\nid: fact-{key}\ntype: fact\ntitle: The staging bucket is in eu-west-1\n---\n\n"
        "The staging bucket is in eu-west-1.\n")

    async def main():
        async with _client(repo) as client:
            hits = _json(await client.call_tool("recall", {"query": "staging bucket region"}))
            assert "eu-west-1" in hits["results"][0]["title"]
            listed = _json(await client.call_tool("list_memories", {"type": "fact"}))
            context = _json(await client.call_tool(
                "recall", {"query": "staging bucket region", "mode": "context"}))
            for answer in (hits, listed, context):
                assert key not in json.dumps(answer)
            assert any("[REDACTED" in h["id"] for h in hits["results"])

    anyio.run(main)
