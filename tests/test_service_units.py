"""Pieces of the service that need no process: fallback at the deadline, job folding, framing."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import tomllib

from lorestack.app import cold_recall, hooks
from lorestack.integrations.service import protocol
from lorestack.integrations.service.jobs import ExtractionJob, ExtractionQueue
from tests import service_helpers

stocked = service_helpers.stocked  # fixture


def test_prompt_answers_with_bm25_when_the_full_pipeline_misses_the_deadline(stocked, monkeypatch):
    released = threading.Event()
    real = hooks.prompt_context

    def slow_hybrid(mem, payload, retrieval, **kw):
        if retrieval != "bm25":
            released.wait(120)  # the full pipeline never finishes within the deadline
        return real(mem, payload, retrieval, **kw)

    monkeypatch.setattr(hooks, "prompt_context", slow_hybrid)
    # this test is about the deadline: on a loaded machine the BM25 answer may leave too
    # little time for the cold full pipeline, and the hook then answers at once without
    # waiting (tests/test_cold_recall.py covers that path), which is not what is tested here
    monkeypatch.setattr(cold_recall, "too_late", lambda mem, remaining_s: None)
    payload = {
        "session_id": "dl",
        "cwd": str(stocked),
        "prompt": "how should a refund be written to the database?",
    }
    try:
        run = hooks.run_hook("prompt", "claude-code", json.dumps(payload), deadline_ms=6000)
    finally:
        released.set()
    assert run.timed_out
    context = json.loads(run.output)["hookSpecificOutput"]["additionalContext"]
    assert "ledger service" in context
    log = (stocked / ".memory" / ".index" / "hooks.log").read_text()
    assert "answered with BM25 recall" in log


def test_in_the_service_the_bm25_answer_is_made_only_for_a_slow_full_pipeline(stocked,
                                                                             monkeypatch):
    from lorestack.memory_layers import parse_cache

    released = threading.Event()
    real = hooks.prompt_context
    asked: list[str] = []

    def counting(mem, payload, retrieval, **kw):
        asked.append(retrieval)
        if retrieval != "bm25" and not released.is_set():
            released.wait(120)
        return real(mem, payload, retrieval, **kw)

    monkeypatch.setattr(hooks, "prompt_context", counting)
    payload = json.dumps({"session_id": "svc", "cwd": str(stocked),
                          "prompt": "how should a refund be written to the database?"})
    parse_cache.enable(True)  # as the service runs
    try:
        released.set()
        fast = hooks.run_hook("prompt", "claude-code", payload, deadline_ms=60000)
        assert fast.ok and asked == ["default"]  # no BM25 pass before the full one
        released.clear()
        asked.clear()
        try:
            slow = hooks.run_hook("prompt", "claude-code", payload.replace('"svc"', '"svc2"'),
                                  deadline_ms=6000)
        finally:
            released.set()
    finally:
        parse_cache.enable(False)
    assert slow.timed_out and "bm25" in asked  # made at half the deadline, and answered
    assert "ledger service" in json.loads(slow.output)["hookSpecificOutput"]["additionalContext"]


def test_one_extraction_per_session_and_none_for_an_unchanged_transcript(tmp_path):
    transcript = tmp_path / "t.jsonl"
    transcript.write_text("{}\n")
    runs: list[str] = []
    queue = ExtractionQueue(lambda job: runs.append(job.key))

    def job():
        return ExtractionJob(key="s1", transcript=str(transcript), client="gemini", root="/x")

    assert queue.submit(job(), "PreCompress") == "queued"
    assert queue.submit(job(), "SessionEnd") == "merged"
    queue.start()
    assert queue.wait_idle(60)
    assert runs == ["s1"]
    queue.submit(job(), "SessionEnd")  # same transcript, nothing new to read
    assert queue.wait_idle(60)
    assert runs == ["s1"]
    transcript.write_text("{}\n{}\n")
    queue.submit(job(), "SessionEnd")
    assert queue.wait_idle(60)
    assert runs == ["s1", "s1"]
    queue.stop()


def test_waiting_jobs_survive_a_service_stop(tmp_path):
    state = tmp_path / "jobs.json"
    first = ExtractionQueue(lambda job: None, state_file=state)
    first.submit(ExtractionJob(key="s9", transcript="/t", client="codex", root="/x"), "Stop")
    first.stop()  # never started: the job is still waiting
    runs: list[str] = []
    second = ExtractionQueue(lambda job: runs.append(job.key), state_file=state)
    second.start()
    assert second.wait_idle(60)
    assert runs == ["s9"] and not state.exists()
    second.stop()


def test_framing_and_fingerprint():
    import socket

    left, right = socket.socketpair()
    left.sendall(protocol.encode({"op": "ping", "text": "é\n"}))
    assert protocol.read_message(right, 1000) == {"op": "ping", "text": "é\n"}
    left.close()
    right.close()
    base = {"HOME": "/h", "LORESTACK_LOADER__BUDGET": "900", "LORESTACK_ROOT": "/a"}
    assert protocol.env_fingerprint(base) == protocol.env_fingerprint(
        {**base, "LORESTACK_ROOT": "/b", "LORESTACK_SERVICE__RUNTIME_DIR": "/r", "PATH": "/x"}
    )
    assert protocol.env_fingerprint(base) != protocol.env_fingerprint(
        {**base, "LORESTACK_LOADER__BUDGET": "901"}
    )


def test_handshake_version_is_the_package_version():
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    assert protocol.PACKAGE_VERSION == pyproject["project"]["version"]


def test_handshake_version_names_the_catalog_format():
    """A service of the code before a catalog format change must not serve a converted store:
    the format is part of the handshake version (the thin hook path cannot import the
    catalog, so protocol keeps its own copy)."""
    from lorestack.retrieval.catalog import CATALOG_VERSION

    assert protocol.INDEX_FORMAT == CATALOG_VERSION
    assert f".c{CATALOG_VERSION}." in protocol.VERSION


def test_an_idle_service_exits_and_removes_its_socket(tmp_path, monkeypatch):
    import tempfile

    from lorestack.integrations.service.server import Service

    folder = Path(tempfile.mkdtemp(prefix="ms-", dir="/tmp")) / "run"
    monkeypatch.setenv("LORESTACK_SERVICE__RUNTIME_DIR", str(folder))
    service = Service(protocol.private_dir(create=True), idle_exit_s=0.2, watch=False)
    service.bind()
    assert (folder / "service.sock").exists()
    thread = threading.Thread(target=service.serve_forever, daemon=True)
    thread.start()
    thread.join(120)  # returns once idle for 0.2 s (bounded, generous)
    assert not thread.is_alive()
    assert not (folder / "service.sock").exists()
    second = Service(folder, idle_exit_s=0.2, watch=False)
    second.bind(wait_s=0)  # the lock was released with it
    second.close()
    import shutil

    shutil.rmtree(folder.parent, ignore_errors=True)


def test_the_service_composes_hook_settings_once_and_follows_config_and_environment(
        repo, monkeypatch):
    from lorestack.core.clients import parse_payload
    from lorestack.core.overlay import caller
    from lorestack.memory_layers import parse_cache

    payload = parse_payload(json.dumps({"cwd": str(repo), "prompt": "x"}), "claude-code", "prompt")
    parse_cache.enable(True)
    try:
        first = hooks._configured_hooks(payload, None)
        assert hooks._configured_hooks(payload, None) is first  # composed once
        (repo / ".memory" / "config.toml").write_text("[hooks]\ndeadline_ms = 1234\n")
        assert hooks._configured_hooks(payload, None).deadline_ms == 1234  # the file changed
        with caller({"LORESTACK_HOOKS__DEADLINE_MS": "4321"}, str(repo)):
            assert hooks._configured_hooks(payload, None).deadline_ms == 4321  # another overlay
        assert hooks._configured_hooks(payload, None).deadline_ms == 1234
    finally:
        parse_cache.enable(False)


def _json_values():
    from hypothesis import strategies as st

    scalars = (st.none() | st.booleans() | st.integers() | st.floats()
               | st.text(st.characters(blacklist_categories=("Cs",))))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=20)


def test_the_wire_codec_writes_and_reads_what_json_does():
    """`protocol.encode`/`decode` go through `_json` without the `json` package (the thin
    hook's start): the same bytes as json.dumps and the same values as json.loads."""
    from hypothesis import given
    from hypothesis import strategies as st

    @given(st.dictionaries(st.text(max_size=8), _json_values(), max_size=6))
    def same(message):
        wire = protocol.encode(message)
        assert wire == (json.dumps(message, ensure_ascii=False, separators=(",", ":"))
                        + "\n").encode("utf-8")
        back = protocol.decode(wire.rstrip(b"\n"))
        assert json.dumps(back, sort_keys=True) == json.dumps(json.loads(wire), sort_keys=True)

    same()
    for bad in (b"", b"[1]", b'{"a":1} x', b'{"a":', b'{"a":"\x01"}', b"\xff"):
        try:
            protocol.decode(bad)
        except protocol.ProtocolError:
            continue
        raise AssertionError(f"{bad!r} was accepted")
