"""The resident service as hooks and commands meet it: started on demand, warm, watched."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig

from tests import service_helpers
from tests.conftest import run_cli
from tests.service_helpers import (
    NO_DEADLINE,
    context_of,
    hook,
    poll,
    start_service,
    status,
)

PROMPT = "how should a refund be written to the database?"

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture


def test_first_hook_answers_in_process_and_starts_the_service(stocked, run_dir):
    payload = {"session_id": "s1", "cwd": str(stocked), "prompt": PROMPT}
    first = hook("prompt", payload, stocked)
    assert first.returncode == 0
    assert "ledger service" in context_of(first)  # no service yet: answered in-process
    assert poll(lambda: status().get("pid")), "the hook did not start the service"
    again = hook("prompt", {**payload, "session_id": "s2"}, stocked)
    assert "ledger service" in context_of(again)
    assert str(stocked / ".memory") in status()["projects"]  # the service answered it
    start = hook("session-start", {"session_id": "s3", "cwd": str(stocked)}, stocked)
    assert "Never run migrations on Friday" in context_of(start)


def test_serve_status_stop_and_the_socket_is_private(stocked, run_dir):
    pid = start_service(stocked)
    assert (run_dir.stat().st_mode & 0o777) == 0o700
    assert ((run_dir / "service.sock").stat().st_mode & 0o777) == 0o600
    shown = run_cli("serve", "--status", cwd=stocked)
    assert f"pid {pid}" in shown.stdout and "nothing on the network" in shown.stdout
    stopped = json.loads(run_cli("serve", "--stop", "--json", cwd=stocked).stdout)
    assert stopped == {"stopped": True, "pid": pid, "exited": True}
    assert not service_helpers.alive(pid)  # stopped means gone, not "asked"
    assert poll(lambda: not (run_dir / "service.sock").exists())
    after = json.loads(run_cli("serve", "--status", "--json", cwd=stocked).stdout)
    assert after["running"] is False


def test_serve_right_after_stop_starts_a_new_service_when_a_viewer_was_open(stocked, run_dir):
    """Trial finding: after `serve --stop` of a service that served the viewer, `serve` at once
    waited 30 s and failed 'the service did not start': the old service still answered its
    ping while it shut down, so no new one was launched. `--stop` now returns once it exited."""
    pid = start_service(stocked)
    viewer = run_cli("ui", "--json", "--no-open", cwd=stocked)
    assert viewer.returncode == 0, viewer.stderr
    assert json.loads(viewer.stdout.splitlines()[0])["url"].startswith("http://127.0.0.1:")
    assert run_cli("serve", "--stop", cwd=stocked).returncode == 0
    again = run_cli("serve", "--json", cwd=stocked)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["pid"] != pid


def test_read_commands_go_through_the_service_with_the_same_output(stocked, run_dir):
    offline = {"LORESTACK_SERVICE__ENABLED": "false"}
    local = run_cli("search", "refund ledger", "--json", cwd=stocked, env=offline)
    start_service(stocked)
    before = status()["answered"]
    served = run_cli("search", "refund ledger", "--json", cwd=stocked)
    assert served.returncode == 0, served.stderr
    assert [h["id"] for h in json.loads(served.stdout)] == [
        h["id"] for h in json.loads(local.stdout)
    ]
    assert status()["answered"] > before
    checked = run_cli("check", "run the migration on friday afternoon", "--json", cwd=stocked)
    assert checked.returncode in (0, 1, 2) and json.loads(checked.stdout)["verdict"]
    piped = run_cli("log", "-", "--kind", "todo", input="wire the refund retries\n", cwd=stocked)
    assert piped.returncode == 0, piped.stderr
    assert "wire the refund retries" in "".join(
        p.read_text() for p in (stocked / ".memory" / "journal").glob("*.md")
    )
    usage = run_cli("search", cwd=stocked)  # click's own errors come back as they are
    assert usage.returncode == 2 and "Usage: lorestack search" in usage.stderr
    assert "give a QUERY" in usage.stderr


def test_list_and_show_are_answered_by_the_service_as_they_print_in_process(stocked, run_dir):
    """`list` took seconds at 10k items in a cold process; the service answers it warm. Its
    JSON, its text, its stderr and its colour are what the command prints in-process: colour
    follows the caller's terminal (the service only ever writes into buffers)."""
    from tests.test_everyday_cli import _on_a_terminal

    offline = {"LORESTACK_SERVICE__ENABLED": "false"}
    asked = [["list", "--json"], ["list", "--type", "caveat"], ["list", "-n", "1"]]
    local = [run_cli(*a, cwd=stocked, env=offline) for a in asked]
    item = json.loads(local[0].stdout)[0]["id"]
    asked += [["show", item, "--json"], ["show", item], ["show", "fact-nope0000"]]
    local += [run_cli(*a, cwd=stocked, env=offline) for a in asked[3:]]
    painted_here = _on_a_terminal(["list"], offline)
    assert "\x1b[" in painted_here  # a terminal gets colour in-process

    start_service(stocked)
    before = status()["answered"]
    for args, here in zip(asked, local):
        served = run_cli(*args, cwd=stocked)
        assert (served.stdout, served.stderr, served.returncode) == (
            here.stdout, here.stderr, here.returncode), args
    assert status()["answered"] == before + len(asked)  # none ran in-process
    assert _on_a_terminal(["list"]) == painted_here  # the caller's terminal: colour
    assert _on_a_terminal(["show", item]) == _on_a_terminal(["show", item], offline)
    assert "\x1b[" not in _on_a_terminal(["list"], {"NO_COLOR": "1"})
    assert status()["answered"] == before + len(asked) + 3


def test_the_service_prepares_every_item_once_and_a_prompt_still_sees_an_edit(stocked, run_dir):
    start_service(stocked)
    payload = {"session_id": "p1", "cwd": str(stocked), "prompt": PROMPT}
    assert "ledger service" in context_of(hook("prompt", payload, stocked, env=NO_DEADLINE))
    root = str(stocked / ".memory")
    prepared = poll(lambda: status().get("prepared", {}).get(root))
    # the decision, the caveat and the project card
    assert prepared and prepared["hit_blocks"] == 3
    assert root not in status()["warming"]  # its warm-up has ended
    decision = next((stocked / ".memory" / "decisions").glob("*.md"))
    decision.write_text(decision.read_text().replace("ledger service", "ledger gateway"))
    again = hook("prompt", {**payload, "session_id": "p2"}, stocked, env=NO_DEADLINE)
    assert "ledger gateway" in context_of(again)  # a prepared block follows its file


def test_a_hand_edit_is_seen_without_a_stat_sweep(stocked, run_dir):
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember

    start_service(stocked)
    assert "ledger" in run_cli("search", "ledger", cwd=stocked).stdout  # warm now
    remember(Memory.open(stocked), "Webhooks are signed with the zebrafish key rotation", "fact")

    def found():
        out = run_cli("search", "zebrafish", "--mode", "bm25", cwd=stocked).stdout
        return "zebrafish" in out

    assert poll(found), "the watcher did not bring the new file into the index"


def test_a_project_the_service_never_saw_is_opened_on_demand(stocked, run_dir, tmp_path):
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember

    start_service(stocked)
    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    remember(Memory.open(other), "The other project deploys with ArgoCD", "caveat")
    out = hook("session-start", {"session_id": "o1", "cwd": str(other)}, other)
    assert "deploys with ArgoCD" in context_of(out)
    assert str(other / ".memory") in status()["projects"]


def test_session_end_queues_one_extraction_per_session(stocked, run_dir):
    start_service(stocked)
    transcript = stocked / "t.jsonl"
    lines = [
        {
            "type": "user",
            "sessionId": "e1",
            "message": {
                "role": "user",
                "content": "remember that the invoice exporter runs on Sundays",
            },
        }
    ]
    transcript.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    base = {"session_id": "e1", "cwd": str(stocked), "transcript_path": str(transcript)}
    for name in ("PreCompact", "SessionEnd"):
        out = hook("session-end", {**base, "hook_event_name": name}, stocked)
        assert out.returncode == 0 and out.stdout.strip() == ""

    def extracted():
        jobs = status().get("jobs", {})
        return not jobs.get("pending") and not jobs.get("running") and jobs.get("done", 0) >= 1

    assert poll(extracted)
    assert status()["jobs"]["done"] == 1
    facts = "".join(p.read_text() for p in (stocked / ".memory").rglob("*.md"))
    assert "invoice exporter runs on Sundays" in facts


def _stdlib(name: str) -> bool:
    return name.split(".")[0] in sys.stdlib_module_names


def test_the_hook_path_imports_only_the_standard_library_and_the_client(stocked, run_dir):
    start_service(stocked)
    assert "ledger" in context_of(
        hook("prompt", {"session_id": "w", "cwd": str(stocked), "prompt": PROMPT}, stocked)
    )  # warm
    env = {**os.environ, **NO_DEADLINE}

    def imported(*args: str, **kw) -> tuple[list[str], str]:
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=stocked,
            timeout=120,
            **kw,
        )
        names = [
            line.split("|")[-1].strip()
            for line in proc.stderr.splitlines()
            if line.startswith("import time:") and "imported package" not in line
        ]
        return names[1:], proc.stdout

    site, _ = imported("-c", "pass")  # what the interpreter and site-packages load anyway
    names, out = imported(
        "-m",
        "lorestack.launcher",
        "hook",
        "prompt",
        "--client",
        "claude-code",
        input=json.dumps({"session_id": "w2", "cwd": str(stocked), "prompt": PROMPT}),
    )
    assert "ledger service" in context_of(subprocess.CompletedProcess([], 0, out, ""))
    ours = [n for n in names if n not in set(site) and not _stdlib(n)]
    assert set(ours) <= {
        "lorestack",
        "lorestack.launcher",
        "lorestack.core",
        "lorestack.core.legacy",  # the rename's migration: stdlib only, two looks when idle
        "lorestack.core.hook_stdin",  # a payload read from an open stdin: os, select, time
        "lorestack.integrations",
        "lorestack.integrations.service",
        "lorestack.integrations.service.client",
        "lorestack.integrations.service.protocol",
    }, ours
    assert "click" not in names and "pydantic" not in names and "lorestack.cli" not in names
    assert sysconfig.get_paths()  # the interpreter under test is this one
