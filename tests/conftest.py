"""Every test runs in its own temporary places, with the real model from ../shared/models."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from lorestack.core import legacy

# property tests: no per-example deadline and no "too slow" health check. Both are wall-clock
# limits (200 ms an example by default) that a loaded machine breaks without any bug.
settings.register_profile(
    "lorestack", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("lorestack")

REPO = Path(__file__).resolve().parents[1]
SHARED_MODEL = REPO.parent / "shared" / "models" / "all-MiniLM-L6-v2" / "onnx"
# Read once at import: the `isolated` fixture removes every LORESTACK_* variable per test.
_TEST_MODEL_DIR = os.environ.get("LORESTACK_TEST_MODEL_DIR")


def model_dir() -> Path:
    """The ONNX model the tests use: LORESTACK_TEST_MODEL_DIR, else ../shared's copy."""
    return Path(_TEST_MODEL_DIR) if _TEST_MODEL_DIR else SHARED_MODEL


def _isolate(monkeypatch, home: Path) -> None:
    """The environment every test runs in: its own home, the test model, no service."""
    home.mkdir(parents=True, exist_ok=True)
    model = model_dir()  # read before LORESTACK_TEST_MODEL_DIR is cleared with the rest
    for var in list(os.environ):
        if var.startswith(("LORESTACK_", legacy.LEGACY_ENV_PREFIX)):
            monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("LORESTACK_HOME", str(home / ".lorestack"))
    monkeypatch.setenv("LORESTACK_EMBEDDING__MODEL_DIR", str(model))
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")
    # no test leaves a resident service behind; tests/test_service*.py turn it on explicitly
    monkeypatch.setenv("LORESTACK_SERVICE__ENABLED", "false")


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    """Point every path lorestack uses at tmp_path; no test touches the real home."""
    work = tmp_path / "repo"
    work.mkdir()
    _isolate(monkeypatch, tmp_path / "home")
    monkeypatch.chdir(work)
    return work


@contextmanager
def isolated_env(base: Path):
    """`isolated`'s environment for a module-scoped fixture, which is built before it: without
    it a module's memory was opened with the shell's variables (the real home; the model only
    when LORESTACK_EMBEDDING__MODEL_DIR happened to be exported) and CI read it without one."""
    with pytest.MonkeyPatch.context() as mp:
        _isolate(mp, base / "home")
        yield


# Hook deadlines for tests that run a hook but are not about its deadline: ten minutes, so a
# loaded machine cannot turn a slow answer into an empty one. Tests about the deadline set
# their own (0 ms, 1 ms, 50 ms ...) after this and win.
LONG_HOOK_DEADLINES = {
    "LORESTACK_HOOKS__DEADLINE_MS": "600000",
    "LORESTACK_HOOKS__PROMPT_DEADLINE_MS": "600000",
    "LORESTACK_GUARDRAIL__HOOK_DEADLINE_MS": "600000",
}


@pytest.fixture
def long_hook_deadlines(isolated, monkeypatch):
    """Set LONG_HOOK_DEADLINES in the environment (hooks run in-process, by run_cli, by git or
    by a real client all inherit it)."""
    for var, value in LONG_HOOK_DEADLINES.items():
        monkeypatch.setenv(var, value)


@pytest.fixture
def repo(isolated):
    """A project folder with an initialised .memory/."""
    from lorestack.memory_layers.memory import Memory

    Memory.init(isolated)
    return isolated


@pytest.fixture
def mem(repo):
    from lorestack.memory_layers.memory import Memory

    return Memory.open(repo)


@pytest.fixture
def journal_store(repo):
    """A project whose answer is a journal event (ORCHID-7), with one unrelated remembered
    fact and another event, indexed with the test model: what a first prompt recalls from."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import log_event, remember
    from lorestack.retrieval.index import MemoryIndex

    mem = Memory.open(repo, **{"embedding.model_dir": str(model_dir())})
    remember(mem, "Release notes are written in the changelog by whoever merges", "fact")
    log_event(mem, "Moved the nightly reports to the read replica ORCHID-7 on port 6432",
              "progress")
    log_event(mem, "Flaky login test quarantined until the auth rewrite lands", "note")
    index = MemoryIndex(mem)
    index.sync()
    index.close()
    return repo


def run_cli(*args: str, input: str | None = None, cwd: Path | None = None, env=None,
            timeout: float = 600) -> subprocess.CompletedProcess:
    """Run `lorestack` as a whole process, as a user or a client hook would.

    The timeout only catches a hang: it is generous, as a loaded machine can be very slow."""
    return subprocess.run(
        [sys.executable, "-m", "lorestack.cli", *args], input=input, capture_output=True,
        text=True, cwd=cwd, env={**os.environ, **(env or {})}, timeout=timeout,
    )


# A whole `lorestack` process in which the cold full prompt recall never fits the time left, so a
# test of the BM25-at-once path does not depend on how fast a loaded machine makes the BM25 answer
# (a 1 s deadline did: under four busy loops the hook had not made it when the deadline passed).
_COLD_ALWAYS_LATE = ("import runpy, sys; from lorestack.app import cold_recall; "
                     "cold_recall.COLD_FULL_MS = 1e12; sys.argv[0] = 'lorestack'; "
                     "runpy.run_module('lorestack.cli', run_name='__main__')")


def run_cli_cold_always_late(*args: str, input: str | None = None, cwd: Path | None = None,
                             env=None) -> subprocess.CompletedProcess:
    """`run_cli`, with the cold full recall's estimate beyond any deadline."""
    return subprocess.run(
        [sys.executable, "-c", _COLD_ALWAYS_LATE, *args], input=input, capture_output=True,
        text=True, cwd=cwd, env={**os.environ, **(env or {})}, timeout=600,
    )


@pytest.fixture
def fake_llm(monkeypatch):
    """Start a scripted OpenAI-compatible server and configure lorestack to use it.

    Usage: `with fake_llm(["{...}", {"status": 500}]) as server: ...`
    """
    from tests.fakellm import FakeLLM

    # a generous timeout: on a loaded machine a local answer can take seconds, and a timeout
    # would turn into a retry the test counts; the timeout tests pass their own (0.4 s, 0.5 s)
    def start(script=None, responder=None, timeout_s: float = 120):
        server = FakeLLM(script, responder)
        server.__enter__()
        monkeypatch.setenv("LORESTACK_LLM__MODEL", "openai/fake-model")
        monkeypatch.setenv("LORESTACK_LLM__API_BASE", server.api_base)
        monkeypatch.setenv("LORESTACK_LLM__TIMEOUT_S", str(timeout_s))
        started.append(server)
        return server

    started: list = []
    yield start
    for server in started:
        server.__exit__(None, None, None)


def new_file_diff(path: str, lines: list[str]) -> dict:
    """A proposal that is a `git diff` creating `path` with `lines`."""
    plus = "".join(f"+{line}\n" for line in lines)
    return {"diff": f"diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..2222222\n"
                    f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{len(lines)} @@\n{plus}"}



def bash_call(command: str) -> dict:
    """A proposal that is a Claude Code Bash tool call running `command`."""
    return {"payload": {"tool_name": "Bash", "tool_input": {"command": command}}}


def edit_diff(path: str, minus: list[str], plus: list[str]) -> dict:
    """A proposal that is a `git diff` of `path` replacing the lines `minus` with `plus`."""
    m = "".join(f"-{line}\n" for line in minus)
    p = "".join(f"+{line}\n" for line in plus)
    return {"diff": f"diff --git a/{path} b/{path}\nindex 1111111..2222222 100644\n--- a/{path}\n"
                    f"+++ b/{path}\n@@ -1,{len(minus)} +1,{len(plus)} @@\n{m}{p}"}

@contextmanager
def confirmed_git_store(base: Path, criteria: dict, files: dict[str, str]):
    """A memory holding `criteria` as typed and confirmed (tests.heldout_eval.build) in a git
    repository holding `files`, committed: the store the guardrail's command tests check."""
    from tests import heldout_eval

    with isolated_env(base):
        mem, ids = heldout_eval.build(base, criteria, confirmed=True)
        repo = mem.project.repo_dir
        for name, text in files.items():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            (repo / name).write_text(text)
        git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
        if not (repo / ".git").exists():
            subprocess.run(["git", "init", "-q", str(repo)], check=True)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-qm", "init"], check=True)
        yield mem, ids


def answers_of(store, cases, key: str | None = None) -> dict[str, str]:
    """{case id: answer} for rows (case id, criterion key, proposal, ...) of one store, or rows
    (case id, proposal, ...) all under criterion `key`."""
    return {row[0]: confirmed_answer(store, key, row[1]) if key else confirmed_answer(store, row[1], row[2])
            for row in cases}


def answers_in_both_modes(base: Path, criteria: dict, cases) -> dict[bool, dict[str, str]]:
    """{confirmed: {case id: answer}} with the criteria stored as guesses (False) and with
    every drafted reading confirmed (True), for rows (case id, criterion key, proposal, ...)."""
    from tests import heldout_eval

    out = {}
    for confirmed in (False, True):
        mem, ids = heldout_eval.build(base / f"confirmed-{confirmed}", criteria, confirmed=confirmed)
        out[confirmed] = answers_of((mem, ids), cases)
    return out


def confirmed_answer(store, key: str, raw) -> str:
    """The answer (block / warn / undecided / pass) `check` gives for criterion `key` of a
    `confirmed_git_store` to the proposal `raw` (tests.guardrail_sentence_cases' forms)."""
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    return heldout_eval.answer(result, ids[key])
