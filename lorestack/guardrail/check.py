"""The decision guardrail: hold a proposal against the criteria, decisions and caveats that
apply, and answer pass / warn / block citing the rule and when it was set.

Order of judgement:
1. every active criterion is judged by its own terms (rules.py); a criterion without terms
   is read from its sentence (sentences.py). Only a rule the user saw and accepted (terms
   they typed, edited or confirmed) can block; a guessed rule that finds a violation
   answers "applies, undecided" (a warn quoting the criterion). A criterion whose words
   do not occur is held against the proposal by meaning (meaning.py): close enough, it
   applies, undecided. Archived and superseded criteria never count;
2. related criteria, decisions and caveats are looked up in the hybrid index (optional:
   it loads tantivy, Chroma and the ONNX model, so hooks skip it unless configured);
3. what the rules could not decide goes to the LLM judge when one is configured and
   `[guardrail] llm = true` (judge_llm.py); otherwise an undecided criterion stays a warn
   (in a hook, the agent is asked to judge it) and a related item is a "possibly relevant"
   note, which never changes the verdict.

`check` takes everything it needs as arguments and keeps no state between calls, so a
long-lived process (the resident service) can call it for every hook.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from lorestack.core.errors import LorestackError
from lorestack.guardrail.findings import (  # noqa: F401 - the public names live here too
    CheckResult,
    CriterionTrace,
    Finding,
    JudgedBy,
    ProposalSummary,
    counts,
    from_rules,
    make_finding,
    rule_text,
    violation_verdict,
)
from lorestack.guardrail.judging import (  # noqa: F401 - re-exported for trace.py
    MeaningTest,
    judge_criterion,
    meaning_for,
    prepare,
)
from lorestack.guardrail.proposals import Proposal
from lorestack.guardrail.rules import spec_problems
from lorestack.memory_layers.scopes import visible_global

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.memory_layers.memory import Memory

JUDGED_TYPES = ("criterion", "decision", "caveat")
_LOADED: dict[tuple[str, str], tuple[tuple, list, list]] = {}  # see _load_judged


def _load_judged(mem: Memory, *, criteria_only: bool) -> tuple[list, list]:
    """Active-folder criteria (and decisions/caveats unless `criteria_only`), project over
    global by id or type+title as in `Memory.load_items`; archive/ is never read."""
    if not criteria_only:
        result = mem.load_items(include_archived=False, types=JUDGED_TYPES)
        return [li for li in result.items if li.item.type in JUDGED_TYPES], result.problems
    from lorestack.core.errors import InvalidItem
    from lorestack.memory_layers import dup_ids, parse_cache

    per_store: list[list] = []
    problems: list = []
    for store in (mem.project_store, mem.global_store):
        items: list = []
        per_store.append(items)
        if store is None or not store.exists():
            continue
        scan = store.scan_folders(("criteria",))
        problems.extend(scan.skipped)
        # a long-lived process (the service) keeps a folder's loaded criteria while no
        # file in it changed (names, mtimes and sizes as the scan just saw them): a check
        # then neither stats, parses nor copies 100 criteria again (items are only read)
        key = (str(store.paths.root), store.scope)
        stamp = tuple((e.path, e.mtime_ns, e.size) for e in scan.entries)
        kept = _LOADED.get(key) if parse_cache.enabled() else None
        if kept is not None and kept[0] == stamp:
            items.extend(kept[1])
            problems.extend(kept[2])
            continue
        invalid: list = []
        for path in [Path(e.path) for e in scan.entries]:
            try:
                items.append(store.load_file(path))
            except InvalidItem as exc:
                invalid.append(exc)
            except OSError:
                continue
        problems.extend(invalid)
        if parse_cache.enabled():
            _LOADED[key] = (stamp, list(items), invalid)
    # a criterion forgotten by an archive that was cut short: its archived copy holds the id
    project, global_ = (dup_ids.live_only(store, items, problems, ("criterion",)) if store
                        else items for store, items in zip((mem.project_store, mem.global_store),
                                                           per_store))
    merged = project + list(
        visible_global(project, global_, lambda li: (li.item.id, li.item.type, li.item.title))
    )
    return [li for li in merged if li.item.type == "criterion"], problems


# ---- retrieval -------------------------------------------------------------------------
def related_items(
    mem: Memory, proposal: Proposal, k: int, min_similarity: float, warn: Callable[[str], None]
) -> list[tuple[str, float]]:
    """(id, cosine) of criteria/decisions/caveats semantically close to the proposal.

    Fused hybrid scores are relative to the best hit, so the cut uses the MiniLM cosine
    between the proposal and each hit, which means the same thing in every memory.
    """
    from lorestack.retrieval.pool import borrow_index

    query = (proposal.text + "\n" + " ".join(proposal.paths)).strip()
    if not query:
        return []
    with borrow_index(mem, warn=warn) as index:
        hits = index.search(
            query, k=k, types=list(JUDGED_TYPES), mode="rrf", record_access=False
        )
        if not hits:
            return []
        vectors = index.embedder().embed([query[:2000]] + [h.text for h in hits])
    sims = vectors[1:] @ vectors[0]
    return [(h.id, float(s)) for h, s in zip(hits, sims) if float(s) >= min_similarity]


def _retrieved(mem, proposal, by_id, decided, note) -> list[Finding]:
    """Related items the rules did not decide, as notes (retrieval never changes a verdict)."""
    g = mem.settings.guardrail
    found = []
    try:
        for item_id, sim in related_items(mem, proposal, g.retrieval_k, g.min_similarity, note):
            li = by_id.get(item_id)
            if li is None or item_id in decided:
                continue
            decided.add(item_id)
            reason = f"related by meaning (similarity {sim:.2f})"
            found.append(make_finding(li, "possibly_relevant", "note", "retrieval", reason))
    except Exception as exc:  # noqa: BLE001 - retrieval is optional; the rules still hold
        note(
            f"retrieval unavailable ({type(exc).__name__}: {str(exc)[:160]}); "
            "judged by the rules only"
        )
    return found


# ---- the check -------------------------------------------------------------------------
CUT_NOTE = "only a part was judged:"  # a warning's start: the rest went unchecked
def _within_limit(proposal: Proposal, max_bytes: int, note: Callable[[str], None]) -> Proposal:
    """A text proposal over the limit is refused; a diff, a file or a hook payload (which the
    user did not size by hand) is judged on its first `max_bytes` with a warning, and so is
    the text an edit replaces (judging a 5 MB `old_string` whole took seconds)."""
    from lorestack.memory_layers.input_check import check_input_text, human_size

    if proposal.payload_cut:
        note(f"{CUT_NOTE} hook payload is over the {human_size(proposal.payload_cut)} a hook "
             "reads; judged what that much of it holds")
    for left_out in proposal.cut_notes:
        note(f"{CUT_NOTE} {left_out}")
    size = len(proposal.text.encode("utf-8", "surrogatepass"))
    if max_bytes <= 0 or (size <= max_bytes and len(proposal.replaced) <= max_bytes):
        return proposal
    if proposal.source == "text":
        check_input_text(proposal.text, where="the proposal", max_bytes=max_bytes,
                         setting="limits.max_proposal_bytes",
                         outcome="nothing was checked", advice="Check a smaller part")

    def cut(text: str) -> str:
        return text.encode("utf-8", "surrogatepass")[:max_bytes].decode("utf-8", "ignore")

    if size > max_bytes:
        note(f"{CUT_NOTE} proposal is {human_size(size)}; judged its first "
             f"{human_size(max_bytes)} (limits.max_proposal_bytes)")
    return proposal.model_copy(update={"text": cut(proposal.text),
                                       "replaced": cut(proposal.replaced)})


def _judge_all(
    by_id: dict, proposal: Proposal, result: CheckResult, note, settings=None
) -> tuple[set, list]:
    """Every counted criterion by its rules, then by meaning; returns (decided ids,
    possibly relevant)."""
    prepared = prepare(proposal)
    paths = proposal.judged_paths()
    decided: set[str] = set()
    possibly: list[Finding] = []
    meaning = meaning_for(settings, proposal, note) if settings is not None else (lambda s: None)
    for item_id, li in by_id.items():
        spec = li.item.criterion
        if li.item.type != "criterion" or spec is None:
            continue
        problems = [p for p in spec_problems(spec) if p.startswith("invalid regex")]
        if problems:
            note(f"criterion {item_id} skipped: {'; '.join(problems)}")
            continue
        result.criteria_checked += 1
        outcome, how = judge_criterion(li, prepared, paths, meaning)
        if outcome.status == "not_applicable":
            continue
        finding = from_rules(li, outcome, how)
        decided.add(item_id)
        bucket = {
            "violated": result.violations,
            "satisfied": result.satisfied,
            "undecided": result.undecided,
        }.get(finding.outcome, possibly)
        bucket.append(finding)
    if isinstance(meaning, MeaningTest) and meaning.notice():
        # no sentence model: a pass must not look like "nothing applies"
        result.unjudged_by_meaning = len(meaning.unjudged)
        note(meaning.notice())
    return decided, possibly


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
    from lorestack.retrieval.llm import llm_configured

    g = mem.settings.guardrail
    warnings: list[str] = []

    def note(message: str) -> None:
        warnings.append(message)
        if warn:
            warn(message)

    proposal = _within_limit(proposal, mem.settings.limits.max_proposal_bytes, note)
    result = CheckResult(proposal=_summary(proposal))
    result.skipped = proposal.skip_reason or (
        "" if proposal.text.strip() or proposal.paths else "empty proposal: nothing to judge"
    )
    if result.skipped:
        result.warnings = warnings  # e.g. a payload cut before its text: said, not lost
        return result
    use_retrieval = (g.hook_retrieval if hook else g.retrieval) if retrieval is None else retrieval
    use_llm = (g.llm if llm is None else llm) and llm_configured(mem.settings.llm)
    if llm and not llm_configured(mem.settings.llm):
        note("no LLM configured ([llm] model); undecided rules stay undecided")
    # decisions and caveats only matter to retrieval and the LLM; a hook skips parsing them
    loaded, problems = _load_judged(mem, criteria_only=not (use_retrieval or use_llm))
    for problem in problems:
        note(f"skipped unreadable memory file: {problem}")
    by_id = {li.item.id: li for li in loaded if counts(li.item)}
    decided, possibly = _judge_all(by_id, proposal, result, note, mem.settings)
    if use_retrieval:
        possibly += _retrieved(mem, proposal, by_id, decided, note)
    if use_llm and (possibly or result.undecided):
        possibly = judge_with_llm(mem, proposal, possibly, by_id, result, hook, note)
    result.notes = possibly[: g.max_notes]
    result.warnings = warnings
    result.settle()
    _redact_findings(result, mem.settings.guard.entropy_threshold)
    return result


def _redact_findings(result: CheckResult, threshold: float) -> None:
    """A verdict goes back to the assistant: criteria edited by hand are shown redacted."""
    from lorestack.memory_layers.secret_guard import redact_for_reading

    buckets = (result.violations, result.notes, result.satisfied, result.undecided)
    for finding in (f for bucket in buckets for f in bucket):
        for name in ("title", "text", "reason", "quote", "rationale", "review_when"):
            value = getattr(finding, name, "")
            if value:
                setattr(finding, name, redact_for_reading(value, threshold)[0])
        finding.triggers = [redact_for_reading(t, threshold)[0] for t in finding.triggers]


def _summary(proposal: Proposal) -> ProposalSummary:
    return ProposalSummary(
        source=proposal.source,
        label=proposal.label,
        paths=proposal.paths[:50],
        chars=len(proposal.text),
        tool=proposal.tool,
    )


# ---- the LLM judge ---------------------------------------------------------------------
def judge_with_llm(
    mem: Memory,
    proposal: Proposal,
    possibly: list[Finding],
    by_id: dict,
    result: CheckResult,
    hook: bool,
    note: Callable[[str], None],
) -> list[Finding]:
    """Let the LLM decide undecided criteria and possibly relevant items; returns what
    stays a note (undecided criteria it does not decide stay in `result.undecided`)."""
    from lorestack.guardrail.judge_llm import Candidate, judge

    pending = result.undecided + possibly
    candidates = [
        Candidate(f.id, f.type, f.text, f.rationale, f.set_on.date().isoformat()) for f in pending
    ]
    try:
        judged = judge(
            mem.settings, candidates, proposal.text, proposal_label=proposal.label, hook=hook
        )
    except LorestackError as exc:
        note(f"LLM judge unavailable ({exc}); undecided rules stay undecided")
        return possibly
    result.llm = {
        "calls": judged.calls,
        "prompt_tokens": judged.prompt_tokens,
        "completion_tokens": judged.completion_tokens,
        "cost_usd": judged.cost_usd,
    }
    undecided_ids = {f.id for f in result.undecided}
    result.undecided = []
    remaining: list[Finding] = []
    for f in pending:
        settled = _apply_judgement(f, judged.judgements.get(f.id), by_id, proposal, result)
        if settled is None:
            (result.undecided if f.id in undecided_ids else remaining).append(f)
        elif settled is not f:
            (result.undecided if f.id in undecided_ids else remaining).append(settled)
    return remaining


def _apply_judgement(f: Finding, j, by_id: dict, proposal: Proposal, result: CheckResult):
    """Record the LLM's judgement of one finding: returns None when it said nothing, the
    finding itself when settled (or dropped), or a copy that stays open."""
    from lorestack.guardrail.judge_llm import quote_is_grounded

    if j is None:
        return None
    if j.applies and j.violated and quote_is_grounded(j.quote, proposal.text):
        li = by_id[f.id]
        verdict = violation_verdict(li.item)
        reason = j.why or "judged violated"
        result.violations.append(
            make_finding(li, "violated", verdict, "llm", reason, j.quote, f.triggers)
        )
    elif j.applies and j.violated:
        why = f"LLM says violated but its quote is not in the proposal: {j.why}"
        return f.model_copy(update={"reason": why})
    elif j.applies:
        update = {"outcome": "satisfied", "verdict": "pass", "judged_by": "llm"}
        update["reason"] = j.why or "applies, not violated"
        result.satisfied.append(f.model_copy(update=update))
    return f  # settled, or does not apply: dropped
