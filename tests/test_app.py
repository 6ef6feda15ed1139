"""The application layer: typed requests, settings per caller, and what the service builds on
(per-request environment, read/write locks, settings cached per overlay)."""

from __future__ import annotations

import importlib.util
import shutil
import threading
import time
from pathlib import Path

import pytest

from lorestack import app
from lorestack.app.models import (
    Caller,
    ChangeRequest,
    ContextRequest,
    LogRequest,
    RememberRequest,
    SearchRequest,
)
from lorestack.core import overlay
from lorestack.core.errors import LorestackError


def test_caller_environment_applies_to_settings_and_home_for_the_block_only(tmp_path):
    from lorestack.core.paths import global_home
    from lorestack.core.settings import load_settings

    other_home = tmp_path / "elsewhere"
    with overlay.caller({"LORESTACK_RETRIEVAL__K": "3", "LORESTACK_HOME": str(other_home)}):
        assert load_settings().retrieval.k == 3
        assert global_home() == other_home
        with overlay.caller(None, tmp_path):  # None keeps the enclosing caller's environment
            assert load_settings().retrieval.k == 3
            assert overlay.working_dir() == tmp_path
    assert load_settings().retrieval.k == 10  # the process's own environment again
    assert global_home() != other_home


def test_a_caller_without_a_variable_does_not_see_the_process_one(monkeypatch):
    from lorestack.core.settings import load_settings

    monkeypatch.setenv("LORESTACK_LOADER__PROMPT_BUDGET", "77")
    assert load_settings().loader.prompt_budget == 77
    with overlay.caller({}):
        assert load_settings().loader.prompt_budget == 600


def test_operations_round_trip_through_json(repo):
    caller = {"cwd": str(repo)}
    written = app.call("remember", {"caller": caller, "text": "Invoices are numbered per year",
                                    "type": "decision"})
    item_id = written["item"]["id"]
    assert Path(written["path"]).is_file()
    logged = app.call("log", {"caller": caller, "text": "moved invoice numbering", "kind": "progress"})
    assert logged["event"]["kind"] == "progress"
    found = app.call("search", {"caller": caller, "query": "invoice numbering", "mode": "bm25"})
    assert item_id in [h["id"] for h in found["hits"]]
    shown = app.call("context", {"caller": caller, "query": "invoices"})
    assert "Invoices are numbered per year" in shown["text"]
    assert shown["tokens"] <= shown["budget"] == 2000  # loader.budget, the one default
    gone = app.call("change", {"caller": caller, "action": "forget", "id": item_id,
                               "reason": "numbering is global now"})
    assert Path(gone["archived"]).is_file()
    back = app.call("change", {"caller": caller, "action": "restore", "id": item_id})
    assert back["item"]["status"] == "active"
    todo = app.call("log", {"caller": caller, "text": "renumber 2023 invoices", "kind": "todo"})
    closed = app.call("change", {"caller": caller, "action": "done", "id": todo["event"]["id"],
                                 "text": "renumbered"})
    assert closed["item"]["kind"] == "progress"
    assert f"closes:{todo['event']['id']}" in closed["item"]["tags"]
    with pytest.raises(ValueError):
        app.parse("remember", {"caller": caller, "text": "x", "colour": "red"})  # extra field
    with pytest.raises(ValueError):
        app.parse("teleport", {})


def test_defaults_come_from_the_caller_settings(repo):
    """k and budget left unset are the settings' of the caller, not a front end's number."""
    for n in range(6):
        app.run(RememberRequest(caller=Caller(cwd=str(repo)), text=f"Queue worker {n} retries",
                                force=True))
    hits = app.run(SearchRequest(caller=Caller(cwd=str(repo), env={"LORESTACK_RETRIEVAL__K": "2"}),
                                 query="queue worker retries", mode="bm25")).hits
    assert len(hits) == 2
    ctx = app.run(ContextRequest(caller=Caller(cwd=str(repo),
                                               env={"LORESTACK_LOADER__BUDGET": "120"})))
    assert ctx.budget == 120 and ctx.tokens <= 120


def test_domain_errors_stay_domain_errors(repo):
    with pytest.raises(LorestackError):
        app.run(LogRequest(caller=Caller(cwd=str(repo)), text="   "))
    with pytest.raises(LorestackError):
        app.run(ChangeRequest(caller=Caller(cwd=str(repo)), action="forget", id="nope",
                              reason="x"))


def test_read_write_lock_lets_readers_share_and_writers_wait():
    from lorestack.integrations.service.warm import ReadWriteLock

    lock = ReadWriteLock()
    inside = []
    both_in = threading.Barrier(2, timeout=10)

    def reader():
        with lock.reading():
            inside.append("r")
            both_in.wait()  # only passes when the two readers hold the lock together

    readers = [threading.Thread(target=reader) for _ in range(2)]
    for t in readers:
        t.start()
    for t in readers:
        t.join(10)
    assert inside == ["r", "r"]

    order: list[str] = []
    with lock.reading():
        writer = threading.Thread(target=lambda: (lock.writing().__enter__(), order.append("w")))
        writer.start()
        time.sleep(0.2)
        order.append("reader done")
    writer.join(10)
    assert order == ["reader done", "w"]  # the writer waited for the reader


def test_service_caches_settings_per_overlay(stocked_repo):
    from lorestack.integrations.service.warm import WarmMemories
    from lorestack.retrieval.pool import IndexPool

    warm = WarmMemories(IndexPool(), watch=False)
    try:
        def open_as(env):
            caller = Caller(cwd=str(stocked_repo), env=env)
            with overlay.caller(caller.env, caller.cwd):
                return warm.opener(caller, True)

        plain = open_as({})
        again = open_as({})
        extra = open_as({"LORESTACK_HOOKS__PROMPT_K": "3"})
        assert plain is again  # composed once per overlay
        assert extra is not plain
        assert extra.settings.hooks.prompt_k == 3 and plain.settings.hooks.prompt_k == 8
        assert warm.overlays() == 2
        assert warm.projects() == [str(stocked_repo / ".memory")]
    finally:
        warm.close()


@pytest.fixture
def stocked_repo(repo):
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember

    remember(Memory.open(repo), "Refunds go through the ledger service", "decision")
    return repo


def _protocol_copy(folder: Path):
    source = Path(__file__).resolve().parents[1] / "lorestack/integrations/service/protocol.py"
    folder.mkdir(parents=True)
    shutil.copy(source, folder / "protocol.py")
    spec = importlib.util.spec_from_file_location(f"protocol_{folder.name}", folder / "protocol.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_two_installs_use_two_runtime_folders(tmp_path, monkeypatch):
    """A project venv and a global install must not evict each other's service."""
    runtime = tmp_path / "xdg"
    runtime.mkdir()
    monkeypatch.delenv("LORESTACK_SERVICE__RUNTIME_DIR", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    one = _protocol_copy(tmp_path / "venv-a")
    two = _protocol_copy(tmp_path / "venv-b")
    assert one.runtime_dir() != two.runtime_dir()
    assert one.runtime_dir().parent == two.runtime_dir().parent == runtime / "lorestack"
    assert one.VERSION != two.VERSION
    made = one.private_dir(create=True)
    assert made.is_dir() and (made.stat().st_mode & 0o777) == 0o700
    # an explicit folder is used as given (tests and users who place it themselves)
    monkeypatch.setenv("LORESTACK_SERVICE__RUNTIME_DIR", str(tmp_path / "given"))
    assert one.runtime_dir() == tmp_path / "given"
