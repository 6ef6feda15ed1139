"""Why look-alikes that comply are not answered "pass" (issue 22, twenty-third session): the
other direction of tests/silent_passes.py. Each look-alike of a tuning set judged against its
own criterion only, and every one that does not pass put in one bucket by the step that held
it back:

    python -m tests.silent_passes [tuning-all|batch12|...] --lookalikes [-v] [--confirmed]

A1 applied by meaning; the draft has no term the rules can check ("the rules cannot judge")
A2 applied by meaning; the forbidden-act gate has nothing to compare (only paths or regexes)
A3 applied by meaning; the gate reads it at or above FORBIDDEN_SIMILARITY from a forbidden act
A4 applied by meaning; far from both, but nearer the forbidden act by POSITIVE_MARGIN
A5 applied by meaning; the gate passed it and the shortcut reader kept it open
B1 a forbidden term of the rule is met (a guess answers "applies, undecided")
B2 a required term of the rule is not found
B3 applied by its words; none of what the guessed rule forbids occurs, and it asks (_guess)
C  another reader (freeze, image digest, a wanted thing, a removal above a kept folder, …)

Each bucket is split into code (a diff or a tool call) and prose, and counts the batches it
comes from: a cause found in one batch is a case, not a cause.
"""

from __future__ import annotations

import importlib
from collections import Counter, defaultdict


def bucket(row: dict) -> str:
    from lorestack.guardrail.judging import FORBIDDEN_SIMILARITY

    reason = row.get("reason", "")
    if row.get("forbid_hit"):
        name = "B1 a forbidden term met"
    elif row.get("missing"):
        name = "B2 a required term not found"
    elif row.get("by_meaning") and "argues for a shortcut" in reason:
        name = "A5 by meaning, kept open by the shortcut reader"
    elif row.get("by_meaning") and not (row.get("forbid") or row.get("require")):
        name = "A1 by meaning, no term drafted (rules cannot judge)"
    elif row.get("by_meaning") and row.get("gate_bad") is None:
        name = "A2 by meaning, the gate has nothing to compare"
    elif row.get("by_meaning") and row["gate_bad"] >= FORBIDDEN_SIMILARITY:
        name = f"A3 by meaning, forbidden act >= {FORBIDDEN_SIMILARITY:.2f}"
    elif row.get("by_meaning") and "none of its words occur" in reason:
        name = "A4 by meaning, nearer the forbidden act (margin)"
    elif "none of what its guessed rule forbids" in reason:
        name = "B3 by its words, nothing forbidden met, the guess asks"
    else:
        name = "C  another reader"
    kind = "code" if row["source"] in ("diff", "tool") else "prose"
    return f"{name} [{kind}]"


def batch_of() -> dict[str, str]:
    """criterion key -> the batch that holds it."""
    from tests.heldout_eval import BATCH_MODULES

    out = {}
    for name in BATCH_MODULES:
        label = name.removeprefix("guardrail_tuning_").replace("cases", "batch1-3")
        out.update(dict.fromkeys(importlib.import_module(f"tests.{name}").CRITERIA, label))
    return out


def report(which: str, found: list[dict], *, verbose: bool = False) -> dict[str, int]:
    """Print the look-alikes that do not pass, by bucket, with how many batches each spans."""
    lookalikes = [r for r in found if r["expected"] == "pass"]
    held = [r for r in lookalikes if r["got"] != "pass"]
    print(f"{which}: look-alikes pass {len(lookalikes) - len(held)}/{len(lookalikes)}; "
          f"not pass {len(held)} (undecided {sum(r['got'] == 'undecided' for r in held)}, "
          f"warn {sum(r['got'] == 'warn' for r in held)}, "
          f"block {sum(r['got'] == 'block' for r in held)})")
    batches = batch_of()
    counts: Counter[str] = Counter()
    spans: dict[str, set[str]] = defaultdict(set)
    for r in held:
        name = bucket(r)
        counts[name] += 1
        spans[name].add(batches.get(r["key"], "?"))
    for name in sorted(counts):
        print(f"{counts[name]:5d}  {name}  ({len(spans[name])} batches)")
    if verbose:
        for r in sorted(held, key=bucket):
            gate = (f" gate {r.get('gate_bad')}/{r.get('gate_good')}" if r.get("by_meaning")
                    else "")
            print(f"  {r['case']}: {bucket(r)[:3]} |{gate} forbid {r['forbid'][:3]} | "
                  f"{r['reason'][:110]}")
    return dict(counts)
