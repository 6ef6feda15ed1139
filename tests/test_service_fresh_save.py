"""The service's search sees a memory file saved by hand a moment before. It relied on its file
watcher (0.1-1 s behind), so a search right after a save missed the new file (5 of 6 in a
tour); the service now compares its memory folders' mtimes before answering."""

from __future__ import annotations

import json

from tests import service_helpers
from tests.service_helpers import start_service, status

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture

WORDS = ["quokka", "pangolin", "axolotl", "narwhal", "okapi", "tapir"]


def _save(repo, n: int, word: str) -> None:
    stamp = "2026-12-04T10:00:00Z"
    (repo / ".memory" / "facts" / f"hand-{n}.md").write_text(
        f"---\nid: fact-hand{n}000000\ntype: fact\ntitle: The {word} service owns exports\n"
        f"created: '{stamp}'\nupdated: '{stamp}'\nconfidence: 1.0\n---\n\n"
        f"The {word} service owns every export job.\n")


def _search(repo, word: str) -> list[str]:
    from lorestack.integrations.service import client

    reply = client.call({"op": "cli", "argv": ["search", word, "--mode", "bm25", "--json"],
                         "caller": {"cwd": str(repo), "root": None,
                                    "env": client.protocol.caller_env()},
                         "stdin": None, "stdin_piped": False, "terminal": {}}, 120)
    assert reply["code"] == 0, reply["stderr"]
    return [hit["id"] for hit in json.loads(reply["stdout"])]


def test_a_search_right_after_a_hand_save_finds_it(stocked, run_dir):
    start_service(stocked)
    assert _search(stocked, "ledger")  # the service has the project open and synced
    served = status().get("answered", 0)
    found = 0
    for n, word in enumerate(WORDS):
        _save(stocked, n, word)
        found += f"fact-hand{n}000000" in _search(stocked, word)
    assert status().get("answered", 0) >= served + len(WORDS)  # the service answered them
    assert found == len(WORDS)


def test_the_folder_check_catches_up_a_few_files_and_leaves_many_to_the_watcher(stocked,
                                                                                 run_dir):
    """Review finding: the check ran a whole sync (embeddings included) under the write lock
    before the hook's deadline started; 120 files saved by hand held one prompt hook, and every
    request behind it, for 29.5 s. Now a few files are caught up at once (hooks search without
    syncing), and past CATCH_UP_EMBEDDINGS the text index is, the vectors left to the watcher."""
    from lorestack.core.overlay import caller as as_caller
    from lorestack.integrations.service import protocol
    from lorestack.integrations.service.server import Service
    from lorestack.retrieval.pool import CATCH_UP_EMBEDDINGS, install
    from tests.test_notice_after_reply import _served

    service = Service(protocol.private_dir(create=True), watch=False)
    install(service.warm.pool)  # as serve_forever does: hooks borrow the pool's indexes
    try:
        _served(service, stocked, "w1", lose=False)  # opens the project's index
        with as_caller(protocol.caller_env(), str(stocked)):
            key = service.warm.project_key(str(stocked), None)
        [index] = [i for k, i in service.warm.pool._open.items() if k[0] == key]

        def check(first: int, count: int) -> None:
            for n in range(first, first + count):
                _save(stocked, n, WORDS[n % len(WORDS)])
            with as_caller(protocol.caller_env(), str(stocked)):
                service.warm.catch_up(key)

        vectors = index.vectors.count()
        check(0, 1)
        assert "fact-hand0000000" in index.lexical.ids()
        assert index.vectors.count() == vectors + 1  # one file: embedded now
        check(1, CATCH_UP_EMBEDDINGS + 1)
        assert {f"fact-hand{n}000000" for n in range(1, CATCH_UP_EMBEDDINGS + 2)} \
            <= index.lexical.ids()  # many: found by words at once
        assert index.vectors.count() == vectors + 1  # their embedding is the watcher's
    finally:
        install(None)
        service.close()
