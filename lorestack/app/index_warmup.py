"""The background index sync a hook starts when it finds the index cold.

    python -m lorestack.app.index_warmup ROOT

It opens the memory the way a hook does: a broken config.toml is read leniently (what is
broken is left out), so a typo in the config does not keep the index cold for every prompt
of every session. Before, the sync ran `lorestack search`, a command, which stops on a broken
config file with its error sent nowhere; each prompt was then answered from catalog titles.
"""

from __future__ import annotations

import sys
from typing import Any


def warm(root: str) -> None:
    """Bring the index up to date (a BM25 search syncs it), as a hook would open the memory."""
    from lorestack.memory_layers.memory import Memory
    from lorestack.retrieval.index import search

    no_download: dict[str, Any] = {"embedding.allow_download": False}  # as a hook: no network
    mem = Memory.open(root, require_project=False, lenient_config=True, **no_download)
    search(mem, "index warm-up", k=1, mode="bm25", record_access=False)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m lorestack.app.index_warmup ROOT", file=sys.stderr)
        return 2
    warm(argv[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
