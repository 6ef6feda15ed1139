"""A memory written while no service ran (`lorestack remember` in-process, a `git pull`, a file
saved by hand) reaches the service's prompt recall. Hooks search without syncing, the watcher
sees only what changes after the service opened the project, and the folder check before a
request compares against the previous request: a fact remembered before the service started
was missing from every prompt answer until some later change woke the watcher (review of the
nineteenth session: the 1k bench store's fact, remembered right after its import, was in no
answer for 24 minutes of first prompts and services started by them)."""

from __future__ import annotations

import json

from tests import service_helpers

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture

PROMPT = "which read replica do the reports use?"


def _prompt(service, repo, session: str) -> str:
    """One prompt hook answered by the in-process service, as a client's request is."""
    out = service_helpers.served_prompt(service, repo, session, PROMPT)["output"]
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def test_a_fact_remembered_while_no_service_ran_reaches_the_services_prompts(stocked, run_dir):
    from lorestack.integrations.service import protocol
    from lorestack.integrations.service.server import Service
    from lorestack.memory_layers import parse_cache
    from lorestack.memory_layers.memory import Memory
    from lorestack.memory_layers.operations import remember
    from lorestack.retrieval.pool import install

    # written in-process after the index was built, as `lorestack remember` does with no
    # service: the file is there, the index does not have it yet
    remember(Memory.open(stocked), "The reporting read replica is ORCHID-7 on port 6432", "fact")
    service = Service(protocol.private_dir(create=True), watch=False)  # none saw it anyway
    install(service.warm.pool)  # as serve_forever does: hooks borrow the pool's indexes
    parse_cache.enable(True)  # and a warm process's prompt path (else the cold one is taken)
    try:
        # the request that opens the project's index already has it, not only the next one
        assert "ORCHID-7" in _prompt(service, stocked, "m1")
        assert "ORCHID-7" in _prompt(service, stocked, "m2")
        assert "ORCHID-7" in _prompt(service, stocked, "m3")
    finally:
        parse_cache.enable(False)
        install(None)
        service.close()
