"""What a check returns: one `Finding` per rule held against the proposal, gathered into a
`CheckResult`, and `CriterionTrace` for `criteria test`."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, Field

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.guardrail.rules import RuleOutcome
    from lorestack.memory_layers.store import LoadedItem

Verdict = Literal["pass", "warn", "block"]
Outcome = Literal["violated", "undecided", "satisfied", "possibly_relevant"]
FindingVerdict = Literal["pass", "warn", "block", "note"]
JudgedBy = Literal["rules", "sentence", "llm", "retrieval"]
RANK: dict[str, int] = {"pass": 0, "note": 0, "warn": 1, "block": 2}


class Finding(BaseModel):
    """One rule held against the proposal: what it says, when it was set, and the outcome."""

    id: str
    type: str
    title: str
    text: str  # the rule in words: a criterion's condition, else the item's text
    scope: str = "project"
    set_on: datetime
    path: str = ""
    outcome: Outcome
    verdict: FindingVerdict
    judged_by: JudgedBy
    reason: str
    quote: str = ""
    rationale: str = ""
    review_when: str = ""
    triggers: list[str] = Field(default_factory=list)
    # it applied only through a member of a category the rule names: a guess, never a block
    guessed: bool = False


class ProposalSummary(BaseModel):
    source: str
    label: str = ""
    paths: list[str] = Field(default_factory=list)
    chars: int = 0
    tool: str | None = None


class CheckResult(BaseModel):
    verdict: Verdict = "pass"
    violations: list[Finding] = Field(default_factory=list)
    # criteria that apply but that the rules could not decide: a warn, never a pass
    undecided: list[Finding] = Field(default_factory=list)
    notes: list[Finding] = Field(default_factory=list)
    satisfied: list[Finding] = Field(default_factory=list)
    criteria_checked: int = 0
    # criteria whose words did not apply and that no sentence model could judge by meaning
    unjudged_by_meaning: int = 0
    proposal: ProposalSummary
    warnings: list[str] = Field(default_factory=list)
    llm: dict | None = None
    skipped: str = ""

    def exit_code(self, strict: bool = False) -> int:
        """What `lorestack check` exits with: 2 block, 1 warn or "applies, undecided",
        0 nothing applies (or everything that applies is kept). `strict`: a warn fails
        like a block (2)."""
        if self.verdict == "block":
            return 2
        if self.verdict == "warn":
            return 2 if strict else 1
        return 0

    def commit_exit_code(self, strict: bool = False) -> int:
        """A pre-commit hook's exit: only a block stops the commit (2); a warn does too
        with `strict` (1). A warn alone must not make every commit fail."""
        if self.verdict == "block":
            return 2
        return 1 if strict and self.verdict == "warn" else 0

    def settle(self) -> None:
        """The verdict is the worst finding; an undecided criterion is a warn."""
        worst = max(
            (f.verdict for f in self.violations + self.undecided),
            key=lambda v: RANK[v],
            default="pass",
        )
        self.verdict = "pass" if worst == "note" else worst  # type: ignore[assignment]
        self.violations.sort(key=lambda f: -RANK[f.verdict])


class CriterionTrace(BaseModel):
    """`criteria test`: how one criterion would judge a proposal, step by step."""

    id: str
    title: str
    status: str
    superseded_by: str | None = None
    counts: bool  # False when archived/superseded: `check` would skip it
    problems: list[str] = Field(default_factory=list)
    decidable: bool
    sentence: dict | None = None  # what was read from the sentence, when it has no terms
    rules: dict
    finding: Finding | None = None
    verdict: Literal["pass", "warn", "block", "note"] = "pass"


def rule_text(item) -> str:
    if item.type == "criterion" and item.criterion and item.criterion.condition.strip():
        return item.criterion.condition.strip()
    return item.text


def make_finding(
    loaded: LoadedItem,
    outcome: Outcome,
    verdict: FindingVerdict,
    judged_by: JudgedBy,
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
        text=rule_text(item),
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


def violation_verdict(item) -> FindingVerdict:
    """A criterion says warn or block; decisions and caveats warn."""
    return item.criterion.verdict if item.criterion else "warn"


def counts(item) -> bool:
    return item.status == "active" and not item.superseded_by


def from_rules(loaded: LoadedItem, outcome: RuleOutcome, judged_by: JudgedBy = "rules") -> Finding:
    """The finding for what the rules (or the sentence rules) concluded."""
    table: dict[str, tuple[Outcome, FindingVerdict]] = {
        "violated": ("violated", violation_verdict(loaded.item)),
        "satisfied": ("satisfied", "pass"),
        "undecided": ("undecided", "warn"),
    }
    kind, verdict = table.get(outcome.status, ("possibly_relevant", "note"))
    quote = outcome.quote if kind != "possibly_relevant" else ""
    finding = make_finding(loaded, kind, verdict, judged_by, outcome.reason, quote, outcome.triggers)
    finding.guessed = outcome.guessed
    return finding
