"""Tables from tests.stage_audit's JSON files (eighth session, issue 22). Eight batches:
b1, b2, b3 (the three batches of tests/guardrail_tuning_cases.py, told apart by where
their criteria start in CRITERIA) and b4 … b8.

    python -m tests.audit_report table BASE.json NAME=FILE.json ...
        per batch, what switching each stage off changes against BASE
        (exact / wrong blocks / silent passes / look-alikes pass)
    python -m tests.audit_report folds CURRENT_VALUE VALUE=FILE.json ...
        leave-one-batch-out choice of one setting: for each batch, the value with the
        most exact answers (no wrong block) on the other seven, scored on that batch
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

BATCHES = ("b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9")
# the first criteria of the second and third batch in tests/guardrail_tuning_cases.py
_SECOND, _THIRD = "no_md5", "no_reformat"


def _first_three() -> dict[str, str]:
    from tests import guardrail_tuning_cases as T

    keys = list(T.CRITERIA)
    two, three = keys.index(_SECOND), keys.index(_THIRD)
    batch = {k: "b1" if i < two else "b2" if i < three else "b3" for i, k in enumerate(keys)}
    return {case[0]: batch[case[1]] for case in T.CASES}


def load(path: str) -> dict[str, list]:
    """batch -> rows (case, expected, answer, exact)."""
    first = _first_three()
    out: dict[str, list] = {b: [] for b in BATCHES}
    for case, group, expected, got, ok in json.loads(Path(path).read_text())["rows"]:
        b = first[case] if group == "tuning" else "b" + group.removeprefix("batch")
        out[b].append((case, expected, got, ok))
    return out


def fig(rows: list) -> tuple[int, int, int, int]:
    """(exact, wrong blocks, silent passes, look-alikes pass)."""
    return (
        sum(r[3] for r in rows),
        sum(r[1] == "pass" and r[2] == "block" for r in rows),
        sum(r[1] == "violation" and r[2] == "pass" for r in rows),
        sum(r[1] == "pass" and r[2] == "pass" for r in rows),
    )


def _delta(a: tuple, b: tuple) -> str:
    """What the stage gives: figures with it (a) minus without it (b)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    return "0" if not any(d) else "/".join(f"{v:+d}" if v else "0" for v in d)


def table(base: str, ablations: list[str]) -> None:
    with_all = load(base)
    print("| stage off | " + " | ".join(BATCHES) + " | all |")
    print("|---|" + "---|" * (len(BATCHES) + 1))
    total = fig([r for b in BATCHES for r in with_all[b]])
    print("| (none: figures) | " + " | ".join(
        "/".join(map(str, fig(with_all[b]))) for b in BATCHES) + f" | {'/'.join(map(str, total))} |")
    for spec in ablations:
        name, path = spec.split("=", 1)
        off = load(path)
        cells = [_delta(fig(with_all[b]), fig(off[b])) for b in BATCHES]
        whole = _delta(total, fig([r for b in BATCHES for r in off[b]]))
        print(f"| {name} | " + " | ".join(cells) + f" | {whole} |")


def folds(current: str, runs: list[str]) -> None:
    values = {v: load(p) for v, p in (r.split("=", 1) for r in runs)}
    held_chosen = held_current = 0
    for out in BATCHES:
        def train(v: str, out: str = out) -> tuple[int, int, int]:
            rows = [r for b in BATCHES if b != out for r in values[v][b]]
            e, w, s, _ = fig(rows)
            return (-w, e, -s)  # no wrong block first, then exact, then fewer silent
        best = max(values, key=lambda v: (train(v), v == current))
        got, cur = fig(values[best][out]), fig(values[current][out])
        held_chosen += got[0]
        held_current += cur[0]
        print(f"held {out}: chosen {best} -> {got}  current {current} -> {cur}")
    print(f"held-out folds, exact summed: chosen {held_chosen}, current {held_current}")


def main(argv: list[str]) -> None:
    if argv[0] == "table":
        table(argv[1], argv[2:])
    else:
        folds(argv[1], argv[2:])


if __name__ == "__main__":
    main(sys.argv[1:])
