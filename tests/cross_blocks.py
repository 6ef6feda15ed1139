"""Blocks by OTHER criteria: complying proposals (look-alikes of criterion A) that some other
criterion B blocks, each with B's reading and why it applied and decided. In the confirmed
mode (every drafted reading accepted as shown) each such block is a wrong block for a user
who holds many confirmed criteria, although the per-criterion figure of heldout_eval does not
count it (it only counts `other_criteria_blocked_lookalike`).

    python -m tests.cross_blocks everyday|review28|review29|batchN|tuning-all [--plain] [--every] [-v] [--jsonl F]

Confirmed is the default (plain mode answers a guess, which never blocks). One row per
(case, blocking criterion): case id, A, B, B's sentence, its terms and scope, how it applied
(words / path / meaning with its similarity), and what decided the block (the forbidden term
found, or the required term missing)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

_SIM = re.compile(r"by meaning \(similarity ([0-9.]+)\)")


def how_applied(triggers: list[str]) -> tuple[str, float | None]:
    """'meaning' (with its similarity), 'path' or 'words', from a finding's triggers."""
    sims = [float(m.group(1)) for t in triggers for m in [_SIM.search(t)] if m]
    if sims and len(sims) == len(triggers):
        return "meaning", max(sims)
    if any(t.startswith("path ") for t in triggers):
        return "path", None
    if any(t.startswith("no scope given") for t in triggers):
        return "everywhere", None
    return "words", None


def decided_by(reason: str) -> str:
    """'forbidden' (a term it forbids found) or 'required' (a term it wants missing) or
    'other', read from the finding's reason."""
    low = reason.lower()
    if "required" in low or "missing" in low or "not present" in low or "lacks" in low:
        return "required"
    if "forbid" in low:
        return "forbidden"
    return "other"


def rows(which: str, *, confirmed: bool = True, every: bool = False) -> list[dict]:
    """The rows; `every`: every block on every case, its own criterion's too (`own`), for
    weighing a change against the violations it blocks."""
    import tempfile

    from lorestack.guardrail.check import check
    from lorestack.memory_layers import parse_cache
    from tests.heldout_eval import build, scratch_home
    from tests.test_guardrail_labelled import make_proposal

    criteria, cases = load_set(which)
    out: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        scratch_home(Path(tmp))
        mem, ids = build(Path(tmp), criteria, confirmed=confirmed)
        key_of = {v: k for k, v in ids.items() if v}
        specs = {li.item.id: li.item.criterion
                 for li in mem.load_items(include_archived=False).items}
        was = parse_cache.enabled()
        parse_cache.enable(True)
        try:
            for case_id, key, raw, expected in cases:
                if expected != "pass" and not every:
                    continue
                result = check(mem, make_proposal(raw, mem.project.repo_dir),
                               retrieval=False, llm=False)
                for f in result.violations:
                    if f.verdict != "block" or (f.id == ids[key] and not every):
                        continue
                    b = key_of.get(f.id, f.id)
                    how, sim = how_applied(f.triggers)
                    spec = specs.get(f.id)
                    out.append({
                        "case": case_id, "a": key, "expected": expected,
                        "own": f.id == ids[key], "b": b, "b_sentence": criteria[b][0],
                        "how": how, "similarity": sim, "decided": decided_by(f.reason),
                        "reason": f.reason, "quote": f.quote, "triggers": f.triggers[:4],
                        "forbid": list(spec.forbid) if spec else None,
                        "require": list(spec.require) if spec else None,
                        "keywords": list(spec.applies_to.keywords)[:8] if spec else None,
                        "paths": list(spec.applies_to.paths) if spec else None,
                        "proposal": raw if isinstance(raw, str) else repr(raw)[:600],
                    })
        finally:
            parse_cache.enable(was)
    return out


def load_set(which: str):
    from tests.heldout_eval import TUNING_NAMES, tuning_set

    if which in TUNING_NAMES:
        return tuning_set(which)
    if which == "everyday":
        from tests.guardrail_everyday_cases import CASES, CRITERIA
    elif which == "review28":
        from tests.guardrail_review28_cases import CASES, CRITERIA
    elif which == "review29":
        from tests.guardrail_review29_cases import CASES, CRITERIA
    else:
        raise ValueError(f"not a set for tuning: {which}")
    return CRITERIA, CASES


def count(found: list[dict]) -> dict:
    """Look-alike cases blocked by another criterion, and the rows by how B applied and what
    decided."""
    by: dict[str, int] = {}
    for r in found:
        k = f"{r['how']}/{r['decided']}"
        by[k] = by.get(k, 0) + 1
    return {"cases": len({r["case"] for r in found}), "blocks": len(found), "by": by}


def main(argv: list[str]) -> None:
    which = argv[0] if argv else "everyday"
    found = rows(which, confirmed="--plain" not in argv, every="--every" in argv)
    if "--jsonl" in argv:
        with open(argv[argv.index("--jsonl") + 1], "w") as fh:
            for r in found:
                fh.write(json.dumps(r) + "\n")
    print(json.dumps(count(found)))
    if "-v" in argv:
        for r in found:
            sim = f" {r['similarity']:.2f}" if r["similarity"] is not None else ""
            print(f"{r['case']:<22} B={r['b']:<18} {r['how']}{sim} {r['decided']}: {r['reason'][:140]}")


if __name__ == "__main__":
    main(sys.argv[1:])
