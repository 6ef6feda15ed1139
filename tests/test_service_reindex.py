"""`lorestack reindex` while the resident service runs: the service must read the new index.

Tour finding (a Claude Code project with the service on): after a reindex in another process
(the command runs in-process), the service kept the removed tantivy/Chroma folders open, so an
item written after the rebuild never got a dense rank in the service's search and hooks
(`vector_rank` None, relevance 0.52 vs 1.0 in-process) until the service was restarted.
"""

from __future__ import annotations

import json

from tests import service_helpers
from tests.conftest import run_cli
from tests.service_helpers import poll, start_service, status

run_dir = service_helpers.run_dir  # fixture
stocked = service_helpers.stocked  # fixture


def _explained(repo, query: str) -> dict:
    proc = run_cli("search", query, "--json", "--explain", cwd=repo)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    hits = data if isinstance(data, list) else data["hits"]
    return {h["id"]: h["explain"] for h in hits}


def test_an_item_written_after_a_reindex_is_ranked_densely_by_the_service(stocked, run_dir):
    start_service(stocked)
    served = status().get("answered", 0)
    assert _explained(stocked, "refunds ledger")  # the service opens and keeps the index
    assert status().get("answered", 0) > served  # answered by the service
    assert run_cli("reindex", cwd=stocked).returncode == 0  # another process rebuilds it
    (stocked / ".memory" / "facts" / "consul.md").write_text(
        "---\nid: fact-consulgossip\ntype: fact\ntitle: Consul gossip port\n---\n\n"
        "Consul gossip uses port 8301 between the agents.\n")
    seen = poll(lambda: _explained(stocked, "consul gossip port").get("fact-consulgossip"))
    assert seen, "the service never found the new item"
    assert seen.get("vector_rank") is not None, seen
