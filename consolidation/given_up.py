"""Clusters a run gave up on: kept in the run state, told on every run, asked again on demand.

A cluster whose model reply is refused (malformed JSON, unknown ids, no claim) on
`consolidation.max_failures` runs is given up: its events are marked consolidated-without-a-
claim, so a model that never answers it validly is not paid for every night. Nothing about
that is silent, and nothing is final: the cluster and its events stay in `state.json` under
`dropped`, every later report lists them (`given_up`), and `consolidate --retry-dropped`
puts their events back in the queue (a better model, a fixed prompt). A server that fails, or
turns calls away, never counts towards this (claims.ModelUnreachable, ClaimSkipped.server).
"""

from __future__ import annotations

from typing import Any

from lorestack.consolidation.checkpoint import State

RETRY_OPTION = "lorestack consolidate --retry-dropped"


def entry(events: list[str], reason: str, run: str) -> dict[str, Any]:
    """What is kept of one given-up cluster (`run`: the run that gave it up)."""
    return {"events": list(events), "reason": reason, "run": run}


def still_dropped(state: State) -> dict[str, dict[str, Any]]:
    """The given-up clusters whose events are not consolidated since (by `--since`, say)."""
    return {key: found for key, found in state.dropped.items()
            if any(state.processed.get(e) == "" for e in found.get("events", []))}


def dropped_ids(state: State) -> set[str]:
    """The events of every given-up cluster still waiting to be asked again."""
    return {e for found in state.dropped.values() for e in found.get("events", [])
            if state.processed.get(e) == ""}


def requeue(state: State) -> list[str]:
    """Put every given-up cluster's events back in the queue, their failure counts at zero;
    the event ids requeued."""
    ids: list[str] = []
    for key, found in state.dropped.items():
        for event_id in found.get("events", []):
            if state.processed.get(event_id) == "":
                del state.processed[event_id]
                ids.append(event_id)
        state.failures.pop(key, None)
    state.dropped.clear()
    return ids


def given_up_rows(state: State) -> list[dict[str, Any]]:
    """The report's list: one row per given-up cluster, oldest first."""
    rows = [{"key": key, **found} for key, found in still_dropped(state).items()]
    return sorted(rows, key=lambda row: (str(row.get("run", "")), row["key"]))
