"""A gate calibrated on labelled data (issue 22, twenty-sixth session): for a criterion the
check would let pass, a small model over general signals of the (criterion, proposal) pair
says whether it looks like a violation; above its cut the answer is "applies, undecided"
with the criterion quoted — never a block and never a warn of a rule, so wrong blocks
cannot rise.

Two stages, both logistic over the same 35 signals (tests/gate_features.py, measured by
leave-one-batch-out in tests/gate_folds.py): a relevance model that tells a criterion
the proposal is about from the other stored criteria (it keeps at most 3% of other
criteria's passing pairs on the tuning batches), then a violation model whose cut loses 2%
of the tuning batches' passing look-alikes. The signals are what the check already has: the
cached criterion-part embeddings against the proposal's units (one embedding of the
proposal per check, none per criterion), the reader's own answer and draft, cue words, and
how the criterion ranks among the stored criteria by meaning. Weights, scaler and cuts are
constants (gate_weights.py, written by `python -m tests.gate_train`); numpy only.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from lorestack.guardrail import gate_weights as W
from lorestack.guardrail.rules import RuleOutcome, stem

if TYPE_CHECKING:  # pragma: no cover
    from lorestack.guardrail.proposals import Proposal

# The module switch (tests/stage_audit.py "gate"). Off until the pre-registered test on a
# batch nobody had seen (batch 24, docs/guardrail.md "Twenty-sixth session (gate26)") decides.
ENABLED = False

CUES = {
    "cue_negation": r"\b(?:not|no|never|without|nothing|none)\b|n't\b",
    "cue_later": r"\b(?:later|for now|temporar\w*|tonight|tomorrow|next (?:week|sprint|release)|"
                 r"follow[- ]?up|afterwards?|until|once)\b",
    "cue_shortcut": r"\b(?:just|quick\w*|direct\w*|skip\w*|bypass\w*|ignor\w*|disabl\w*|"
                    r"turn\w* off|hotfix|simply|straight)\b",
    "cue_removal": r"\b(?:remov\w*|delet\w*|drop\w*|replac\w*|instead|migrat\w*|switch\w*)\b",
    "cue_question": r"\?",
}
_CUES = {k: re.compile(v, re.I) for k, v in CUES.items()}
BUCKETS = ("1a", "1b", "1c", "2", "3", "4", "5")
NEAR = 0.30  # tests/silent_passes.py: "nothing applied" but this close by meaning
_WORD = re.compile(r"[a-z][a-z0-9]+")


def bucket(outcome: RuleOutcome, spec, similarity: float, threshold: float) -> str:
    """How the reader came to pass (tests/silent_passes.py's buckets, without the kind)."""
    reason = outcome.reason
    if outcome.status == "not_applicable":
        if similarity >= NEAR:
            return "1a"
        return "1b" if not (spec.forbid or spec.require) else "1c"
    if "far from what it forbids" in reason:
        return "2"
    if "recommended" in reason:
        return "4"
    return "3" if reason.startswith("no forbidden term") else "5"


def signals(li, outcome: RuleOutcome, proposal: Proposal, meaning, best: float) -> dict:
    """The general signals of one passing pair (tests/gate_features.py computes the same for
    training); `best` is the criterion's closest (part, unit) cosine."""
    from lorestack.guardrail.judging import _forbidden_terms, forbidden_hit, stated_hit
    from lorestack.guardrail.meaning import split_acts

    spec, sentence, judge = li.item.criterion, li.item.text, meaning.judge
    whole = judge.closest([" ".join(sentence.split())])
    bad = forbidden_hit(spec, sentence, meaning)
    good = stated_hit(sentence, meaning)
    alternatives = list(dict.fromkeys(_forbidden_terms(spec, sentence)[1] + split_acts(sentence)[1]))
    alt = meaning(sentence, alternatives) if alternatives else None
    f = bad.similarity if bad else 0.0
    s = good.similarity if good else 0.0
    a = alt.similarity if alt else 0.0
    words = {stem(w) for w in _WORD.findall(sentence.lower()) if len(w) > 3}
    said = {stem(w) for w in _WORD.findall(proposal.text.lower())}
    row = {
        "best": best, "sentence": whole.similarity if whole else 0.0,
        "forbidden": f, "stated": s, "alternative": a,
        "has_forbidden": float(bad is not None), "has_stated": float(good is not None),
        "has_alternative": float(alt is not None),
        "forbidden_over_stated": f - s if bad and good else 0.0,
        "alternative_over_forbidden": a - f if alt and bad else 0.0,
        "drafted_forbid": float(bool(spec.forbid)), "drafted_require": float(bool(spec.require)),
        "property": float(not (spec.forbid or spec.require)),
        "matched": float(bool(outcome.triggers)), "by_meaning": float(bool(outcome.by_meaning)),
        "missing": float(bool(outcome.missing)),
        "overlap": len(words & said) / max(1, len(words)),
        "diff": float(proposal.source == "diff"), "tool": float(proposal.source == "tool"),
        "units": len(judge.units), "log_chars": math.log1p(len(proposal.text)),
    }
    for name, rx in _CUES.items():
        row[name] = float(bool(rx.search(proposal.text)))
    b = bucket(outcome, spec, best, meaning.settings.guardrail.meaning_threshold)
    for name in BUCKETS:
        row["bucket_" + name] = float(b == name)
    return row


def ranked(near: dict[str, float], item_id: str) -> tuple[float, float]:
    """(how many stored criteria are closer to the proposal, margin over the closest other)."""
    rest = [v for k, v in near.items() if k != item_id] or [0.0]
    own = near.get(item_id, 0.0)
    return float(sum(v > own for v in rest)), own - max(rest)


def features(li, outcome: RuleOutcome, proposal: Proposal, meaning, near: dict[str, float]) -> dict:
    """Every signal of one passing pair; `near`: each judged criterion's closest cosine."""
    row = signals(li, outcome, proposal, meaning, near[li.item.id])
    row["rank"], row["top_margin"] = ranked(near, li.item.id)
    return row


_STAGES: list = []  # the two stages' arrays, built once


def _stages() -> list:
    import numpy as np

    if not _STAGES:
        for n in ("RELEVANCE", "VIOLATION"):
            _STAGES.append(tuple(np.array(getattr(W, f"{n}_{p}")) for p in ("MEAN", "SCALE", "WEIGHTS"))
                           + (getattr(W, f"{n}_BIAS"),))
    return _STAGES


def score(row: dict) -> float | None:
    """The violation score of a pair, or None where the relevance stage keeps it out (the
    same arithmetic as tests/gate_train.py)."""
    import numpy as np

    v = np.array([float(row[n]) for n in W.FEATURES])
    (rm, rs, rw, rb), (vm, vs, vw, vb) = _stages()
    if float(((v - rm) / rs) @ rw + rb) < W.RELEVANCE_CUT:
        return None
    return float(((v - vm) / vs) @ vw + vb)


def asked(passes: list, judged: list, proposal: Proposal, meaning) -> list[tuple[Any, RuleOutcome]]:
    """Of the check's passing (loaded item, outcome) pairs, those the gate asks about, each
    with its "applies, undecided" outcome; `judged`: every criterion the check judged (the
    rank is among them). Nothing without the sentence model."""
    if not ENABLED or not passes or not callable(meaning) or not hasattr(meaning, "judge"):
        return []
    meaning(passes[0][0].item.text)  # loads the model (a no-op when some criterion did)
    judge = meaning.judge
    if judge is None:
        return []
    near = {li.item.id: _best(judge, li.item.text) for li in judged}
    out = []
    for li, outcome in passes:
        s = score(features(li, outcome, proposal, meaning, near))
        if s is None or s < W.VIOLATION_CUT:
            continue
        text = " ".join(li.item.text.split())
        out.append((li, RuleOutcome(
            status="undecided", triggers=list(outcome.triggers), by_meaning=outcome.by_meaning,
            reason=(f"may apply: the reader let it pass, but pairs like this one were violations "
                    f"in labelled cases (calibrated gate, score {s:.2f} ≥ {W.VIOLATION_CUT:.2f}); "
                    f"judge it against \"{text}\""),
        )))
    return out


def _best(judge, sentence: str) -> float:
    hit = judge.best(sentence)
    return hit.similarity if hit else 0.0
