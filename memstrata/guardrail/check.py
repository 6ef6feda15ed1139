"""The decision guardrail: hold a proposal against the criteria, decisions and caveats that
apply, and answer pass / warn / block citing the rule and when it was set.

Order of judgement:
1. every active criterion is judged by its own rules (memory_layers/criteria_rules.py);
   archived and superseded criteria never count;
2. related criteria, decisions and caveats are looked up in the hybrid index (optional:
   it loads tantivy, Chroma and the ONNX model, so hooks skip it unless configured);
3. what the rules could not decide goes to the LLM judge when one is configured and
   `[guardrail] llm = true` (memstrata/guardrail_llm.py); otherwise it is reported as a
   "possibly relevant" note, which never changes the verdict.

Lives in the `memstrata` core because it spans layers: L2 criteria, L1 decisions and
caveats, the L4 index and the LLM provider.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

from memstrata.core.errors import MemstrataError
from memstrata.guardrail.proposals import Proposal
from memstrata.guardrail.rules import (
    PreparedText,
    RuleOutcome,
    evaluate,
    spec_problems,
)

if TYPE_CHECKING:  # pragma: no cover
    from memstrata.memory_layers.memory import Memory
    from memstrata.memory_layers.store import LoadedItem

Verdict = Literal["pass", "warn", "block"]
_RANK = {"pass": 0, "note": 0, "warn": 1, "block": 2}
JUDGED_TYPES = ("criterion", "decision", "caveat")


class Finding(BaseModel):
    """One rule held against the proposal: what it says, when it was set, and the outcome."""

    id: str
    type: str
    title: str
    text: str  # the rule in words: a criterion's condition, else the item's text
    scope: str = "project"
    set_on: datetime
    path: str = ""
    outcome: Literal["violated", "satisfied", "possibly_relevant"]
    verdict: Literal["pass", "warn", "block", "note"]
    judged_by: Literal["rules", "llm", "retrieval"]
    reason: str
    quote: str = ""
    rationale: str = ""
    review_when: str = ""
    triggers: list[str] = Field(default_factory=list)


class ProposalSummary(BaseModel):
    source: str
    label: str = ""
    paths: list[str] = Field(default_factory=list)
    chars: int = 0
    tool: str | None = None


class CheckResult(BaseModel):
    verdict: Verdict = "pass"
    violations: list[Finding] = Field(default_factory=list)
    notes: list[Finding] = Field(default_factory=list)
    satisfied: list[Finding] = Field(default_factory=list)
    criteria_checked: int = 0
    proposal: ProposalSummary
    warnings: list[str] = Field(default_factory=list)
    llm: dict | None = None
    skipped: str = ""

    def exit_code(self, strict: bool = False) -> int:
        """0 pass, 0 warn (1 with strict), 2 block."""
        if self.verdict == "block":
            return 2
        if self.verdict == "warn":
            return 1 if strict else 0
        return 0


class CriterionTrace(BaseModel):
    """`criteria test`: how one criterion would judge a proposal, step by step."""

    id: str
    title: str
    status: str
    superseded_by: str | None = None
    counts: bool  # False when archived/superseded: `check` would skip it
    problems: list[str] = Field(default_factory=list)
    decidable: bool
    rules: dict
    finding: Finding | None = None
    verdict: Literal["pass", "warn", "block", "note"] = "pass"


# ---- helpers ---------------------------------------------------------------------------
def _rule_text(item) -> str:
    if item.type == "criterion" and item.criterion and item.criterion.condition.strip():
        return item.criterion.condition.strip()
    return item.text


def _finding(
    loaded: LoadedItem,
    outcome: str,
    verdict: str,
    judged_by: str,
    reason: str,
    quote: str = "",
    triggers: list[str] | None = None,
) -> Finding:
    item = loaded.item
    spec = item.criterion
    return Finding(
        id=item.id,
        type=item.type,
        title=item.title,
        text=_rule_text(item),
        scope=item.scope,
        set_on=item.created,
        path=str(loaded.path),
        outcome=outcome,
        verdict=verdict,
        judged_by=judged_by,
        reason=reason,
        quote=quote,
        rationale=spec.rationale if spec else "",
        review_when=spec.review_when if spec else "",
        triggers=list(triggers or []),
    )


def _violation_verdict(item) -> str:
    """A criterion says warn or block; decisions and caveats warn."""
    return item.criterion.verdict if item.criterion else "warn"


def _counts(item) -> bool:
    return item.status == "active" and not item.superseded_by


def _from_rules(loaded: LoadedItem, outcome: RuleOutcome) -> Finding:
    item = loaded.item
    if outcome.status == "violated":
        return _finding(
            loaded,
            "violated",
            _violation_verdict(item),
            "rules",
            outcome.reason,
            outcome.quote,
            outcome.triggers,
        )
    if outcome.status == "satisfied":
        return _finding(
            loaded, "satisfied", "pass", "rules", outcome.reason, outcome.quote, outcome.triggers
        )
    return _finding(
        loaded, "possibly_relevant", "note", "rules", outcome.reason, "", outcome.triggers
    )


def _load_judged(mem: Memory, *, criteria_only: bool) -> tuple[list, list]:
    """Active-folder criteria (and decisions/caveats unless `criteria_only`), project over
    global by id or type+title as in `Memory.load_items`; archive/ is never read."""
    if not criteria_only:
        result = mem.load_items(include_archived=False)
        return [li for li in result.items if li.item.type in JUDGED_TYPES], result.problems
    from memstrata.core.errors import InvalidItem

    per_store: list[list] = []
    problems: list = []
    for store in (mem.project_store, mem.global_store):
        items = []
        folder = store.paths.root / "criteria" if store else None
        for path in sorted(folder.glob("*.md")) if folder and folder.is_dir() else []:
            try:
                items.append(store.load_file(path))
            except InvalidItem as exc:
                problems.append(exc)
            except OSError:
                continue
        per_store.append(items)
    project, global_ = per_store
    taken = {li.item.id for li in project} | {
        (li.item.type, li.item.title.strip().lower()) for li in project
    }
    merged = project + [
        li
        for li in global_
        if li.item.id not in taken and (li.item.type, li.item.title.strip().lower()) not in taken
    ]
    return [li for li in merged if li.item.type == "criterion"], problems


# ---- retrieval -------------------------------------------------------------------------
def related_items(
    mem: Memory, proposal: Proposal, k: int, min_similarity: float, warn: Callable[[str], None]
) -> list[tuple[str, float]]:
    """(id, cosine) of criteria/decisions/caveats semantically close to the proposal.

    Fused hybrid scores are relative to the best hit, so the cut uses the MiniLM cosine
    between the proposal and each hit, which means the same thing in every memory.
    """
    from memstrata.retrieval.index import MemoryIndex

    query = (proposal.text + "\n" + " ".join(proposal.paths)).strip()
    if not query:
        return []
    index = MemoryIndex(mem, warn=warn)
    try:
        hits = index.search(
            query, k=k, types=list(JUDGED_TYPES), mode="rrf", record_access=False
        )
        if not hits:
            return []
        vectors = index.embedder().embed([query[:2000]] + [h.text for h in hits])
    finally:
        close = getattr(index, "close", None)
        if close:
            close()
    sims = vectors[1:] @ vectors[0]
    return [(h.id, float(s)) for h, s in zip(hits, sims) if float(s) >= min_similarity]


# ---- the check -------------------------------------------------------------------------
def check(
    mem: Memory,
    proposal: Proposal,
    *,
    retrieval: bool | None = None,
    llm: bool | None = None,
    hook: bool = False,
    warn: Callable[[str], None] | None = None,
) -> CheckResult:
    """Judge `proposal`; see the module docstring for the order."""
    from memstrata.retrieval.llm import llm_configured

    g = mem.settings.guardrail
    warnings: list[str] = []

    def note(message: str) -> None:
        warnings.append(message)
        if warn:
            warn(message)

    summary = ProposalSummary(
        source=proposal.source,
        label=proposal.label,
        paths=proposal.paths[:50],
        chars=len(proposal.text),
        tool=proposal.tool,
    )
    result = CheckResult(proposal=summary)
    if proposal.skip_reason:
        result.skipped = proposal.skip_reason
        return result
    if not proposal.text.strip() and not proposal.paths:
        result.skipped = "empty proposal: nothing to judge"
        return result

    use_retrieval = (g.hook_retrieval if hook else g.retrieval) if retrieval is None else retrieval
    use_llm = (g.llm if llm is None else llm) and llm_configured(mem.settings.llm)
    if llm and not llm_configured(mem.settings.llm):
        note("no LLM configured ([llm] model); undecided rules are reported as notes")
    # decisions and caveats only matter to retrieval and the LLM; a hook skips parsing them
    loaded, problems = _load_judged(mem, criteria_only=not (use_retrieval or use_llm))
    for problem in problems:
        note(f"skipped unreadable memory file: {problem}")
    by_id = {li.item.id: li for li in loaded if _counts(li.item)}

    prepared = PreparedText.of(proposal.text)
    paths = proposal.judged_paths()
    decided: set[str] = set()
    undecided: list[Finding] = []
    for item_id, li in by_id.items():
        spec = li.item.criterion
        if li.item.type != "criterion" or spec is None:
            continue
        problems = [p for p in spec_problems(spec) if p.startswith("invalid regex")]
        if problems:
            note(f"criterion {item_id} skipped: {'; '.join(problems)}")
            continue
        result.criteria_checked += 1
        outcome = evaluate(spec, prepared, paths)
        if outcome.status == "not_applicable":
            continue
        finding = _from_rules(li, outcome)
        decided.add(item_id)
        if finding.outcome == "violated":
            result.violations.append(finding)
        elif finding.outcome == "satisfied":
            result.satisfied.append(finding)
        else:
            undecided.append(finding)

    if use_retrieval:
        try:
            for item_id, sim in related_items(mem, proposal, g.retrieval_k, g.min_similarity, note):
                li = by_id.get(item_id)
                if li is None or item_id in decided:
                    continue
                decided.add(item_id)
                undecided.append(
                    _finding(
                        li,
                        "possibly_relevant",
                        "note",
                        "retrieval",
                        f"related by meaning (similarity {sim:.2f})",
                    )
                )
        except Exception as exc:  # noqa: BLE001 - retrieval is optional; the rules still hold
            note(
                f"retrieval unavailable ({type(exc).__name__}: {str(exc)[:160]}); "
                "judged by the rules only"
            )

    if use_llm and undecided:
        undecided = _judge_with_llm(mem, proposal, undecided, by_id, result, hook, note)
    result.notes = undecided[: g.max_notes]
    result.warnings = warnings
    worst = max((f.verdict for f in result.violations), key=_RANK.get, default="pass")
    result.verdict = "pass" if worst == "note" else worst  # type: ignore[assignment]
    result.violations.sort(key=lambda f: -_RANK[f.verdict])
    return result


def _judge_with_llm(
    mem: Memory,
    proposal: Proposal,
    undecided: list[Finding],
    by_id: dict,
    result: CheckResult,
    hook: bool,
    note: Callable[[str], None],
) -> list[Finding]:
    """Turn undecided findings into LLM verdicts; returns what stays a note."""
    from memstrata.guardrail.judge_llm import Candidate, judge, quote_is_grounded

    candidates = [
        Candidate(f.id, f.type, f.text, f.rationale, f.set_on.date().isoformat()) for f in undecided
    ]
    try:
        judged = judge(
            mem.settings, candidates, proposal.text, proposal_label=proposal.label, hook=hook
        )
    except MemstrataError as exc:
        note(f"LLM judge unavailable ({exc}); undecided rules are reported as notes")
        return undecided
    result.llm = {
        "calls": judged.calls,
        "prompt_tokens": judged.prompt_tokens,
        "completion_tokens": judged.completion_tokens,
        "cost_usd": judged.cost_usd,
    }
    remaining = []
    for f in undecided:
        j = judged.judgements.get(f.id)
        if j is None:
            remaining.append(f)
            continue
        li = by_id[f.id]
        if j.applies and j.violated and quote_is_grounded(j.quote, proposal.text):
            result.violations.append(
                _finding(
                    li,
                    "violated",
                    _violation_verdict(li.item),
                    "llm",
                    j.why or "judged violated",
                    j.quote,
                    f.triggers,
                )
            )
        elif j.applies and j.violated:
            remaining.append(
                f.model_copy(
                    update={
                        "reason": f"LLM says violated but its quote is not in the proposal: {j.why}"
                    }
                )
            )
        elif j.applies:
            result.satisfied.append(
                f.model_copy(
                    update={
                        "outcome": "satisfied",
                        "verdict": "pass",
                        "judged_by": "llm",
                        "reason": j.why or "applies, not violated",
                    }
                )
            )
        # does not apply: dropped
    return remaining


def test_criterion(
    mem: Memory, item_id: str, proposal: Proposal, *, llm: bool | None = None
) -> CriterionTrace:
    """How one criterion judges a proposal, with every step shown (authoring help)."""
    loaded = mem.get(item_id)
    item = loaded.item
    if item.type != "criterion" or item.criterion is None:
        raise MemstrataError(
            f"'{item_id}' is a {item.type}, not a criterion with a condition; "
            "`memstrata list --type criterion` shows criteria"
        )
    spec = item.criterion
    problems = spec_problems(spec)
    trace = CriterionTrace(
        id=item.id,
        title=item.title,
        status=item.status,
        superseded_by=item.superseded_by,
        counts=_counts(item),
        problems=problems,
        decidable=bool(spec.forbid or spec.require),
        rules={},
    )
    if any(p.startswith("invalid regex") for p in problems):
        return trace
    outcome = evaluate(spec, PreparedText.of(proposal.text), proposal.judged_paths())
    trace.rules = {
        "status": outcome.status,
        "reason": outcome.reason,
        "triggers": outcome.triggers,
        "quote": outcome.quote,
        "forbid_hit": outcome.forbid_hit,
        "missing": outcome.missing,
        "exempted_by": outcome.exempted_by,
        "ignored_negated": outcome.ignored,
    }
    if outcome.status == "not_applicable":
        return trace
    finding = _from_rules(loaded, outcome)
    if finding.outcome == "possibly_relevant":
        from memstrata.retrieval.llm import llm_configured

        g = mem.settings.guardrail
        if (g.llm if llm is None else llm) and llm_configured(mem.settings.llm):
            shadow = CheckResult(proposal=ProposalSummary(source=proposal.source))
            left = _judge_with_llm(
                mem,
                proposal,
                [finding],
                {item.id: loaded},
                shadow,
                False,
                lambda m: trace.problems.append(m),
            )
            finding = (shadow.violations or shadow.satisfied or left or [finding])[0]
    trace.finding = finding
    trace.verdict = finding.verdict
    return trace


test_criterion.__test__ = False  # not a pytest test despite the name
