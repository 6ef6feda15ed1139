"""The LLM path through litellm's real HTTP code against a scripted local server."""

from __future__ import annotations

import json
import re
from datetime import timedelta

from lorestack.consolidation.checkpoint import Checkpoint
from lorestack.consolidation.extract import extract_session
from lorestack.consolidation.job import run_consolidation
from lorestack.memory_layers.memory import Memory
from tests.test_consolidation import BASE, SEED, items_by_id, seed
from tests.test_extract import SECRET, claude_transcript

EVENT_ID = re.compile(r"- id=(ev-[\w-]+) ")
ITEM_LINE = re.compile(r"- id=((?:dec|fact|cav|pref)-[\w-]+) type=\S+ status=\S+ by=\S+: (.*)")


def _prompt(request: dict) -> str:
    return request["messages"][-1]["content"]


def responder(request: dict) -> str:
    """A well-behaved model: one claim per cluster, relations from the offered items."""
    prompt = _prompt(request)
    events = EVENT_ID.findall(prompt)
    existing = dict(ITEM_LINE.findall(prompt))
    reply = {"skip": False, "cited_events": events, "confidence": 0.9, "relation": "new",
             "existing_id": None}
    if "Redis" in prompt.split("Existing items")[0]:
        old = next((i for i, text in existing.items() if "PostgreSQL" in text), None)
        reply.update(claim="The job queue runs on Redis streams (Postgres locks hurt throughput).",
                     title="Job queue on Redis streams", type="decision")
        if old:
            reply.update(relation="conflicts", existing_id=old)
    elif "PostgreSQL" in prompt.split("Existing items")[0]:
        old = next((i for i, text in existing.items() if "PostgreSQL" in text), None)
        reply.update(claim="The job queue runs on PostgreSQL.", title="Job queue on PostgreSQL",
                     type="decision")
        if old:
            reply.update(relation="agrees", existing_id=old)
    elif "tailwind" in prompt:
        reply.update(claim="The CSS build uses tailwind through postcss.", title="CSS: tailwind",
                     type="fact")
    else:
        reply = {"skip": True, "reason": "nothing durable"}
    return json.dumps(reply)


def direct_mem(repo, **extra) -> Memory:
    return Memory.open(repo, **{"consolidation.pending_review": False, **extra})


def test_llm_claims_chain_tokens_and_noop_rerun(repo, fake_llm):
    server = fake_llm(responder=responder)
    mem = direct_mem(repo)
    seed(mem)
    report = run_consolidation(mem, now=BASE + timedelta(days=6))
    assert report.method == "llm" and report.model == "openai/fake-model"
    items = items_by_id(mem)
    pg = next(i for i in items.values() if i.title == "Job queue on PostgreSQL")
    redis = next(i for i in items.values() if i.title == "Job queue on Redis streams")
    assert pg.source.events == ["ev-pg000001", "ev-pg000002", "ev-pg000003"]
    assert redis.supersedes == [pg.id] and pg.superseded_by == redis.id and pg.status == "archived"
    assert redis.confidence == 0.7  # capped at machine_confidence, below human 1.0
    assert redis.source.method == "llm" and redis.source.events == ["ev-rd000001"]
    # noise was filtered before any call: 3 PostgreSQL mentions + Redis + tailwind
    assert report.llm_calls == len(server.requests) == 5
    assert report.prompt_tokens == 500 and report.completion_tokens == 100
    assert all(r["response_format"] == {"type": "json_object"} for r in server.requests)
    again = run_consolidation(mem, now=BASE + timedelta(days=6))
    assert again.llm_calls == 0 and not again.changed and len(server.requests) == 5


ONE = [("ev-one00001", 0, 10, "decision", [], "We will use PostgreSQL for the job queue")]


def test_malformed_refused_and_unknown_ids_are_retried_then_skipped(repo, fake_llm):
    bad_ids = json.dumps({"claim": "The job queue runs on PostgreSQL.", "type": "decision",
                          "confidence": 0.9, "cited_events": ["ev-invented1"]})
    server = fake_llm(["{not json at all", "I'm sorry, I can't help with that.", bad_ids],
                      responder=responder)
    mem = direct_mem(repo)
    seed(mem, rows=ONE)
    report = run_consolidation(mem, now=BASE + timedelta(days=1))
    assert len(server.requests) == 3  # one call, retried twice by the client
    assert items_by_id(mem) == {} and not report.changed
    assert len(report.skipped) == 1 and not report.skipped[0].final
    assert "unknown event ids" in report.skipped[0].reason
    state = Checkpoint(mem.project).load_state()
    assert "ev-one00001" not in state.processed and list(state.failures.values()) == [1]
    # next run: the model behaves; the waiting events become a claim citing them
    later = run_consolidation(mem, now=BASE + timedelta(days=1))
    assert later.added and items_by_id(mem)[later.added[0]].source.events == ["ev-one00001"]
    assert Checkpoint(mem.project).load_state().failures == {}


def test_timeouts_skip_without_writing(repo, fake_llm):
    server = fake_llm([{"delay": 2, "content": "{}"}] * 3, timeout_s=0.4)
    mem = direct_mem(repo, **{"consolidation.max_failures": 1})
    seed(mem, rows=ONE)
    report = run_consolidation(mem, now=BASE + timedelta(days=1))
    assert items_by_id(mem) == {} and len(server.requests) == 3
    assert "Timeout" in report.skipped[0].reason or "timed out" in report.skipped[0].reason.lower()
    # a timeout is the server's failure, not the cluster's: never counted towards dropping
    # it (a server down for max_failures nights dropped every cluster), the events wait
    assert not report.skipped[0].final and "dropped" not in report.skipped[0].reason
    state = Checkpoint(mem.project).load_state()
    assert state.processed == {} and not any(state.failures.values())


def test_token_budget_caps_the_run_and_defers_the_rest(repo, fake_llm):
    server = fake_llm(responder=responder)
    mem = direct_mem(repo, **{"consolidation.ttl_days": 1, "consolidation.llm_max_tokens": 200})
    seed(mem)
    # each call is estimated at ~250 prompt tokens (tiktoken) + 200 completion; the server
    # then reports 120 used: 500 pays for one call, not two
    report = run_consolidation(mem, max_tokens=500, now=BASE + timedelta(days=30))
    assert report.llm_calls == len(server.requests) == 1
    assert report.stopped.startswith("token budget 500 spent")
    assert report.deferred_events == 6  # day 1 (2 events) was done before the money ran out
    state = Checkpoint(mem.project).load_state()
    assert "ev-pg000001" in state.processed and "ev-pg000002" not in state.processed
    # days whose events wait for the next run are not archived, however old
    assert report.archived_days == ["2026-01-05.md"]
    full = run_consolidation(mem, now=BASE + timedelta(days=30))
    assert full.llm_calls == 4 and len(full.superseded) == 1
    assert len(full.archived_days) == 4


def test_secrets_from_a_transcript_never_reach_the_llm(repo, tmp_path, fake_llm):
    server = fake_llm(responder=lambda request: json.dumps({
        "claim": "Migrations must not run against production.", "type": "caveat",
        "confidence": 0.8, "cited_events": EVENT_ID.findall(_prompt(request))}))
    mem = direct_mem(repo)
    extract_session(mem, claude_transcript(tmp_path / "s.jsonl"), "claude-code")
    report = run_consolidation(mem, since=BASE.replace(year=2026, month=3, day=1),
                               now=BASE.replace(month=3, day=3))
    assert report.llm_calls >= 1
    sent = "\n".join(server.prompts())
    assert SECRET not in sent and SECRET[:12] not in sent and "[REDACTED" in sent
    files = "\n".join(p.read_text() for p in (repo / ".memory").rglob("*.md"))
    assert SECRET[:12] not in files


def test_seed_rows_are_the_shared_fixture():
    # the crash tests replay the same seed; keep ids unique so claim keys are stable
    assert len({row[0] for row in SEED}) == len(SEED)


def _closed_port_base() -> str:
    import socket

    with socket.socket() as sock:  # bound then closed: nothing listens there
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def test_a_server_that_cannot_be_reached_stops_the_run_and_drops_nothing(repo, fake_llm,
                                                                          monkeypatch):
    """Trial finding: with the model's server down for max_failures nights, every cluster was
    'failed N runs; dropped' and its events were never consolidated once the server came
    back. Unreachable is the server's fault, not the cluster's: the run stops, the events
    wait (no failure counted), and the next run with the server up consolidates them."""
    mem = direct_mem(repo, **{"consolidation.max_failures": 1})
    seed(mem)
    monkeypatch.setenv("LORESTACK_LLM__MODEL", "openai/fake-model")
    monkeypatch.setenv("LORESTACK_LLM__API_BASE", _closed_port_base())
    for _ in range(2):  # more nights than max_failures
        down = run_consolidation(direct_mem(repo, **{"consolidation.max_failures": 1}),
                                 now=BASE + timedelta(days=6))
        assert down.stopped.startswith("the model could not be reached"), down.stopped
        assert down.skipped == [] and not down.changed and down.deferred_events > 0
        state = Checkpoint(mem.project).load_state()
        assert state.failures == {} or set(state.failures.values()) == {0}
        assert "ev-pg000001" not in state.processed and "ev-rd000001" not in state.processed
    server = fake_llm(responder=responder)
    back = run_consolidation(direct_mem(repo), now=BASE + timedelta(days=6))
    assert back.stopped == "" and back.llm_calls == len(server.requests) == 5
    titles = {i.title for i in items_by_id(direct_mem(repo)).values()}
    assert {"Job queue on PostgreSQL", "Job queue on Redis streams"} <= titles


def test_a_claim_the_model_calls_new_but_that_restates_an_item_is_merged(repo, fake_llm):
    """Trial finding: a model that answered relation 'new' with the very sentence of an item
    it was shown (here: three days of the same decision) left three identical pending items
    for review. The same sentence again reinforces that item, as on the extractive path."""
    def restating(request: dict) -> str:
        events = EVENT_ID.findall(_prompt(request))
        if "PostgreSQL" not in _prompt(request).split("Existing items")[0]:
            return json.dumps({"skip": True, "reason": "nothing durable"})
        return json.dumps({"claim": "The job queue runs on PostgreSQL.", "type": "decision",
                           "title": "Job queue on PostgreSQL", "confidence": 0.9,
                           "cited_events": events, "relation": "new", "existing_id": None})

    server = fake_llm(responder=restating)
    mem = direct_mem(repo)
    seed(mem, rows=[row for row in SEED if row[0].startswith("ev-pg")])
    report = run_consolidation(mem, now=BASE + timedelta(days=6))
    assert len(server.requests) == 3  # one day each: the model saw the item from day 2 on
    items = list(items_by_id(mem).values())
    assert len(items) == 1 and len(report.added) == 1 and len(report.merged) == 2, report.steps
    assert items[0].source.events == ["ev-pg000001", "ev-pg000002", "ev-pg000003"]
