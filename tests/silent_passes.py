"""Why violations pass in silence (issue 22, twenty-first session): each case of a tuning set
judged against its own criterion only (no other criterion, no retrieval, no LLM; ~1 min for
all eighteen batches instead of ~5 for `tests.heldout_eval`), and every violation that
passes put in one bucket by what let it through:

    python -m tests.silent_passes [tuning-all|batch12|...|everyday|review28|review29|review30|review31] [-v] [--jsonl FILE] [--confirmed]
    python -m tests.silent_passes tuning-all --lookalikes [-v]   (tests/lookalike_buckets.py)
    python -m tests.silent_passes review29 --bands   (nothing applied, by similarity band)

`--confirmed` (twenty-second session): every draft accepted as shown (`criteria confirm`), as
`tests.heldout_eval --confirmed` runs it; a violated rule then answers its criterion's verdict,
and "wrong blocks" counts look-alikes that block.

1a nothing applied; the best meaning similarity is just under the threshold (0.30 to it)
1b nothing applied, far by meaning, and the draft has no term
1c nothing applied, far by meaning, though the draft has terms (said otherwise)
2  applied by meaning, then passed by the forbidden-act gate (judging._unlike_forbidden)
3  applied by its words, and the rules found nothing forbidden
4  read as taking the recommended way (an alternative, by word or by meaning)
5  any other step that made it a pass

Each bucket is split into code (a diff or a tool call) and prose. The answer for its own
criterion is the one `check` gives (tests.heldout_eval's figures match), so `-v` rows are the
silent passes of that run with the drafted rule and the best (clause, unit) pair.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

NEAR = 0.30


def bucket(row: dict, threshold: float) -> str:
    kind = "code" if row["source"] in ("diff", "tool") else "prose"
    reason = row["reason"]
    if row["status"] == "not_applicable":
        if (row["similarity"] or 0.0) >= NEAR:
            name = f"1a nothing applied, meaning {NEAR:.2f}-{threshold:.2f}"
        elif not (row["forbid"] or row["require"]):
            name = "1b nothing applied, far by meaning, no term drafted"
        else:
            name = "1c nothing applied, far by meaning, terms drafted"
    elif "far from what it forbids" in reason:
        name = "2 applied by meaning, passed by the forbidden-act gate"
    elif "recommended" in reason:
        name = "4 read as taking the recommended way"
    elif reason.startswith("no forbidden term"):
        name = "3 applied by its words, nothing forbidden found"
    else:
        name = "5 other"
    return f"{name} [{kind}]"


def case_set(which: str):
    """(criteria, cases) of a tuning set, or of the reviewers' sets `everyday` / `review28` /
    `review29` / `review30` / `review31`."""
    if which == "everyday":
        from tests.guardrail_everyday_cases import CASES, CRITERIA
    elif which == "review28":
        from tests.guardrail_review28_cases import CASES, CRITERIA
    elif which == "review29":
        from tests.guardrail_review29_cases import CASES, CRITERIA
    elif which == "review30":
        from tests.guardrail_review30_cases import CASES, CRITERIA
    elif which == "review31":
        from tests.guardrail_review31_cases import CASES, CRITERIA
    else:
        from tests.heldout_eval import tuning_set

        return tuning_set(which)
    return CRITERIA, CASES


def rows(which: str, *, confirmed: bool = False) -> list[dict]:
    from lorestack.guardrail.check import _load_judged
    from lorestack.guardrail.judging import (
        forbidden_hit,
        judge_criterion,
        meaning_for,
        prepare,
        stated_hit,
    )
    from tests.heldout_eval import build, scratch_home
    from tests.test_guardrail_labelled import make_proposal

    criteria, cases = case_set(which)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch_home(Path(tmp))
        mem, ids = build(Path(tmp), criteria, confirmed=confirmed)
        loaded, _ = _load_judged(mem, criteria_only=True)
        by_id = {li.item.id: li for li in loaded}
        for case_id, key, raw, expected in cases:
            li = by_id.get(ids[key]) if ids[key] else None
            proposal = make_proposal(raw, mem.project.repo_dir)
            row = {"case": case_id, "key": key, "expected": expected, "got": "pass",
                   "source": proposal.source, "proposal": proposal.text[:300]}
            out.append(row)
            if li is None or proposal.skip_reason:
                row.update(status="not_applicable", reason="refused or skipped", forbid=[],
                           require=[], similarity=None)
                continue
            meaning = meaning_for(mem.settings, proposal)
            outcome, _ = judge_criterion(li, prepare(proposal), proposal.judged_paths(), meaning)
            meaning(li.item.text)  # loads the model for the similarity below
            hit = meaning.judge.best(li.item.text) if meaning.judge else None
            spec = li.item.criterion
            if outcome.by_meaning:  # what the forbidden-act gate compared (lookalike_buckets)
                bad = forbidden_hit(spec, li.item.text, meaning)
                good = stated_hit(li.item.text, meaning)
                row.update(gate_bad=round(bad.similarity, 3) if bad else None,
                           gate_good=round(good.similarity, 3) if good else None)
            row.update(
                # an accepted rule answers with its criterion's verdict (block or warn)
                got={"violated": criteria[key][1] if confirmed else "block",
                     "undecided": "undecided"}.get(outcome.status, "pass"),
                status=outcome.status, reason=outcome.reason, text=li.item.text,
                forbid=spec.forbid, require=spec.require, alternatives=spec.alternatives,
                keywords=spec.applies_to.keywords,
                similarity=round(hit.similarity, 3) if hit else None,
                part=hit.part if hit else "", unit=hit.unit[:160] if hit else "",
                threshold=mem.settings.guardrail.meaning_threshold,
                by_meaning=outcome.by_meaning, forbid_hit=outcome.forbid_hit,
                missing=outcome.missing,
            )
    return out


BANDS = (0.20, 0.25, 0.28, 0.30, 0.32, 0.34)


def bands(which: str, found: list[dict]) -> str:
    """How many cases nothing applied to reach each similarity below the threshold, violations
    against look-alikes (thirtieth session): what answering "applies, undecided" from that
    similarity up, with no other step after it, would cost and give."""
    idle = [r for r in found if r["status"] == "not_applicable" and r["similarity"] is not None]
    threshold = next((r["threshold"] for r in found if "threshold" in r), 0.35)
    out = [f"{which}: nothing applied, by best meaning similarity (threshold {threshold:.2f})"]
    for low in BANDS:
        got = {e: [r for r in idle if r["expected"] == e and low <= r["similarity"] < threshold]
               for e in ("violation", "pass")}
        code = {e: sum(r["source"] in ("diff", "tool") for r in rows) for e, rows in got.items()}
        out.append(f"  {low:.2f}-{threshold:.2f}: violations {len(got['violation'])} (code "
                   f"{code['violation']}), look-alikes {len(got['pass'])} (code {code['pass']})")
    return "\n".join(out)


def main(argv: list[str]) -> None:
    which = next((a for a in argv if not a.startswith("-") and "/" not in a), "tuning-all")
    found = rows(which, confirmed="--confirmed" in argv)
    if "--jsonl" in argv:
        Path(argv[argv.index("--jsonl") + 1]).write_text("".join(json.dumps(r) + "\n" for r in found))
    if "--bands" in argv:  # where meaning gives up: "nothing applied" by similarity band
        print(bands(which, found))
        return
    if "--lookalikes" in argv:  # the other direction: look-alikes that do not pass
        from tests.lookalike_buckets import report

        report(which, found, verbose="-v" in argv)
        return
    violations = [r for r in found if r["expected"] == "violation"]
    lookalikes = [r for r in found if r["expected"] == "pass"]
    silent = [r for r in violations if r["got"] == "pass"]
    print(f"{which}: silent passes {len(silent)}/{len(violations)}, look-alikes pass "
          f"{sum(r['got'] == 'pass' for r in lookalikes)}/{len(lookalikes)}, wrong blocks "
          f"{sum(r['got'] == 'block' for r in lookalikes)}, violations blocked "
          f"{sum(r['got'] == 'block' for r in violations)}")
    if "--confirmed" in argv and "-v" in argv:
        for r in lookalikes:
            if r["got"] == "block":
                print(f"  wrong block {r['case']}: forbid {r['forbid'][:3]} require "
                      f"{r['require'][:3]} | {r['reason'][:100]}")
    threshold = next((r["threshold"] for r in found if "threshold" in r), 0.35)
    counts = Counter(bucket(r, threshold) for r in silent)
    for name in sorted(counts):
        print(f"{counts[name]:5d}  {name}")
    if "-v" in argv:
        for r in silent:
            print(f"  {r['case']}: {bucket(r, threshold)} | forbid {r['forbid'][:3]} | "
                  f"{r['similarity']} '{r.get('unit', '')[:60]}' | {r['reason'][:100]}")


if __name__ == "__main__":
    main(sys.argv[1:])
