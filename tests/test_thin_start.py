"""The hook commands `lorestack install` writes: this install's Python without `site` on
`lorestack/thin.py`, asking the service; restarted with `site` for anything more."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import threading
from pathlib import Path

from tests import service_helpers
from tests.service_helpers import NO_DEADLINE, context_of, poll, start_service, status

PROMPT = "how should a refund be written to the database?"

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture


def _installed(client: str = "claude-code", guardrail: bool = False) -> dict[str, str]:
    """event → command, as `lorestack install CLIENT` wrote them into the user's settings."""
    from lorestack.integrations.installers import install

    data = json.loads(install(client, guardrail=guardrail).path.read_text())
    return {event: group["hooks"][-1]["command"] for event, groups in data["hooks"].items()
            for group in groups[-1:]}


def _run(command: str, payload, cwd: Path, **env: str) -> tuple[subprocess.CompletedProcess,
                                                                 list[str]]:
    """The command through a shell, as a client runs it; with the modules it imported."""
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    proc = subprocess.run(["/bin/sh", "-c", command], input=data, capture_output=True, cwd=cwd,
                          env={**os.environ, **NO_DEADLINE, "PYTHONPROFILEIMPORTTIME": "1", **env},
                          timeout=600)
    lines = proc.stderr.decode("utf-8", "replace").splitlines()
    names = [line.split("|")[-1].strip() for line in lines if line.startswith("import time:")]
    out = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode(),
                                      "\n".join(x for x in lines if not x.startswith("import ")))
    return out, names


def test_the_command_is_this_python_without_site_on_the_thin_entry():
    from lorestack.integrations.installers import hook_command

    words = shlex.split(hook_command())
    assert words[:2] == [sys.executable, "-S"]
    assert Path(words[2]).name == "thin.py" and Path(words[2]).parent.name == "lorestack"
    import lorestack

    assert words[2] == os.path.join(os.path.dirname(os.path.abspath(lorestack.__file__)),
                                    "thin.py")  # as imported: the service's identity uses it
    assert all(c.startswith(hook_command() + " ") for c in _installed().values())


def test_the_service_answers_a_start_without_site(stocked, run_dir):
    start_service(stocked)
    before = status()["answered"]
    command = _installed()["UserPromptSubmit"]
    proc, names = _run(command, {"session_id": "t1", "cwd": str(stocked), "prompt": PROMPT},
                       stocked)
    assert proc.returncode == 0, proc.stderr
    assert "ledger service" in context_of(proc)
    assert status()["answered"] > before  # the service answered, not an in-process run
    assert "site" not in names and "lorestack.launcher" in names
    assert not any(n.startswith(("lorestack.cli", "click", "pydantic")) for n in names), names


def test_without_a_service_it_restarts_with_site_and_answers_in_process(stocked, run_dir):
    command = _installed()["UserPromptSubmit"]
    payload = {"session_id": "t2", "cwd": str(stocked), "prompt": PROMPT}
    proc, names = _run(command, payload, stocked)
    assert proc.returncode == 0, proc.stderr
    assert "ledger service" in context_of(proc)  # the prompt read before the restart got there
    assert "site" in names and "lorestack.retrieval.loader" in names  # in-process, with site
    assert poll(lambda: status().get("pid")), "the restart did not start the service"
    again, names = _run(command, {**payload, "session_id": "t3"}, stocked)
    assert "ledger service" in context_of(again) and "site" not in names


def test_service_off_gives_the_in_process_answer_and_session_start_works(stocked, run_dir):
    from tests.conftest import run_cli

    off = {"LORESTACK_SERVICE__ENABLED": "false"}
    commands = _installed()
    payload = {"session_id": "t4", "cwd": str(stocked), "prompt": PROMPT}
    proc, names = _run(commands["UserPromptSubmit"], payload, stocked, **off)
    # another session: a session is not shown again what it received already
    local = run_cli("hook", "prompt", "--client", "claude-code",
                    input=json.dumps({**payload, "session_id": "t4-local"}),
                    cwd=stocked, env={**NO_DEADLINE, **off})
    assert context_of(proc) == context_of(local) and "ledger service" in context_of(proc)
    start, _ = _run(commands["SessionStart"], {"session_id": "t4", "cwd": str(stocked)},
                    stocked, **off)
    assert "Never run migrations on Friday" in context_of(start)
    assert not (run_dir / "service.sock").exists()  # nothing started


def test_a_guardrail_command_with_bytes_that_are_not_utf8_gets_the_cli_error(stocked, run_dir):
    command = _installed(guardrail=True)["PreToolUse"]
    assert "check --hook pre-tool" in command
    proc, _ = _run(command, b"\xff\xfe{not utf-8", stocked)
    # the console entry (with `site`) in the same environment: the same one line, exit 1
    local = subprocess.run([sys.executable, "-m", "lorestack.launcher", "check", "--hook",
                            "pre-tool", "--client", "claude-code"], input=b"\xff\xfe{not utf-8",
                           capture_output=True, cwd=stocked, env=os.environ, timeout=600)
    assert proc.returncode == local.returncode == 1
    assert proc.stderr.strip() == local.stderr.decode().strip()
    assert "nothing was checked" in proc.stderr  # said 'nothing was written' of a check
    assert not (run_dir / "service.sock").exists()  # refused before anything else


def test_a_package_folder_with_spaces_in_its_path(stocked, tmp_path):
    import lorestack

    spaced = tmp_path / "my tools (v2)"
    spaced.mkdir()
    (spaced / "lorestack").symlink_to(Path(lorestack.__file__).parent)
    command = f"{shlex.quote(sys.executable)} -S {shlex.quote(str(spaced / 'lorestack/thin.py'))}"
    payload = {"session_id": "t5", "cwd": str(stocked), "prompt": PROMPT}
    proc, _ = _run(command + " hook prompt --client claude-code", payload, stocked)
    assert proc.returncode == 0, proc.stderr
    assert "ledger service" in context_of(proc)


def test_doctor_names_a_thin_entry_that_is_gone():
    from lorestack.integrations.hook_health import _command_problem
    from lorestack.integrations.installers import hook_command

    assert _command_problem(hook_command() + " hook prompt --client codex") is None
    gone = f"{shlex.quote(sys.executable)} -S /nowhere/lorestack/thin.py hook prompt --client x"
    assert "/nowhere/lorestack/thin.py does not exist" in (_command_problem(gone) or "")


def test_a_client_that_keeps_stdin_open_still_gets_its_answer(stocked, run_dir):
    """Hooks read their payload to EOF; a client that writes it and leaves stdin open must not
    hold the hook until the client's own timeout kills it: once what came is a whole JSON
    payload (or stdin has been idle a moment), the hook answers."""
    command = _installed()["UserPromptSubmit"]
    payload = json.dumps({"session_id": "t9", "cwd": str(stocked), "prompt": PROMPT}).encode()
    proc = subprocess.Popen(["/bin/sh", "-c", command], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=stocked,
                            env={**os.environ, **NO_DEADLINE, "LORESTACK_SERVICE__ENABLED": "false"})
    assert proc.stdin is not None and proc.stdout is not None
    hang = threading.Timer(600, proc.kill)  # only catches a hang; no timing is asserted
    hang.start()
    try:
        proc.stdin.write(payload)
        proc.stdin.flush()  # ... and stdin stays open
        out = proc.stdout.read()  # ends when the hook exits
        assert proc.wait() == 0
    finally:
        hang.cancel()
        proc.stdin.close()
        proc.kill()
    answer = subprocess.CompletedProcess(command, 0, out.decode(), "")
    assert "ledger service" in context_of(answer)
