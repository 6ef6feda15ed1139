"""One request through every front end (CLI, MCP, hook, service): the same answer. And the
service as callers with different settings meet it: served with their own settings, never
pushed in-process; the hook deadline it uses is the configured one."""

from __future__ import annotations

import json
import socket
import threading

from tests import service_helpers
from tests.conftest import run_cli
from tests.service_helpers import context_of, hook, start_service, status

PROMPT = "how should a refund be written to the database?"
run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture
OFF = {"LORESTACK_SERVICE__ENABLED": "false"}


def _raw(request: dict, timeout: float = 60) -> list[dict]:
    """Every line the service sends for one request (an ack first for hooks)."""
    from lorestack.integrations.service import client, protocol

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.connect(str(protocol.socket_path(protocol.runtime_dir())))
    sock.sendall(protocol.encode({"version": protocol.VERSION, **request}))
    sock.shutdown(socket.SHUT_WR)
    reader = protocol.LineReader(sock, protocol.MAX_REPLY)
    lines = [reader.next()]
    while lines[-1].get("ack"):
        lines.append(reader.next())
    sock.close()
    assert client  # the same module the thin client uses
    return lines


def _caller(cwd) -> dict:
    """This test process as the thin client describes itself, from `cwd`."""
    from lorestack.integrations.service import protocol

    return {"cwd": str(cwd), "root": None, "env": protocol.caller_env()}


def test_one_search_gives_one_answer_through_every_front_end(stocked, run_dir):
    from lorestack import app
    from lorestack.app.models import Caller, SearchRequest
    from lorestack.integrations import mcp_tools
    from lorestack.memory_layers.memory import Memory

    query = "refund ledger"
    direct = [h["id"] for h in app.run(SearchRequest(caller=Caller(cwd=str(stocked)),
                                                     query=query)).hits]
    assert direct, "nothing found: the comparison would be empty"
    local = run_cli("search", query, "--json", cwd=stocked, env=OFF)
    assert [h["id"] for h in json.loads(local.stdout)] == direct
    mcp = mcp_tools.recall(Memory.open(stocked, require_project=False), query)
    assert [r["id"] for r in mcp["results"]] == direct

    start_service(stocked)
    before = status()["answered"]
    served = run_cli("search", query, "--json", cwd=stocked)
    assert [h["id"] for h in json.loads(served.stdout)] == direct
    call = _raw({"op": "call", "operation": "search", "caller": _caller(stocked),
                 "request": {"query": query}})
    assert [h["id"] for h in call[-1]["response"]["hits"]] == direct
    assert status()["answered"] == before + 2  # both answered by the service


def test_one_prompt_hook_gives_one_answer_in_process_and_through_the_service(stocked, run_dir):
    from lorestack import app
    from lorestack.app.models import Caller, HookRequest

    def payload(session):
        return {"session_id": session, "cwd": str(stocked), "prompt": PROMPT}

    direct = app.run(HookRequest(caller=Caller(cwd=str(stocked)), event="prompt",
                                 client="claude-code", stdin=json.dumps(payload("a")))).output
    assert "ledger service" in context_of_text(direct)
    local = hook("prompt", payload("b"), stocked, env=OFF)
    assert context_of(local) == context_of_text(direct)
    start_service(stocked)
    before = status()["answered"]
    served = hook("prompt", payload("c"), stocked)
    assert context_of(served) == context_of_text(direct)
    assert status()["answered"] == before + 1


def context_of_text(output: str) -> str:
    return json.loads(output)["hookSpecificOutput"]["additionalContext"] if output.strip() else ""


def test_a_hook_with_one_more_setting_is_served_with_that_setting(stocked, run_dir):
    """Before: 'service did not answer (env); in-process' and a cold process per prompt."""
    start_service(stocked)
    plain = hook("prompt", {"session_id": "p1", "cwd": str(stocked), "prompt": PROMPT}, stocked)
    assert "ledger service" in context_of(plain)
    before = status()["answered"]
    tight = hook("prompt", {"session_id": "p2", "cwd": str(stocked), "prompt": PROMPT}, stocked,
                 env={"LORESTACK_LOADER__PROMPT_BUDGET": "1"})
    assert tight.returncode == 0
    assert "ledger service" not in context_of(tight)  # its own budget applied
    after = status()
    assert after["answered"] == before + 1  # the service answered it
    assert after["settings_cached"] >= 2  # one settings object per overlay
    log = stocked / ".memory" / ".index" / "hooks.log"
    assert "did not answer" not in (log.read_text() if log.exists() else "")


def test_the_configured_prompt_deadline_is_the_one_the_service_uses(stocked, run_dir, monkeypatch):
    """`hooks.prompt_deadline_ms` in config.toml reaches the service path (it was ignored:
    the launcher took its number from the environment with a hard-coded default)."""
    for name in service_helpers.NO_DEADLINE:
        monkeypatch.delenv(name)
    (stocked / ".memory" / "config.toml").write_text("[hooks]\nprompt_deadline_ms = 7777\n")
    start_service(stocked)
    stdin = json.dumps({"session_id": "d1", "cwd": str(stocked), "prompt": PROMPT})
    lines = _raw({"op": "hook", "event": "prompt", "client": "claude-code", "stdin": stdin,
                  "caller": _caller(stocked)})
    assert lines[0] == {"ack": True, "wait_ms": 7777}
    assert "ledger service" in context_of_text(lines[-1]["output"])


def test_prompts_at_once_are_all_answered_by_the_service(stocked, run_dir):
    start_service(stocked)
    results: dict[int, str] = {}

    def ask(n: int) -> None:
        proc = hook("prompt", {"session_id": f"c{n}", "cwd": str(stocked), "prompt": PROMPT},
                    stocked)
        results[n] = context_of(proc)

    before = status()["answered"]
    threads = [threading.Thread(target=ask, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(results) == 4 and all("ledger service" in r for r in results.values())
    assert status()["answered"] == before + 4


def test_lorestack_ui_asks_the_service_to_serve_the_viewer(stocked, run_dir):
    import httpx

    start_service(stocked)
    proc = run_cli("ui", "--no-open", "--json", cwd=stocked, timeout=180)
    assert proc.returncode == 0, proc.stderr  # returned: the service serves it
    started = json.loads(proc.stdout)
    assert started["root"] == str(stocked / ".memory")
    viewers = status()["viewers"]
    assert str(stocked / ".memory") in viewers
    with httpx.Client(follow_redirects=True, timeout=60) as http:
        page = http.get(started["url"])
        assert page.status_code == 200 and "Overview" in page.text
        found = http.get(started["url"].split("?")[0] + "search?q=refund+ledger")
        assert found.status_code == 200 and "ledger service" in found.text
    again = json.loads(run_cli("ui", "--no-open", "--json", cwd=stocked).stdout)
    assert again["url"] == started["url"]  # one viewer per memory, reused


def test_an_item_has_one_json_shape_in_list_search_and_the_mcp_tools(repo):
    """`list --json`, `search --json`, MCP `list_memories` and `recall` each printed their own
    keys for the same item (`body` or `text`, `layer` or not, `age` but no `time`). Each now
    carries the core keys of one shape with the same values, and keeps the keys it had."""
    from lorestack.app.item_json import ITEM_KEYS
    from lorestack.integrations import mcp_tools
    from lorestack.memory_layers.memory import Memory

    made = run_cli("remember", "Refunds go through the ledger service\n\nNever direct SQL.",
                   "--type", "decision", "--tags", "payments,ledger", "--json", cwd=repo, env=OFF)
    item_id = json.loads(made.stdout)["item"]["id"]
    logged = run_cli("log", "Moved the refund retries onto the ledger queue", "--tags",
                     "payments", "--json", cwd=repo, env=OFF)
    event_id = json.loads(logged.stdout)["id"]
    assert run_cli("reindex", cwd=repo, env=OFF).returncode == 0

    def by_id(rows):
        return {row["id"]: row for row in rows}

    listed = by_id(json.loads(run_cli("list", "--json", cwd=repo, env=OFF).stdout))
    events = by_id(json.loads(run_cli("list", "--type", "event", "--json", cwd=repo,
                                      env=OFF).stdout))
    found = by_id(json.loads(run_cli("search", "refund ledger", "--json", cwd=repo,
                                     env=OFF).stdout))
    mem = Memory.open(repo)
    mcp_listed = by_id(mcp_tools.list_memories(mem)["items"])
    mcp_events = by_id(mcp_tools.list_memories(mem, type="event")["items"])
    recalled = by_id(mcp_tools.recall(mem, "refund ledger")["results"])

    for key, rows in ((item_id, (listed, found, mcp_listed, recalled)),
                      (event_id, (events, found, mcp_events, recalled))):
        shapes = [{k: row[key][k] for k in ITEM_KEYS} for row in rows]
        assert all(shape == shapes[0] for shape in shapes), (key, [
            {k: v for k, v in s.items() if v != shapes[0][k]} for s in shapes[1:]], shapes[0])
    item = listed[item_id]
    assert item["tags"] == ["payments", "ledger"] and item["layer"] == "L1"
    assert item["text"].endswith("Never direct SQL.") and item["body"]  # `text`, as search
    assert events[event_id]["layer"] == "L3" and events[event_id]["path"].endswith(".md")
    # the keys scripts read before stay: list's frontmatter and body, search's score, MCP's age
    assert {"body", "created", "updated", "importance", "source"} <= set(item)
    assert "score" in found[item_id] and "explain" in found[item_id]
    assert mcp_listed[item_id]["age"] == "today" and "score" in recalled[item_id]
