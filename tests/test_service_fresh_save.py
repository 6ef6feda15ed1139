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
