"""A gate calibrated on labelled data (issue 22, twenty-fifth session): for every
(criterion, case) pair of the tuning batches, the general signals the check already has
where it answers — cosines of the criterion's sentence, clauses, forbidden act, stated and
recommended clauses to the proposal's units, whether terms were drafted and matched, which
silent-pass bucket a pass falls in, prose / diff / tool call, cue families in the proposal —
so that a model trained to say "violation" on the passes of 21 batches can be scored on the
22nd (tests/gate_folds.py). Never runs the held-out set.

    python -m tests.gate_features [tuning-all|batch24|...] [--others N] [--out FILE]

`--others N`: also N other criteria of the same batch per case (seeded), labelled "other":
what a gate would flag in a real check where every stored criterion is judged.
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
import tempfile
from pathlib import Path

DEFAULT_FILE = Path(tempfile.gettempdir()) / "gate_rows.jsonl"

# cue families, general words (not phrases of any batch)
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


def folds_of_keys() -> dict[str, str]:
    """criterion key -> its batch (b1, b2, b3, batch4 … batch25 where present)."""
    from tests.heldout_eval import BATCH_MODULES, tuning_set
    from tests.meaning_pairs import batch_of_keys

    out = batch_of_keys()
    for name in BATCH_MODULES[7:]:
        b = "batch" + name.removeprefix("guardrail_tuning_batch")
        out.update(dict.fromkeys(tuning_set(b)[0], b))
    return out


def features(li, outcome, proposal, prepared, meaning) -> dict:
    """The general signals of one answered pair, as numbers (what the check computed or can
    compute from cached criterion-part embeddings)."""
    from lorestack.guardrail.judging import _forbidden_terms, forbidden_hit, stated_hit
    from lorestack.guardrail.meaning import split_acts
    from lorestack.guardrail.rules import stem
    from tests.silent_passes import bucket

    spec = li.item.criterion
    sentence = li.item.text
    judge = meaning.judge
    whole = judge.closest([" ".join(sentence.split())]) if judge else None
    best = judge.best(sentence) if judge else None
    bad = forbidden_hit(spec, sentence, meaning)
    good = stated_hit(sentence, meaning)
    _, alternatives = _forbidden_terms(spec, sentence)
    alternatives = list(dict.fromkeys(alternatives + split_acts(sentence)[1]))
    alt = meaning(sentence, alternatives) if alternatives else None
    f = bad.similarity if bad else 0.0
    s = good.similarity if good else 0.0
    a = alt.similarity if alt else 0.0
    words = {stem(w) for w in re.findall(r"[a-z][a-z0-9]+", sentence.lower()) if len(w) > 3}
    said = {stem(w) for w in re.findall(r"[a-z][a-z0-9]+", proposal.text.lower())}
    row = {
        "best": best.similarity if best else 0.0,
        "sentence": whole.similarity if whole else 0.0,
        "forbidden": f, "stated": s, "alternative": a,
        "has_forbidden": float(bad is not None), "has_stated": float(good is not None),
        "has_alternative": float(alt is not None),
        "forbidden_over_stated": f - s if bad and good else 0.0,
        "alternative_over_forbidden": a - f if alt and bad else 0.0,
        "drafted_forbid": float(bool(spec.forbid)), "drafted_require": float(bool(spec.require)),
        "property": float(not (spec.forbid or spec.require)),
        "matched": float(bool(outcome.triggers)),
        "by_meaning": float(bool(outcome.by_meaning)),
        "missing": float(bool(outcome.missing)),
        "overlap": len(words & said) / max(1, len(words)),
        "diff": float(proposal.source == "diff"), "tool": float(proposal.source == "tool"),
        "units": len(judge.units) if judge else 0,
        "log_chars": math.log1p(len(proposal.text)),
    }
    for name, rx in _CUES.items():
        row[name] = float(bool(rx.search(proposal.text)))
    pseudo = {"source": proposal.source, "reason": outcome.reason, "status": outcome.status,
              "similarity": row["best"], "forbid": spec.forbid, "require": spec.require}
    b = bucket(pseudo, meaning.settings.guardrail.meaning_threshold).split()[0]
    for name in BUCKETS:
        row["bucket_" + name] = float(b == name)
    return row


def collect(which: str = "tuning-all", others: int = 0, seed: int = 25) -> list[dict]:
    from lorestack.guardrail.check import _load_judged
    from lorestack.guardrail.judging import judge_criterion, meaning_for, prepare
    from tests.heldout_eval import build, scratch_home, tuning_set
    from tests.test_guardrail_labelled import make_proposal

    criteria, cases = tuning_set(which)
    fold = folds_of_keys()
    rng = random.Random(seed)
    by_fold: dict[str, list[str]] = {}
    for key in criteria:
        by_fold.setdefault(fold[key], []).append(key)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch_home(Path(tmp))
        mem, ids = build(Path(tmp), criteria)
        loaded, _ = _load_judged(mem, criteria_only=True)
        by_id = {li.item.id: li for li in loaded}
        for case_id, key, raw, expected in cases:
            proposal = make_proposal(raw, mem.project.repo_dir)
            if proposal.skip_reason:
                continue
            prepared = prepare(proposal)
            meaning = meaning_for(mem.settings, proposal)
            meaning(criteria[key][0])  # loads the model: every row gets its cosines
            pool = [k for k in by_fold[fold[key]] if k != key and ids[k]]
            # every stored criterion's closest pair (the batch stands for a store): how this
            # criterion ranks among them by meaning, and its margin over the nearest other
            near = {k: meaning.judge.best(by_id[ids[k]].item.text) if meaning.judge else None
                    for k in by_fold[fold[key]] if ids[k] and ids[k] in by_id}
            near = {k: h.similarity if h else 0.0 for k, h in near.items()}
            for other in [key] + rng.sample(pool, min(others, len(pool))):
                li = by_id.get(ids[other]) if ids[other] else None
                if li is None:
                    continue
                outcome, _ = judge_criterion(li, prepared, proposal.judged_paths(), meaning)
                got = {"violated": "block", "undecided": "undecided"}.get(outcome.status, "pass")
                row = {"case": case_id, "key": other, "fold": fold[key],
                       "label": expected if other == key else "other", "got": got,
                       "status": outcome.status}
                row.update(features(li, outcome, proposal, prepared, meaning))
                rest = [v for k, v in near.items() if k != other] or [0.0]
                row["rank"] = float(sum(v > near.get(other, 0.0) for v in rest))
                row["top_margin"] = near.get(other, 0.0) - max(rest)
                out.append(row)
    return out


def main(argv: list[str]) -> None:
    which = next((a for a in argv if not a.startswith("-") and not a.isdigit() and "/" not in a),
                 "tuning-all")
    others = int(argv[argv.index("--others") + 1]) if "--others" in argv else 0
    path = Path(argv[argv.index("--out") + 1]) if "--out" in argv else DEFAULT_FILE
    found = collect(which, others)
    path.write_text("".join(json.dumps(r) + "\n" for r in found))
    own = [r for r in found if r["label"] != "other"]
    v = [r for r in own if r["label"] == "violation"]
    la = [r for r in own if r["label"] == "pass"]
    print(f"{which}: {len(found)} rows -> {path}; silent passes "
          f"{sum(r['got'] == 'pass' for r in v)}/{len(v)}, look-alikes pass "
          f"{sum(r['got'] == 'pass' for r in la)}/{len(la)}, other pairs "
          f"{len(found) - len(own)} (pass {sum(r['got'] == 'pass' for r in found if r['label'] == 'other')})")


if __name__ == "__main__":
    main(sys.argv[1:])
