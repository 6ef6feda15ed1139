"""The MCP `check` tool through the SDK's own client, in process."""

from __future__ import annotations

import json

import anyio


def test_mcp_check_blocks_with_the_rule_and_passes_look_alikes(repo, monkeypatch):
    from mcp import Client

    from lorestack.integrations.mcp_server import build_server
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec
    from lorestack.memory_layers.operations import remember

    monkeypatch.setenv("LORESTACK_GUARDRAIL__RETRIEVAL", "false")
    rule = remember(
        Memory.open(repo),
        "Nothing under infra/ without a review note",
        "criterion",
        criterion=CriterionSpec(
            applies_to=AppliesTo(paths=["infra/**"]), require=["review note"], verdict="block"
        ),
    ).item.id

    async def main():
        async with Client(build_server(str(repo))) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert tools["check"].annotations.read_only_hint is True
            assert tools["check"].input_schema["required"] == ["proposal"]
            blocked = await client.call_tool(
                "check", {"proposal": "tighten the firewall", "paths": ["infra/fw.tf"]}
            )
            data = json.loads(blocked.content[0].text)
            assert data["verdict"] == "block" and data["violations"][0]["id"] == rule
            assert data["violations"][0]["title"] == "Nothing under infra/ without a review note"
            assert data["violations"][0]["set_on"] and data["violations"][0]["reason"]
            fine = await client.call_tool("check", {"proposal": "edit infrastructure/README.md"})
            assert json.loads(fine.content[0].text)["verdict"] == "pass"

    anyio.run(main)
