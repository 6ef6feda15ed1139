"""The same thing remembered again reinforces the existing item instead of making a copy."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from click.testing import CliRunner

from lorestack.cli.main import cli

TEXT = "lorestack needs Python 3.10 or newer to be installed"


def run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result


def _items(kind="fact"):
    listed = json.loads(run("list", "--type", kind, "--json").stdout)
    return [i for i in listed if i["id"] != "project"]  # the identity card is a fact too


def test_exact_and_near_duplicates_reinforce_and_say_so(repo):
    first = json.loads(run("remember", TEXT, "--importance", "0.5", "--json").stdout)["item"]
    again = run("remember", TEXT)
    assert f"already remembered as {first['id']}" in again.stdout and "reinforced" in again.stdout
    near = json.loads(
        run(
            "remember",
            "Lorestack needs Python 3.10 (or newer) to be installed.",
            "--tags",
            "setup",
            "--json",
        ).stdout
    )
    assert near["duplicate_of"] == first["id"]
    items = _items()
    assert [i["id"] for i in items] == [first["id"]]
    assert items[0]["importance"] > 0.5 and items[0]["tags"] == ["setup"]


def test_other_type_scope_or_force_store_separately(repo):
    run("remember", TEXT)
    run("remember", TEXT, "--type", "caveat")
    run("remember", TEXT, "--scope", "global")
    forced = json.loads(run("remember", TEXT, "--force", "--json").stdout)
    assert forced["duplicate_of"] is None
    assert len(_items()) == 2 and len(_items("caveat")) == 1
    # a different statement on the same topic is not a duplicate
    assert (
        json.loads(
            run("remember", "lorestack needs Python 3.12 or newer for the viewer", "--json").stdout
        )["duplicate_of"]
        is None
    )


def test_mcp_remember_twice_is_one_item(repo):
    from lorestack.integrations.mcp_server import build_server

    server = build_server(str(repo))

    async def call():
        out = []
        for _ in range(2):
            result = await server.call_tool("remember", {"text": TEXT})
            out.append(result)
        return out

    asyncio.run(call())
    run("remember", TEXT)
    assert len(_items()) == 1


def test_different_numbers_are_different_memories(repo):
    run("remember", "The reporting service exports CSV batch 1 nightly to S3")
    out = json.loads(
        run("remember", "The reporting service exports CSV batch 2 nightly to S3", "--json").stdout
    )
    assert out["duplicate_of"] is None and len(_items()) == 2


def test_session_extraction_reinforces_once_and_stays_idempotent(repo, tmp_path):
    from lorestack.memory_layers.memory import Memory
    from tests.test_extract import claude_transcript

    transcript = claude_transcript(tmp_path / "session.jsonl")
    probe = tmp_path / "probe"
    probe.mkdir()
    Memory.init(probe)
    run("--root", str(probe), "extract", "--transcript", str(transcript))
    fact = next(
        li.item
        for li in Memory.open(probe).load_items().items
        if li.item.type == "fact" and li.item.id != "project"
    )
    # the user had already said it: extraction reinforces that item instead of adding one
    mine = json.loads(run("remember", fact.body, "--json").stdout)["item"]
    run("extract", "--transcript", str(transcript))
    facts = _items()
    assert [f["id"] for f in facts] == [mine["id"]]
    path = Path(json.loads(run("show", mine["id"], "--json").stdout)["path"])
    after_first = path.read_bytes()
    again = json.loads(run("extract", "--transcript", str(transcript), "--json").stdout)
    assert again["items"] == [] and path.read_bytes() == after_first  # nothing reinforced twice


def test_same_digits_in_another_order_are_different_memories(repo):
    """Regression: numbers were compared sorted, so "w1 … 4" merged into "w4 … 1" (the
    eight-process probe lost 28 of 400 items that way)."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember

    mem = Memory.open(repo)
    first = remember(mem, "worker w1 item 4: the w1 service keeps setting 4", "fact")
    second = remember(mem, "worker w4 item 1: the w4 service keeps setting 1", "fact")
    assert second.duplicate_of is None and second.item.id != first.item.id
    again = remember(mem, "worker w1 item 4: the w1 service keeps setting 4.", "fact")
    assert again.duplicate_of == first.item.id  # the same statement still reinforces


def test_parallel_identical_remembers_make_one_item(repo):
    """Four `lorestack remember` processes started at once with the same text made two or three
    files: each looked for a duplicate before any had written (the check ran outside the create
    lock). One creates the item; the others answer as a second remember does, reinforcing it."""
    import subprocess
    import sys
    import time

    text = "Integration tests need the docker compose stack running first"
    go = repo.parent / "go"
    # each process imports the CLI, then waits for one signal: the four checks start together
    # (started cold, the imports' seconds apart on a loaded machine hid the race)
    starter = ("import os, sys, time\n"
               "import lorestack.cli.memory_cmds, lorestack.memory_layers.operations\n"
               f"while not os.path.exists({str(go)!r}): time.sleep(0.005)\n"
               "from lorestack.launcher import main\n"
               "sys.argv[0] = 'lorestack'; raise SystemExit(main())")
    procs = [subprocess.Popen([sys.executable, "-c", starter, "remember", text, "--json"],
                              cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(4)]
    time.sleep(1.0)
    go.write_text("")
    answers = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        answers.append(json.loads(out))
    files = sorted((repo / ".memory" / "facts").glob("*.md"))
    assert len(files) == 1, [f.name for f in files]
    (made,) = [a for a in answers if not a["duplicate_of"]]
    assert [a["duplicate_of"] for a in answers if a["duplicate_of"]] == [made["item"]["id"]] * 3
    assert "importance: 0.635" in files[0].read_text()  # three reinforcements, none lost
