"""A hook in the service never waits past its deadline for another request's opening of the
same project's index.

`IndexPool.get` made a second request for an index being opened wait for that opening with no
bound (and the warm-up before it, one memory at a time, waited the same way): at a 100k
store the first request's catch-up takes seconds, and the prompt behind it reached its
deadline and answered empty. Now it waits only while the answer still fits in what is left
(`pool.OPENING_RESERVE_S`), then answers without the index (catalog titles and the journal)
and hooks.log says in one line that the index was being opened.

A real service (in-process `Service`, its pool installed as `serve` does) and a real store;
the first request's opening is held by the pool's own `on_open` call, so the slow open does
not depend on the machine's speed."""

from __future__ import annotations

import json
import socket
import threading

from tests import service_helpers

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture

PROMPT = "how should a refund be written to the database?"


def _prompt(service, repo, session: str, out: dict) -> None:
    from lorestack.integrations.service import protocol

    ours, theirs = socket.socketpair()
    request = {"version": protocol.VERSION, "op": "hook", "event": "prompt",
               "client": "claude-code",
               "stdin": json.dumps({"session_id": session, "cwd": str(repo), "prompt": PROMPT}),
               "caller": {"cwd": str(repo), "root": None, "env": protocol.caller_env()}}
    ours.sendall(protocol.encode(request))
    ours.shutdown(socket.SHUT_WR)
    service._handle(theirs)
    reader = protocol.LineReader(ours, protocol.MAX_REPLY)
    reply = reader.next()
    while reply.get("ack"):
        reply = reader.next()
    ours.close()
    out[session] = reply


def test_a_prompt_behind_another_requests_opening_answers_before_its_deadline(
        stocked, run_dir, monkeypatch):
    from lorestack.integrations.service import protocol
    from lorestack.integrations.service.server import Service
    from lorestack.memory_layers import parse_cache
    from lorestack.retrieval.pool import install

    # long enough for the answer without the index on a loaded machine; the held opening
    # below never ends within it
    monkeypatch.setenv("LORESTACK_HOOKS__PROMPT_DEADLINE_MS", "8000")
    monkeypatch.setenv("LORESTACK_HOOKS__DEADLINE_MS", "8000")
    service = Service(protocol.private_dir(create=True), watch=False)
    held, release = threading.Event(), threading.Event()
    watch = service.pool.on_open

    def slow_open(mem) -> None:
        if watch is not None:
            watch(mem)
        held.set()
        release.wait(300)  # the first request's opening (only a bound on a hang)

    service.pool.on_open = slow_open
    install(service.warm.pool)
    parse_cache.enable(True)
    replies: dict = {}
    first = threading.Thread(target=_prompt, args=(service, stocked, "first", replies))
    try:
        first.start()
        assert held.wait(120)
        second = threading.Thread(target=_prompt, args=(service, stocked, "second", replies))
        second.start()
        second.join(120)
        assert "second" in replies, "the second prompt waited for the other opening"
        answer = replies["second"]
        assert not answer.get("timed_out"), answer  # answered before its deadline, not at it
        context = json.loads(answer["output"])["hookSpecificOutput"]["additionalContext"]
        assert "refund" in context.lower()  # from the catalog titles
        log = (stocked / ".memory" / ".index" / "hooks.log").read_text()
        assert "being opened by another request" in log
    finally:
        release.set()
        first.join(120)
        parse_cache.enable(False)
        install(None)
        service.close()
    assert replies["first"]["output"]  # the request that opened it answered as before
