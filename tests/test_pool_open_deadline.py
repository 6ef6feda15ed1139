"""A hook in the service never waits past its deadline for another request's opening of the
same project's index.

`IndexPool.get` made a second request for an index being opened wait for that opening with no
bound (and the warm-up before it, one memory at a time, waited the same way): at a 100k
store the first request's catch-up takes seconds, and the prompt behind it reached its
deadline and answered empty. Now it waits only while the answer still fits in what is left
(`pool.OPENING_RESERVE`, at least `OPENING_RESERVE_MIN_S`). The warm-up before it (one
memory at a time) is bounded to half of that; a request that could not wait for it opens no
pooled index itself (its lazy set-up must not race another's): a prompt answers from BM25 on an
index of its own (tests/test_service_warming_prompt.py), other hooks without the index.

A real service (in-process `Service`, its pool installed as `serve` does) and a real store;
the first request's opening is held by the pool's own `on_open` call, so the slow open does
not depend on the machine's speed."""

from __future__ import annotations

import json
import threading

from tests import service_helpers

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture

PROMPT = "how should a refund be written to the database?"


def _prompt(service, repo, session: str, out: dict) -> None:
    out[session] = service_helpers.served_prompt(service, repo, session, PROMPT)


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
        # from BM25 on an index of its own (the twenty-second session; before, from the
        # catalog titles with "is being opened" in hooks.log)
        assert "refund" in context.lower()
        assert replies["second"]["ok"]
    finally:
        release.set()
        first.join(120)
        parse_cache.enable(False)
        install(None)
        service.close()
    assert replies["first"]["output"]  # the request that opened it answered as before


def test_the_pools_wait_for_an_opening_is_bounded_by_the_hooks_deadline(tmp_path):
    """`IndexPool.get` itself, for a request under a deadline (`core.guarded`): another
    request's opening held, it raises IndexOpening with time left for the answer; outside a
    deadline (a command) it waits for the opening as before."""
    from lorestack.core.guarded import Deadline, run_guarded
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember
    from lorestack.retrieval.index import MemoryIndex
    from lorestack.retrieval.pool import IndexPool

    root = tmp_path / "big"
    root.mkdir()
    Memory.init(root)
    remember(Memory.open(root), "The reporting read replica is ORCHID-7", "fact")
    index = MemoryIndex(Memory.open(root))
    index.sync()
    index.close()
    held, release = threading.Event(), threading.Event()

    def slow_open(_mem) -> None:
        held.set()
        release.wait(300)

    pool = IndexPool(on_open=slow_open)
    got: dict = {}
    first = threading.Thread(target=lambda: got.update(first=pool.get(Memory.open(root))))
    first.start()
    try:
        assert held.wait(120)
        run = run_guarded(lambda _d: pool.get(Memory.open(root)), Deadline(6.0))
        assert not run.ok and not run.timed_out, run  # raised before the deadline
        assert "IndexOpening" in (run.error or "") and "being opened" in (run.error or "")
    finally:
        release.set()
        first.join(120)
    assert pool.get(Memory.open(root)) is got["first"]  # no deadline: the open index
    pool.close_all()


def test_a_memory_whose_warm_up_was_skipped_is_not_opened_by_its_next_request(
        stocked, tmp_path, run_dir, monkeypatch):
    """A prompt that could not wait for the warm-up lock (another memory's warm-up held it)
    answers without its index; the next prompt for the same memory, while that other warm-up
    still runs, must not open the index outside the lock either. The skipped memory was
    cached as if warmed, so the next request took it from the cache, skipped the warm-up and
    opened the pooled index (embedder, Chroma client) beside the other memory's warm-up."""
    from lorestack.integrations.service import protocol
    from lorestack.integrations.service.server import Service
    from lorestack.memory_layers import parse_cache
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember
    from lorestack.retrieval.index import MemoryIndex
    from lorestack.retrieval.pool import install

    other = tmp_path / "other"
    other.mkdir()
    Memory.init(other)
    remember(Memory.open(other), "Refunds above 500 EUR need a second approver", "decision")
    index = MemoryIndex(Memory.open(other), warn=lambda _m: None)
    index.sync()
    index.close()
    monkeypatch.setenv("LORESTACK_HOOKS__PROMPT_DEADLINE_MS", "5000")
    monkeypatch.setenv("LORESTACK_HOOKS__DEADLINE_MS", "5000")
    service = Service(protocol.private_dir(create=True), watch=False)
    held, release = threading.Event(), threading.Event()
    opened: list[str] = []
    watch = service.pool.on_open

    def slow_open(mem) -> None:
        if watch is not None:
            watch(mem)
        opened.append(str(mem.primary.root.resolve()))
        if not held.is_set():  # the first memory's warm-up (only a bound on a hang)
            held.set()
            release.wait(300)

    service.pool.on_open = slow_open
    install(service.warm.pool)
    parse_cache.enable(True)
    replies: dict = {}
    first = threading.Thread(target=_prompt, args=(service, stocked, "first", replies))
    try:
        first.start()
        assert held.wait(120)
        for session in ("skipped", "next"):
            _prompt(service, other, session, replies)
            assert not replies[session].get("timed_out"), replies[session]
        opened_meanwhile = list(opened)
    finally:
        release.set()
        first.join(120)
        parse_cache.enable(False)
        install(None)
        service.close()
    ours = str((other / ".memory").resolve())
    assert not [root for root in opened_meanwhile if root.startswith(ours)], opened_meanwhile
