"""Compare a claim with what memory already holds and decide one plan step.

- similar and agreeing → merge: the item gains the events as evidence and some importance;
- similar and conflicting → the claim supersedes the item (which moves to archive/ with
  links both ways), unless the item is human-stated or review is on: then the claim waits
  as a `pending` proposal and `memstrata review` decides;
- otherwise → a new item (pending when review is on).

The model says which relation holds when one is configured; the extractive path decides by
similarity: a near-restatement merges, a similar claim that announces a change ("switch
to", "instead of", "no longer") conflicts, anything else is new.
"""

from __future__ import annotations

import numpy as np
from memstrata.consolidation.actions import Action, Op, item_id_for
from memstrata.consolidation.claims import Candidate, Claim
from memstrata.consolidation.cluster import CHANGE_CUE

from memstrata.core.settings import ConsolidationSettings

RESTATEMENT = 0.95  # this close, even a change cue is the same sentence again


def rank_candidates(vector: np.ndarray, candidates: list[Candidate], k: int,
                    floor: float) -> list[Candidate]:
    """The k most similar candidates at or above `floor`, best first (ties: by id)."""
    scored = []
    for cand in candidates:
        if cand.vector is None:
            continue
        sim = float(np.dot(vector, cand.vector))
        if sim >= floor:
            scored.append((sim, cand))
    scored.sort(key=lambda pair: (-round(pair[0], 6), pair[1].id))
    out = []
    for sim, cand in scored[:k]:
        cand.similarity = sim
        out.append(cand)
    return out


def _relation(claim: Claim, ranked: list[Candidate], settings: ConsolidationSettings
              ) -> tuple[str, Candidate | None]:
    if claim.method == "llm":
        target = next((c for c in ranked if c.id == claim.existing_id), None)
        return (claim.relation, target) if target else ("new", None)
    if not ranked:
        return "new", None
    best = ranked[0]
    if best.similarity >= RESTATEMENT:
        return "agrees", best
    if best.similarity >= settings.similar_threshold and CHANGE_CUE.search(claim.text):
        return "conflicts", best
    if best.similarity >= settings.duplicate_threshold:
        return "agrees", best
    return "new", None


def reinforce(importance: float, n_events: int) -> float:
    """More evidence, more importance: close a share of the gap to 1 per merge."""
    share = min(0.5, 0.1 + 0.05 * n_events)
    return round(min(1.0, importance + (1.0 - importance) * share), 3)


def decide(claim: Claim, key: str, cluster_ids: list[str], ranked: list[Candidate], *,
           settings: ConsolidationSettings, run_id: str) -> tuple[Action, Candidate | None]:
    """The plan step for one claim, and the candidate it creates (to reconcile later claims)."""
    relation, target = _relation(claim, ranked, settings)
    if relation == "agrees" and target is not None:
        action = Action(op="merge", key=key, target=target.id, events=claim.cited,
                        importance=reinforce(target.importance, len(claim.cited)),
                        cluster=cluster_ids)
        target.importance = action.importance or target.importance
        return action, None
    new_id = item_id_for(key, claim.type)
    review = settings.pending_review
    status = "pending" if review else "active"
    source = {"kind": "consolidation", "run": run_id, "events": claim.cited, "key": key,
              "method": claim.method}
    item: dict = {"id": new_id, "type": claim.type, "scope": "project", "title": claim.title,
                  "confidence": claim.confidence, "importance": claim.importance,
                  "source": source, "status": status, "tags": claim.tags}
    op: Op
    if relation == "conflicts" and target is not None:
        if review or not target.machine or target.status == "pending":
            item["status"] = "pending"
            item["proposed_supersedes"] = target.id
            op = "propose"
        else:
            item["supersedes"] = [target.id]
            op = "supersede"
        action = Action(op=op, key=key, item=item, body=claim.text, target=target.id,
                        events=claim.cited, cluster=cluster_ids)
    else:
        action = Action(op="add", key=key, item=item, body=claim.text, events=claim.cited,
                        cluster=cluster_ids)
    created = Candidate(id=new_id, type=claim.type, title=claim.title, text=claim.text,
                        status=item["status"], machine=True, importance=claim.importance)
    return action, created
