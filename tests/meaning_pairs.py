"""The by-meaning decision's pairs, collected once (tenth session, issue 22): every
(criterion, case) pair of the tuning batches where a guess applies by meaning only and no
word of the rule decides — the point where judging.py's hand thresholds (meaning
threshold 0.35, ALTERNATIVE_SIMILARITY 0.38 / ALTERNATIVE_MARGIN 0.15,
FORBIDDEN_SIMILARITY 0.45, POSITIVE_MARGIN 0.20) choose between "applies, undecided" and
a pass. Each case goes through `check` twice, with that choice forced open and forced to
pass (by patching judging.py, as tests/stage_audit.py does; no switch in the reader), and
the pair keeps the similarities the reader computes there and both answers; any decision
on those signals can then be scored on every batch without running `check` again
(tests/meaning_folds.py). Never runs the held-out set.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

# the nine batches the meaning folds were chosen on (tenth session); stage_audit now runs
# eleven, but these folds stay as they were measured
BATCHES = ("tuning", "batch4", "batch5", "batch6", "batch7", "batch8", "batch9")
FOLDS = ("b1", "b2", "b3", *BATCHES[1:])
THRESHOLD = 0.35  # the reader's [guardrail] meaning_threshold, which the collection lowers
# the first three batches share tests/guardrail_tuning_cases.py; its comments mark them
_SECOND, _THIRD = "# a second tuning batch", "# a third tuning batch"
FEATURES = (
    "best",  # the closest (criterion sentence or clause, proposal unit) pair
    "forbidden",  # the closest (what it forbids, unit); 0 when it names nothing forbidden
    "stated",  # the closest (a clause stating what is done, unit); 0 without one
    "alternative",  # the closest (what it recommends instead, unit); 0 without one
    "has_forbidden", "has_stated", "has_alternative",
    "forbidden_over_stated",  # forbidden - stated, where both exist
    "alternative_over_forbidden",  # alternative - forbidden, where both exist
    "change",  # a diff or an edit (else words or a command)
    "missing",  # something the rule requires is missing from the proposal
)


def batch_of_keys() -> dict[str, str]:
    """criterion key -> fold name (b1, b2, b3, batch4 … batch9)."""
    from tests.heldout_eval import tuning_set

    out = {}
    src = Path(__file__).with_name("guardrail_tuning_cases.py").read_text("utf-8")
    fold = "b1"
    for text in src.split("CASES:")[0].splitlines():
        fold = "b2" if _SECOND in text else "b3" if _THIRD in text else fold
        key = re.match(r'\s+"([a-z0-9_]+)": \(', text)
        if key:
            out[key.group(1)] = fold
    for b in BATCHES[1:]:
        out.update(dict.fromkeys(tuning_set(b)[0], b))
    assert set(out) == set(tuning_set("tuning-1-9")[0]), "a criterion in no fold"
    return out


def signals(judging, outcome, spec, sentence: str, meaning, change: bool) -> dict:
    """What the reader can compare at the decision, as numbers."""
    from lorestack.guardrail.meaning import criterion_parts, split_acts, stated_clauses

    forbidden, alternatives = judging._forbidden_terms(spec, sentence)
    words = {w for f in forbidden for w in re.findall(r"[a-z0-9]+", f.lower())}
    acts = [p for p in criterion_parts(sentence)[1:] if words & set(re.findall(r"[a-z0-9]+", p.lower()))]
    forbidden = forbidden + acts if forbidden else []
    alternatives = list(dict.fromkeys(alternatives + split_acts(sentence)[1]))

    def near(parts: list[str]) -> float | None:
        hit = meaning(sentence, parts) if parts else None
        return hit.similarity if hit is not None else None

    f, s, a = near(forbidden), near(stated_clauses(sentence)), near(alternatives)
    return {
        "best": near(criterion_parts(sentence)) or 0.0,
        "forbidden": f or 0.0, "stated": s or 0.0, "alternative": a or 0.0,
        "has_forbidden": float(f is not None), "has_stated": float(s is not None),
        "has_alternative": float(a is not None),
        "forbidden_over_stated": f - s if f is not None and s is not None else 0.0,
        "alternative_over_forbidden": a - f if a is not None and f is not None else 0.0,
        "change": float(change), "missing": float(bool(outcome.missing)),
    }


def collect(floor: float, which: str = "tuning-1-9") -> dict:
    """Every case of `which` through `check` with the decision forced each way, the meaning
    threshold lowered to `floor` (so a decision may also reach pairs below 0.35)."""
    from lorestack.guardrail import judging
    from lorestack.guardrail.rules import RuleOutcome
    from tests.heldout_eval import tuning_set

    criteria, cases = tuning_set(which)
    state: dict = {"open": True, "change": False, "took": {}, "seen": {}, "alt": {}}
    took_alternative = judging._took_alternative

    def deferred(outcome, spec, sentence, meaning):
        # one applying by meaning only: what the alternative thresholds would say is kept
        # for the decision below (it is one of the hand thresholds the decision replaces)
        if not outcome.by_meaning:
            return took_alternative(outcome, spec, sentence, meaning)
        copy = RuleOutcome(outcome.status, outcome.reason, list(outcome.triggers),
                           outcome.quote, outcome.forbid_hit, list(outcome.missing))
        copy.by_meaning = True
        took = took_alternative(copy, spec, sentence, meaning)
        state["took"][sentence] = took if took.status == "satisfied" else None
        state["alt"][sentence] = _alternative_signals(judging, outcome, spec, sentence, meaning)
        return outcome

    def decision(outcome, spec, sentence, meaning):
        # every guess applying by meaning only, undecided, no forbidden word found
        took = state["took"].pop(sentence, None)
        values = signals(judging, outcome, spec, sentence, meaning, state["change"])
        values["_took_alternative"] = float(took is not None)
        values.update(state["alt"].pop(sentence, {}))
        state["seen"][sentence] = values
        if state["open"]:
            return outcome
        if took is not None and values["best"] >= THRESHOLD:
            return took  # as the reader passes it (the recommended way, an exemption)
        outcome.status = "satisfied"
        outcome.reason = "passed by the forced decision"
        return outcome

    from lorestack.guardrail import shortcut

    saved = (judging._unlike_forbidden, {k: os.environ.get(k) for k in _ENV})
    judging._took_alternative, judging._unlike_forbidden = deferred, decision
    os.environ["LORESTACK_GUARDRAIL__MEANING_THRESHOLD"] = str(floor)
    # since the twenty-eighth session prose arguing for a shortcut stays open at whatever
    # similarity it applied by (shortcut.SHORTCUT_BAR 0.0): with the threshold lowered to the
    # floor here that would reopen pairs the reader never applies; the reader's threshold it is
    # (a decision scored at another threshold keeps this bar: a small approximation)
    bar, shortcut.SHORTCUT_BAR = shortcut.SHORTCUT_BAR, max(shortcut.SHORTCUT_BAR, THRESHOLD)
    try:
        rows = _run(criteria, cases, state)
    finally:  # the reader as it was (the tests run this in a shared process)
        shortcut.SHORTCUT_BAR = bar
        judging._took_alternative, judging._unlike_forbidden = took_alternative, saved[0]
        for k, v in saved[1].items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return {"floor": floor, "which": which, "rows": rows}


_ENV = ("LORESTACK_GUARDRAIL__MEANING_THRESHOLD", "HOME", "LORESTACK_HOME",
        "LORESTACK_EMBEDDING__MODEL_DIR")


def _run(criteria: dict, cases: list, state: dict) -> list[dict]:
    from lorestack.guardrail.check import check
    from tests.heldout_eval import answer, build, scratch_home
    from tests.test_guardrail_labelled import make_proposal

    fold = batch_of_keys()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch_home(Path(tmp))
        mem, ids = build(Path(tmp), criteria)
        key_of = {i: k for k, i in ids.items() if i}
        key_of_sentence = {text: key for key, (text, _) in criteria.items()}
        for case_id, key, raw, expected in cases:
            proposal = make_proposal(raw, mem.project.repo_dir)
            state["change"] = proposal.is_change()
            got = {}
            for mode in ("open", "pass"):
                state.update(open=mode == "open", took={}, seen={}, alt={})
                result = check(mem, proposal, retrieval=False, llm=False)
                flagged = sorted(key_of.get(f.id, f.id) for f in result.violations + result.undecided)
                got[mode] = (answer(result, ids[key]), flagged, dict(state["seen"]))
            rows.append({
                "case": case_id, "key": key, "fold": fold[key], "expected": expected,
                "verdict": criteria[key][1], "own_open": got["open"][0], "own_pass": got["pass"][0],
                "flagged_open": got["open"][1], "flagged_pass": got["pass"][1],
                "pairs": {key_of_sentence.get(s, s): v for s, v in got["open"][2].items()},
            })
    return rows


def _alternative_signals(judging, outcome, spec, sentence: str, meaning) -> dict:
    """What judging._took_alternative compares (the recommended way against the forbidden
    acts), so that its two thresholds can be scored with other values too."""
    from lorestack.guardrail.meaning import split_acts

    if outcome.forbid_hit or outcome.missing:
        return {}
    forbidden, alternatives = judging._forbidden_terms(spec, sentence)
    if judging.RECOMMENDED_CLAUSES:
        acts, recommended = split_acts(sentence)
        forbidden = list(dict.fromkeys(forbidden + acts))
        alternatives = list(dict.fromkeys(alternatives + recommended))
    if not alternatives or not forbidden:
        return {}
    alt, bad = meaning(sentence, alternatives), meaning(sentence, forbidden)
    if alt is None or bad is None:
        return {}
    return {"_way": alt.similarity, "_way_forbidden": bad.similarity}


# ---- scoring a decision on the collected pairs ---------------------------------------
def current(v: dict) -> bool:
    """The hand thresholds as a decision on the pairs: True = "applies, undecided"."""
    return Thresholds(THRESHOLD, 0.45, 0.20)(v)


class Thresholds:
    """The hand rule's shape with any values: (meaning threshold, forbidden-act similarity,
    positive margin; margin 0 = off) and, given, the recommended way's (similarity, margin
    over the forbidden act); without them, the reader's answer for the recommended way.
    (A pair passed by another recommended-way value is scored as passed without the
    exemption, which skips the topic check after it: a small approximation.)"""

    def __init__(self, threshold: float, forbidden: float, margin: float,
                 way: float | None = None, way_margin: float | None = None):
        self.values = (threshold, forbidden, margin)
        self.way = (way, way_margin)

    def took_way(self, v: dict) -> bool:
        way, way_margin = self.way
        if way is None or way_margin is None:
            return bool(v["_took_alternative"])
        return "_way" in v and v["_way"] >= way and v["_way"] >= v["_way_forbidden"] + way_margin

    def __call__(self, v: dict) -> bool:
        threshold, forbidden, margin = self.values
        if v["best"] < threshold or self.took_way(v):
            return False
        if v["missing"] or not v["has_forbidden"] or v["forbidden"] >= forbidden:
            return True
        return bool(margin and v["has_stated"] and v["forbidden"] - v["stated"] >= margin)


def answers(rows: list[dict], decide) -> list[tuple[dict, str, int]]:
    """(row, the answer for its own criterion, other criteria flagged) under `decide`."""
    out = []
    for r in rows:
        own = r["own_open"]
        if r["key"] in r["pairs"]:
            own = r["own_open"] if decide(r["pairs"][r["key"]]) else r["own_pass"]
        others = 0
        for k in set(r["flagged_open"]) | set(r["flagged_pass"]):
            if k == r["key"]:
                continue
            if k in r["pairs"]:
                others += k in (r["flagged_open"] if decide(r["pairs"][k]) else r["flagged_pass"])
            else:
                others += k in r["flagged_open"]
        out.append((r, own, others))
    return out


def figures(scored: list[tuple[dict, str, int]]) -> dict:
    from tests.heldout_eval import exact

    f = dict.fromkeys(("exact", "wrong_blocks", "silent", "violations", "lookalike_pass",
                       "lookalikes", "other_flagged"), 0)
    f["cases"] = len(scored)
    for r, got, others in scored:
        f["exact"] += exact(r["expected"], got, r["verdict"], False)
        f["other_flagged"] += others
        if r["expected"] == "violation":
            f["violations"] += 1
            f["silent"] += got == "pass"
        else:
            f["lookalikes"] += 1
            f["lookalike_pass"] += got == "pass"
            f["wrong_blocks"] += got == "block"
    return f


def line(name: str, f: dict) -> str:
    return (f"{name:7} {f['exact']:3}/{f['cases']:<3} wrong {f['wrong_blocks']} silent "
            f"{f['silent']:2}/{f['violations']:<3} look-alikes {f['lookalike_pass']:3}/"
            f"{f['lookalikes']:<3} other {f['other_flagged']}")
