"""The consolidation job: journal events since the checkpoint → stable L1/L2 claims.

A run takes the lock, finishes any plan a crashed run left, then walks the new events one
UTC day at a time (a backlog is replayed as the nights it missed, so a decision and its later
reversal become a supersede chain): cluster → one claim per cluster → reconcile → write the
day's plan → apply its steps → save the checkpoint. Then forgetting, as one more plan.
Claim ids derive from the cited events, every step is idempotent, and the plan is on disk
before the first write, so a rerun after `kill -9` anywhere ends in the same files.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Callable
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

import numpy as np

from lorestack.consolidation import given_up
from lorestack.consolidation.actions import (
    Action,
    World,
    apply_action,
    claim_key,
    coalesce_merges,
    expect_targets,
    machine_owned,
)
from lorestack.consolidation.checkpoint import Checkpoint, CrashPoints, Plan, State
from lorestack.consolidation.claims import (
    BudgetExhausted,
    Candidate,
    ClaimSkipped,
    LLMClaimer,
    ModelUnreachable,
    extractive_claim,
    worth_a_claim,
)
from lorestack.consolidation.cluster import cluster_events
from lorestack.consolidation.cron import cap_log
from lorestack.consolidation.forgetting import plan_forgetting
from lorestack.consolidation.reconcile import RESTATEMENT, decide, rank_candidates
from lorestack.consolidation.report import (
    ConsolidationReport,
    SkippedCluster,
    commit_message,
    git_commit,
    render_diff,
    snapshot,
)
from lorestack.core.paths import MemoryPaths
from lorestack.memory_layers.conflicts import without_conflicts
from lorestack.memory_layers.memory import Memory
from lorestack.memory_layers.models import JournalEvent, now_utc
from lorestack.retrieval.llm import llm_configured

Progress = Callable[[int, int], None]


class _Vectors:
    """Embeds texts once per run (items are re-compared on every window)."""

    def __init__(self, mem: Memory):
        self.mem = mem
        self._embedder: Any = None  # an `Embedder`, loaded on first use
        self._cache: dict[str, np.ndarray] = {}

    def __call__(self, texts: list[str]) -> np.ndarray:
        missing = [t for t in dict.fromkeys(texts) if t not in self._cache]
        if missing:
            if self._embedder is None:
                from lorestack.retrieval.embedding import get_embedder

                self._embedder = get_embedder(self.mem.settings)
            for text, row in zip(missing, self._embedder.embed(missing)):
                self._cache[text] = row
        if not texts:
            return np.zeros((0, 1), dtype=np.float32)
        return np.vstack([self._cache[t] for t in texts])


def _processed_ids(state: State, world: World) -> set[str]:
    cited = set(state.processed)
    for copies in world.by_id.values():
        for loaded in copies:
            cited.update(loaded.item.source.events)
    return cited


def _candidates(world: World, vectors: _Vectors) -> list[Candidate]:
    out = []
    for item_id in sorted(world.by_id):
        loaded = world.live(item_id)
        if loaded is None or item_id in ("project", "profile"):
            continue
        item = loaded.item
        out.append(Candidate(id=item.id, type=item.type, title=item.title, text=item.text,
                             status=item.status, machine=machine_owned(item),
                             importance=item.importance, confidence=item.confidence))
    if out:
        rows = vectors([c.text for c in out])
        for cand, row in zip(out, rows):
            cand.vector = row
    return out


class Runner:
    def __init__(self, mem: Memory, report: ConsolidationReport, *, max_tokens: int | None,
                 progress: Progress | None, crash: CrashPoints):
        self.mem = mem
        self.settings = mem.settings.consolidation
        self.report = report
        self.checkpoint = Checkpoint(mem.require_project().paths)
        self.crash = crash
        self.progress = progress
        self.vectors = _Vectors(mem)
        self.world = World(mem)
        self.state = self.checkpoint.load_state()
        self.claimer = None
        self.client = None
        self.server_failed = False  # the last cluster's call failed on the server's side
        if llm_configured(mem.settings.llm):
            from lorestack.retrieval.llm import LLMClient

            self.client = LLMClient(mem.settings.llm,
                                    entropy_threshold=mem.settings.guard.entropy_threshold)
            self.claimer = LLMClaimer(
                self.client, budget=max_tokens or self.settings.max_tokens,
                max_tokens=self.settings.llm_max_tokens, encoding=mem.settings.tokens.encoding,
                machine_confidence=self.settings.machine_confidence)
            report.method, report.model = "llm", self.client.model

    # ---- applying ------------------------------------------------------------------------
    def apply_plan(self, plan: Plan) -> None:
        failed_clusters: set[str] = set()
        for index, action in enumerate(plan.actions):
            applied = apply_action(self.mem, self.world, action, self.crash)
            self._record(action, applied.note)
            if applied.note.startswith("skipped"):
                failed_clusters.update(action.cluster)
            self.crash(f"step:{index}")
        for event_id, key in plan.processed.items():
            if event_id not in failed_clusters:
                self.state.processed[event_id] = key
        for key, count in plan.failures.items():
            if count:
                self.state.failures[key] = count
            else:
                self.state.failures.pop(key, None)
        self.state.dropped.update(plan.dropped)
        self.checkpoint.save_state(self.state)
        self.crash("state")
        self.checkpoint.clear_plan()

    def _record(self, action: Action, note: str) -> None:
        report = self.report
        report.steps.append(action.describe() + (f" [{note}]" if note else ""))
        if note.startswith("skipped"):
            return  # named in the steps; nothing was added, superseded or archived
        new_id = str((action.item or {}).get("id") or "")
        target, day = action.target or "", action.day or ""
        if action.op == "add":
            report.added.append(new_id)
        elif action.op == "propose":
            report.proposed.append(new_id)
        elif action.op == "supersede":
            report.superseded.append({"new": new_id, "old": target})
        elif action.op == "merge":
            report.merged.extend([target] * len(action.merge_keys()))
        elif action.op == "archive_item":
            report.archived_items.append(target)
        elif action.op == "archive_day":
            report.archived_days.append(day)

    # ---- planning ------------------------------------------------------------------------
    def plan_window(self, day: date, events: list[JournalEvent], done_before: int, total: int) -> Plan:
        plan = Plan(run=self.report.run, stage="claims", window=day.isoformat())
        texts = [e.text.strip() for e in events]
        vectors = self.vectors(texts)
        clusters = cluster_events(events, vectors, min_similarity=self.settings.min_cluster_similarity,
                                  tag_weight=self.settings.tag_weight)
        self.report.clusters += len(clusters)
        row_of = {e.id: i for i, e in enumerate(events)}
        candidates = _candidates(self.world, self.vectors)
        done = done_before
        for number, cluster in enumerate(clusters):
            key = claim_key(cluster.ids)
            if self.world.key_applied(key):
                plan.processed.update({i: key for i in cluster.ids})
            elif self._deleted_by_hand(key, cluster.ids):
                plan.processed.update({i: key for i in cluster.ids})
                reason = ("its claim was deleted by hand since a run made it: not proposed again "
                          "(a new event on the subject proposes it anew)")
                plan.skipped.append({"key": key, "events": cluster.ids, "reason": reason,
                                     "final": True})
                self.report.skipped.append(SkippedCluster(key, cluster.ids, reason, True))
            elif not worth_a_claim(cluster, self.settings.min_cluster_events):
                plan.processed.update({i: "" for i in cluster.ids})
            else:
                rows = vectors[[row_of[i] for i in (e.id for e in cluster.events)]]
                centroid = rows.mean(axis=0)
                centroid /= max(float(np.linalg.norm(centroid)), 1e-12)
                try:
                    claim = self._claim(cluster, rows, centroid, candidates)
                except (BudgetExhausted, ModelUnreachable) as exc:
                    plan.stopped = str(exc)
                    self.report.model_failed = isinstance(exc, ModelUnreachable)
                    self.report.deferred_events += sum(len(c.events) for c in clusters[number:])
                    break
                except ClaimSkipped as exc:
                    self._skip(plan, key, cluster.ids, str(exc), exc.final, counted=not exc.server)
                else:
                    claim_vec = self.vectors([claim.text])[0]
                    if claim.method == "llm":  # the model named its target among those shown
                        ranked = [c for c in candidates if c.id == claim.existing_id]
                        if not ranked and claim.relation == "new":
                            # the same sentence again is no new item, whatever the model said
                            # (the extractive path's RESTATEMENT rule)
                            ranked = rank_candidates(claim_vec, candidates, 1, RESTATEMENT)
                            if ranked:
                                claim.relation, claim.existing_id = "agrees", ranked[0].id
                    else:
                        ranked = rank_candidates(claim_vec, candidates, self.settings.candidates,
                                                 min(self.settings.similar_threshold, 0.5))
                    action, created = decide(claim, key, cluster.ids, ranked,
                                             settings=self.settings, run_id=self.report.run)
                    if action.item is not None:
                        # the files and symbols the claim's events name become its anchors
                        action.item.update(self._anchors(claim.text, cluster))
                    plan.actions.append(action)
                    plan.processed.update({i: key for i in cluster.ids})
                    plan.failures[key] = 0
                    if created is not None:
                        created.vector = claim_vec
                        candidates.append(created)
                    if action.op == "supersede":
                        candidates = [c for c in candidates if c.id != action.target]
            done += len(cluster.events)
            if self.progress:
                self.progress(done, total)
        plan.actions = coalesce_merges(plan.actions)
        expect_targets(self.world, plan.actions)
        return plan

    def _anchors(self, text: str, cluster) -> dict:
        from lorestack.memory_layers.anchor_edits import anchor_fields

        named = "\n".join([text, *(e.text for e in cluster.events)])
        try:
            return anchor_fields(self.mem, named, None)
        except Exception:  # noqa: BLE001 - anchors are a proposal; a claim never waits on one
            return {}

    def _claim(self, cluster, rows, centroid, candidates):
        if self.claimer is None:
            return extractive_claim(cluster, rows, self.settings.machine_confidence)
        ranked = rank_candidates(centroid, candidates, self.settings.candidates, 0.35)
        try:
            claim = self.claimer.claim(cluster, ranked)
        except ClaimSkipped as exc:
            # one cluster's timeout may be its own; two in a row are the server's: stop asking
            if exc.server and self.server_failed:
                raise ModelUnreachable(f"the model's server failed twice in a row ({exc})") from exc
            self.server_failed = exc.server
            raise
        self.server_failed = False
        return claim

    def _deleted_by_hand(self, key: str, ids: list[str]) -> bool:
        """Did an earlier run make a claim of exactly these events that no file holds now (live
        or archived)? `--since` offers consolidated events again; a person who deleted the
        claim's file said no to it, and the same events must not write it back."""
        return bool(ids) and all(self.state.processed.get(i) == key for i in ids)

    def _skip(self, plan: Plan, key: str, ids: list[str], reason: str, final: bool,
              counted: bool = True) -> None:
        failures = self.state.failures.get(key, 0) + (1 if counted and not final else 0)
        give_up = final or failures >= self.settings.max_failures
        if give_up:
            plan.processed.update({i: "" for i in ids})
            plan.failures[key] = 0
            if not final:
                reason += f" (failed {failures} runs; given up: `{given_up.RETRY_OPTION}` asks again)"
                plan.dropped[key] = given_up.entry(ids, reason, self.report.run)
        else:
            plan.failures[key] = failures
        plan.skipped.append({"key": key, "events": ids, "reason": reason, "final": give_up})
        self.report.skipped.append(SkippedCluster(key, ids, reason, give_up))

    # ---- the run -------------------------------------------------------------------------
    def run(self, *, since: datetime | None, now: datetime, retry_dropped: bool = False) -> None:
        leftover = self.checkpoint.load_plan()
        if leftover is not None:
            self.report.resumed = True
            self.apply_plan(leftover)
            if leftover.stopped:
                self.report.stopped = leftover.stopped
        if retry_dropped:
            self.report.retried = len(given_up.requeue(self.state))
            self.checkpoint.save_state(self.state)
        journal = self.mem.require_project().journal.read_all()
        for problem in journal.problems:
            self.report.notes.append(f"journal: {problem}")
        processed = _processed_ids(self.state, self.world)
        if since is not None:
            pending = [e for e in journal.events if e.time >= since]
        else:
            pending = [e for e in journal.events if e.id not in processed]
        # an event a git merge left with its conflict unresolved holds two versions: which is
        # true is the person's to settle (the journal names it); it waits, uncounted
        pending = [e for e in pending if not without_conflicts(e.text)[1]]
        self.report.events_considered = len(pending)
        windows: dict[date, list[JournalEvent]] = {}
        for event in pending:
            windows.setdefault(event.time.astimezone(timezone.utc).date(), []).append(event)
        done = 0
        for day in sorted(windows):
            if self.report.stopped:
                self.report.deferred_events += len(windows[day])
                continue
            self.report.windows += 1
            plan = self.plan_window(day, windows[day], done, len(pending))
            done += len(windows[day])
            if plan.actions or plan.processed or plan.failures:
                self.checkpoint.save_plan(plan)
                self.crash("plan")
                self.apply_plan(plan)
            if plan.stopped:
                self.report.stopped = plan.stopped
        self.forget(now)
        # the true count of what waits: a skipped cluster's events, the days after a stop
        processed = _processed_ids(self.state, self.world)
        self.report.waiting_events = sum(1 for e in pending if e.id not in processed)
        self.report.given_up = given_up.given_up_rows(self.state)
        if self.client is not None:
            usage = self.client.usage
            self.report.llm_calls = usage.calls
            self.report.prompt_tokens = usage.prompt_tokens
            self.report.completion_tokens = usage.completion_tokens
            self.report.cost_usd = round(usage.cost_usd, 6)

    def forget(self, now: datetime) -> None:
        self.world.refresh()
        # a given-up event is no reason to archive its day: `--retry-dropped` reads it there
        processed = _processed_ids(self.state, self.world) - given_up.dropped_ids(self.state)
        actions = plan_forgetting(self.mem, self.world, processed, now)
        if actions:
            plan = Plan(run=self.report.run, stage="forget", actions=actions)
            expect_targets(self.world, plan.actions)
            self.checkpoint.save_plan(plan)
            self.crash("plan")
            self.apply_plan(plan)


def _run_id(now: datetime) -> str:
    return f"run-{now.strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(2)}"


def _execute(mem: Memory, report: ConsolidationReport, *, since, max_tokens, now, progress,
             crash: CrashPoints, retry_dropped: bool = False) -> None:
    paths = mem.require_project().paths
    checkpoint = Checkpoint(paths)
    with checkpoint.lock():
        if not report.dry_run and (capped := cap_log(paths.index_dir)):
            report.notes.append(capped)
        before = snapshot(paths.root)
        runner = Runner(mem, report, max_tokens=max_tokens, progress=progress, crash=crash)
        runner.run(since=since, now=now, retry_dropped=retry_dropped)
        report.diff = render_diff(before, snapshot(paths.root))
        state = runner.state
        state.last_run = {"run": report.run, "at": now_utc().isoformat(), "added": len(report.added),
                          "merged": len(report.merged), "superseded": len(report.superseded),
                          "archived": len(report.archived_items) + len(report.archived_days),
                          "tokens": report.total_tokens}
        checkpoint.save_state(state)
        report.checkpoints = list(crash.names)


def run_consolidation(mem: Memory, *, dry_run: bool = False, since: datetime | date | None = None,
                      max_tokens: int | None = None, now: datetime | None = None,
                      progress: Progress | None = None, commit: bool | None = None,
                      crash_at: int | None = None, require_llm: bool = False,
                      retry_dropped: bool = False) -> ConsolidationReport:
    """Consolidate the project journal; return what changed (with a reviewable diff).

    A configured model that cannot be called (litellm missing, no credentials) is found before
    the first call: the run falls back to the extractive path with a note, or raises LLMError
    with `require_llm`."""
    paths = mem.require_project().paths
    now = now or now_utc()
    fallback = _llm_fallback(mem, require_llm)
    if fallback is not None:
        mem, note = fallback
    else:
        note = ""
    if isinstance(since, date) and not isinstance(since, datetime):
        since = datetime(since.year, since.month, since.day, tzinfo=timezone.utc)
    report = ConsolidationReport(run=_run_id(now), dry_run=dry_run)
    if note:
        report.notes.append(note)
    crash = CrashPoints(crash_at)
    if not dry_run:
        _execute(mem, report, since=since, max_tokens=max_tokens, now=now, progress=progress,
                 crash=crash, retry_dropped=retry_dropped)
        wants_commit = mem.settings.consolidation.git_commit if commit is None else commit
        if wants_commit and report.changed:
            report.commit, note = git_commit(paths.repo_dir, paths.root, commit_message(report))
            report.notes.append(f"git: {note}")
        return report
    # a dry run is a real run on a scratch copy: what it shows is exactly what a run would do
    with Checkpoint(paths).lock(), tempfile.TemporaryDirectory(prefix="lorestack-dry-") as tmp:
        copy = Path(tmp) / ".memory"
        shutil.copytree(paths.root, copy, ignore=shutil.ignore_patterns(".index"))
        state_dir = paths.index_dir / "consolidation"
        for name in ("state.json", "plan.json"):
            if (state_dir / name).exists():
                (copy / ".index" / "consolidation").mkdir(parents=True, exist_ok=True)
                shutil.copy2(state_dir / name, copy / ".index" / "consolidation" / name)
        scratch = Memory(MemoryPaths(copy), mem.home, mem.settings, project_name=mem.project_name)
        _execute(scratch, report, since=since, max_tokens=max_tokens, now=now, progress=progress,
                 crash=CrashPoints(0), retry_dropped=retry_dropped)
    return report


def _llm_fallback(mem: Memory, require_llm: bool) -> tuple[Memory, str] | None:
    """(memory without a model, note) when the configured model cannot be called."""
    from lorestack.core.errors import LLMError
    from lorestack.retrieval.llm import credentials_problem

    if not llm_configured(mem.settings.llm):
        if require_llm:
            raise LLMError("--require-llm: no model configured; set [llm] model or pass --model")
        return None
    problem = credentials_problem(mem.settings.llm)
    if problem is None:
        return None
    if require_llm:
        raise LLMError(f"{problem}; stopping (--require-llm)")
    llm = mem.settings.llm.model_copy(update={"model": ""})
    settings = mem.settings.model_copy(update={"llm": llm})
    without = Memory(mem.project, mem.home, settings, project_name=mem.project_name)
    return without, f"{problem}; using the extractive path instead"

