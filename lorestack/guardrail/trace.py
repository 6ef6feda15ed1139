"""`criteria test`: how one criterion judges a proposal, with every step shown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lorestack.core.errors import LorestackError
from lorestack.guardrail.check import judge_criterion, judge_with_llm, meaning_for, prepare
from lorestack.guardrail.findings import (
    CheckResult,
    CriterionTrace,
    ProposalSummary,
    counts,
    from_rules,
    rule_text,
)
from lorestack.guardrail.rules import sentence_spec, spec_problems

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.guardrail.proposals import Proposal
    from lorestack.memory_layers.memory import Memory


def _sentence_view(item) -> dict | None:
    spec = item.criterion
    if spec.forbid or spec.require:
        return None
    derived, draft = sentence_spec(spec, rule_text(item))
    return {
        "kind": draft.kind or "none (no prohibition or obligation cue)",
        "steps": draft.steps,
        "applies_to": derived.applies_to.model_dump(),
        "forbid": derived.forbid,
        "require": derived.require,
        "unless": derived.unless,
        "alternatives": derived.alternatives,
    }


def _ask_llm(mem, proposal, loaded, finding, llm, problems: list[str]):
    """The LLM's view of a finding the rules left open (when one is configured and wanted)."""
    from lorestack.retrieval.llm import llm_configured

    g = mem.settings.guardrail
    if not ((g.llm if llm is None else llm) and llm_configured(mem.settings.llm)):
        return finding
    shadow = CheckResult(proposal=ProposalSummary(source=proposal.source))
    undecided = finding.outcome == "undecided"
    shadow.undecided = [finding] if undecided else []
    left = judge_with_llm(
        mem,
        proposal,
        [] if undecided else [finding],
        {loaded.item.id: loaded},
        shadow,
        False,
        problems.append,
    )
    found = shadow.violations or shadow.satisfied or shadow.undecided or left
    return (found or [finding])[0]


def test_criterion(
    mem: Memory, item_id: str, proposal: Proposal, *, llm: bool | None = None
) -> CriterionTrace:
    """How one criterion judges a proposal, with every step shown (authoring help)."""
    loaded = mem.get(item_id)
    item = loaded.item
    if item.type != "criterion" or item.criterion is None:
        raise LorestackError(
            f"'{item_id}' is a {item.type}, not a criterion with a condition; "
            "`lorestack list --type criterion` shows criteria"
        )
    spec = item.criterion
    problems = spec_problems(spec)
    trace = CriterionTrace(
        id=item.id,
        title=item.title,
        status=item.status,
        superseded_by=item.superseded_by,
        counts=counts(item),
        problems=problems,
        decidable=bool(spec.forbid or spec.require),
        sentence=_sentence_view(item),
        rules={},
    )
    if any(p.startswith("invalid regex") for p in problems):
        return trace
    meaning = meaning_for(mem.settings, proposal)  # as `check` does
    outcome, how = judge_criterion(loaded, prepare(proposal), proposal.judged_paths(), meaning)
    if meaning.notice():  # the trace holds its own copy of `problems`
        trace.problems.append(meaning.notice())
    trace.rules = {
        "judged_by": how,
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
    finding = from_rules(loaded, outcome, how)
    if finding.outcome in ("possibly_relevant", "undecided"):
        finding = _ask_llm(mem, proposal, loaded, finding, llm, trace.problems)
    trace.finding = finding
    trace.verdict = finding.verdict
    return trace


test_criterion.__test__ = False  # type: ignore[attr-defined]  # not a pytest test
