"""Compare a claim with what memory already holds and decide one plan step.

- similar and agreeing → merge: the item gains the events as evidence and some importance;
- similar and conflicting → the claim supersedes the item (which moves to archive/ with
  links both ways), unless the item is human-stated or review is on: then the claim waits
  as a `pending` proposal and `lorestack review` decides;
- otherwise → a new item (pending when review is on).

The model says which relation holds when one is configured; the extractive path decides by
similarity and by what the claim says about change:
- a change that was turned down ("rejected switching…", "decided against moving…", "will not
  migrate…", "considered replacing X but kept X") confirms the item: it agrees;
- a change whose new state is what the item already says ("we moved jobs to Redis streams"
  against "jobs run on Redis streams", "CliRunner instead of subprocess" against "use
  CliRunner, not subprocess") restates it: it agrees;
- a change away from what the item says ("switched from Postgres to MySQL", "no longer on
  Redis") is a change of mind: it conflicts, and only then does anything get superseded;
- a near-restatement merges; anything else is new.
Agreeing reinforces the item (importance and confidence rise, the access is recorded).
"""

from __future__ import annotations

import re

import numpy as np

from lorestack.consolidation.actions import Action, Op, item_id_for
from lorestack.consolidation.claims import Candidate, Claim
from lorestack.consolidation.cluster import CHANGE_CUE
from lorestack.core.settings import ConsolidationSettings

RESTATEMENT = 0.95  # this close, even a change cue is the same sentence again

# a change that was considered and turned down, said before the change cue in the same clause
_TURNED_DOWN = re.compile(
    r"\b(?:reject(?:ed|s|ing)?|decided against|decline[ds]?|declining|against|won'?t|will not|"
    r"would not|wouldn'?t|did not|didn'?t|do not|don'?t|does not|doesn'?t|not|nobody|no one|"
    r"never|considered|proposed|suggested|talked about|discussed|idea (?:of|to)|no plans? to|"
    r"refus(?:e|ed|ing)|vetoed|ruled out|without)\b", re.IGNORECASE)
# ...or abandoned after it: "but kept ruff", "went back to uv", "and said no"
_KEPT_AFTER = re.compile(
    r"\b(?:but|and|so)\s+(?:we\s+)?(?:kept|stay(?:ed)?|stuck|remained)\b|\bwent back\b|"
    r"\brolled back\b|\bsaid no\b|\bgave up\b", re.IGNORECASE)
_NEGATION_WINDOW = 5  # words before the cue a turning-down word may stand in
_CLAUSES = re.compile(r"[.;!?]\s+|\s+-+\s+|\n")
_WORD = re.compile(r"[a-z0-9][a-z0-9_+#.'-]*", re.IGNORECASE)
_STOP = frozenset(
    "a an the to from of in on for with and or but we our us it its is are was were be been this "
    "that these those by as at into onto over all any some now then they them their there here "
    "will would should must may might can could do does did not no so use used using uses "
    "while ago week day today yesterday again just also what which who".split())
_NEGATING_CUES = re.compile(r"no longer|not anymore|stop(?:ped)? using", re.IGNORECASE)
_INSTEAD = re.compile(r"instead of|rather than", re.IGNORECASE)
# in the item: what follows these is what it rules out ("use CliRunner, not subprocess")
_ITEM_NEGATION = re.compile(r"\b(?:not|no|never|without|instead of|rather than|avoid|nor|"
                            r"don'?t|do not)\s+((?:[\w+#.'-]+\s*){1,2})", re.IGNORECASE)


def _stem(word: str) -> str:
    word = word.lower().strip(".'-")
    for suffix in ("es", "s"):
        if len(word) > 4 and word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)]
    return word


def _words(text: str) -> list[str]:
    return [_stem(w) for w in _WORD.findall(text) if w.lower() not in _STOP and len(w) > 1]


def _item_polarity(item_text: str) -> tuple[set[str], set[str]]:
    """(what the item holds, what it rules out) as content words."""
    ruled_out = {w for m in _ITEM_NEGATION.finditer(item_text) for w in _words(m.group(1))}
    return set(_words(item_text)) - ruled_out, ruled_out


def _sides(clause: str, cue: re.Match) -> tuple[list[str], list[str]]:
    """(old state, new state) words as the clause names them around its change cue; the new
    state's head word comes first."""
    before, after = clause[: cue.start()], clause[cue.end():]
    if _INSTEAD.fullmatch(cue.group(0)):
        return _words(after), list(reversed(_words(before)))  # "X instead of Y"
    if _NEGATING_CUES.search(cue.group(0)):
        return _words(after), []  # "no longer on Redis": what follows is the old state
    text = cue.group(0) + after
    marker = re.search(r"\bfrom\b(.*?)\b(?:to|with|for|by)\b(.*)$", text, re.IGNORECASE)
    if marker:
        return _words(marker.group(1)), _words(marker.group(2))
    marker = re.search(r"^\S+\s+(.*?)\b(?:to|with|for|by)\b(.*)$", text, re.IGNORECASE)
    if marker:
        # "replaced ruff with black": ruff is old; "moved jobs to Redis": only the new is named
        old = _words(marker.group(1)) if re.match(r"replac|drop", cue.group(0), re.I) else []
        return old, _words(marker.group(2))
    return [], _words(after)


def change_of_mind(claim_text: str, item_text: str) -> bool | None:
    """Does the claim announce a change away from what the item says?

    True: a real change (the item stops holding). False: a change cue is there, but the change
    was turned down or its new state is what the item already holds. None: no change cue."""
    holds, ruled_out = _item_polarity(item_text)
    seen_cue = False
    for clause in _CLAUSES.split(claim_text):
        for cue in CHANGE_CUE.finditer(clause):
            seen_cue = True
            lead = " ".join(clause[: cue.start()].split()[-_NEGATION_WINDOW:])
            if _TURNED_DOWN.search(lead) or _KEPT_AFTER.search(clause[cue.end():]):
                continue
            old, new = _sides(clause, cue)
            if set(old) & holds:
                return True  # it moves away from something the item holds
            if new and new[0] in holds and new[0] not in ruled_out:
                continue  # the item already holds the new state: a restatement
            return True
    return False if seen_cue else None


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
    if best.similarity >= settings.similar_threshold and change_of_mind(claim.text, best.text):
        return "conflicts", best
    # agreeing merges the claim's events into the item as evidence, so it needs the item to be
    # about the same thing: a turned-down change or a restatement below this threshold is new
    # (tests/merge_pairs.py: the threshold that keeps every same-vocabulary pair apart)
    if best.similarity >= settings.duplicate_threshold:
        return "agrees", best
    return "new", None


def reinforce(importance: float, n_events: int) -> float:
    """More evidence, more importance: close a share of the gap to 1 per merge."""
    share = min(0.5, 0.1 + 0.05 * n_events)
    return round(min(1.0, importance + (1.0 - importance) * share), 3)


def _proposal(claim: Claim, key: str, cluster_ids: list[str], run_id: str, *,
              merge_into: str) -> Action:
    source = {"kind": "consolidation", "run": run_id, "events": claim.cited, "key": key,
              "method": claim.method}
    item: dict = {"id": item_id_for(key, claim.type), "type": claim.type, "scope": "project",
                  "title": claim.title, "confidence": claim.confidence,
                  "importance": claim.importance, "source": source, "status": "pending",
                  "tags": claim.tags, "proposed_merge_into": merge_into}
    return Action(op="propose", key=key, item=item, body=claim.text, target=merge_into,
                  events=claim.cited, cluster=cluster_ids)


def decide(claim: Claim, key: str, cluster_ids: list[str], ranked: list[Candidate], *,
           settings: ConsolidationSettings, run_id: str) -> tuple[Action, Candidate | None]:
    """The plan step for one claim, and the candidate it creates (to reconcile later claims)."""
    relation, target = _relation(claim, ranked, settings)
    if relation == "agrees" and target is not None and not target.machine:
        # an item a person wrote is never changed without review: the merge waits as a proposal
        return _proposal(claim, key, cluster_ids, run_id, merge_into=target.id), None
    if relation == "agrees" and target is not None:
        action = Action(op="merge", key=key, target=target.id, events=claim.cited,
                        importance=reinforce(target.importance, len(claim.cited)),
                        confidence=reinforce(target.confidence, len(claim.cited)),
                        cluster=cluster_ids)
        target.importance = action.importance or target.importance
        target.confidence = action.confidence or target.confidence
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
