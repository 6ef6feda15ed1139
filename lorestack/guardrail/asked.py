"""Remember which proposals were sent back to the agent for review, so the agent's retry of
the same call goes through (Cursor and Gemini can only reach the model by refusing a call).

Local state under `.memory/.index/` (a cache, like usage statistics): one small JSON map of
proposal fingerprint -> when it was asked, entries older than ASK_AGAIN_AFTER_S dropped.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

from lorestack.guardrail.findings import CheckResult
from lorestack.guardrail.proposals import Proposal
from lorestack.guardrail.replies import ASK_AGAIN_AFTER_S

STATE_FILE = "guardrail-asked.json"


def fingerprint(client: str, result: CheckResult, proposal: Proposal) -> str:
    ids = ",".join(sorted(f.id for f in result.undecided))
    raw = "\0".join([client, ids, proposal.text, *proposal.paths])
    return hashlib.sha256(raw.encode("utf-8", "replace")).hexdigest()[:24]


def first_ask(state_dir: Path, client: str, result: CheckResult, proposal: Proposal) -> bool:
    """True the first time this proposal meets these undecided criteria (and records it);
    False for a retry within ASK_AGAIN_AFTER_S. Unreadable state counts as a first ask."""
    if not result.undecided:
        return True
    path = state_dir / STATE_FILE
    now = time.time()
    try:
        seen = json.loads(path.read_text("utf-8"))
        if not isinstance(seen, dict):
            seen = {}
    except (OSError, ValueError):
        seen = {}
    seen = {k: v for k, v in seen.items() if isinstance(v, (int, float))}
    seen = {k: v for k, v in seen.items() if now - v < ASK_AGAIN_AFTER_S}
    key = fingerprint(client, result, proposal)
    if key in seen:
        seen.pop(key)  # one retry goes through; a later identical call is asked again
        asked_before = True
    else:
        seen[key] = now
        asked_before = False
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(seen), "utf-8")
        os.replace(tmp, path)
    except OSError:
        pass  # without state every call is a first ask: safe, only more verbose
    return not asked_before
