"""`lorestack bench secrets`: the secret guard on a labelled corpus, and what it costs.

Per run (a fresh seed, so fresh random values): share of credential notes blocked, share
fully redacted (no 8-character piece of the secret left), share of benign look-alikes
flagged. Then the detector's cost per document (the corpus notes and a 2 kB memory item
of plain prose) and the import cost a cold hook pays for it. Optionally the same corpus
through detect-secrets' plugins (entropy plugins off, as they flag every word in prose) as a
reference point. Reported, never asserted.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from lorestack.bench.secret_corpus import CorpusScore, generate, score

PROSE = (
    "We moved background jobs from Celery to Temporal because retries were opaque and the "
    "beat scheduler lost tasks on deploy. The billing service keeps its own queue for now; "
    "the migration plan is in docs/adr/0012-jobs.md and the rollout waits for the ledger "
    "freeze to end. Remember that the staging database is shared with QA, so never run the "
    "destructive fixtures there, and check with Priya before touching the payments schema. "
) * 5


def adversarial_inputs(size: int = 60000) -> dict[str, str]:
    """Inputs near the item size limit shaped to make a backtracking regex crawl."""
    return {
        "identifier run + keyword": ("ab_" * (size // 3)) + " password",
        "dash run + keyword": "-" * size + "key",
        "repeated keyword": "password " * (size // 9),
        "repeated assignment": "API_KEY=" * (size // 8),
        "repeated key header": "-----BEGIN RSA PRIVATE KEY-----" * (size // 31),
        "repeated url prefix": "http://a:b" * (size // 10),
        "mysql with many args": "mysql " + "x " * (size // 2),
        "one long token": "Ab1" * (size // 3),
        "mysql placeholders": "mysql -p$X " * (size // 11),
        "putty headers": "PuTTY-User-Key-File-2: Private-Lines: 1 " * (size // 40),
        "rejected prose": "the password is required " * (size // 25),
        "token pieces on every line": "AKIA\n> ghp_\n" * (size // 12),
        # a long run of token characters followed by neither a break nor another run: the
        # wrapped-key pattern once retried it from every position (8 KB 0.57 s, 32 KB 9.7 s)
        "blob then a blank line": "note\n\ndata:image/png;base64," + "Ab1/" * (size // 4)
        + " end\n\n",
    }


@dataclass
class SecretBenchReport:
    runs: list[dict] = field(default_factory=list)
    blocked_pct_mean: float = 0.0
    false_positive_pct_mean: float = 0.0
    us_per_note: float = 0.0
    us_per_2kb_item: float = 0.0
    import_ms: float = 0.0
    worst_adversarial_ms: float = 0.0
    worst_adversarial_case: str = ""
    baseline: list[dict] | None = None
    # passwords said in words, per set (tuning / held-out) and kind: (caught, total), seed 1st
    spoken: list[dict] = field(default_factory=list)


def _spoken_rows(seed: int) -> list[dict]:
    from lorestack.bench.spoken_secrets import CREDENTIALS, HELD_OUT_CREDENTIALS
    from lorestack.bench.spoken_secrets import score as spoken_score

    rows = []
    for held_out in (False, True):
        result = spoken_score(seed, held_out=held_out)
        creds = HELD_OUT_CREDENTIALS if held_out else CREDENTIALS
        for kind, (hit, total) in result.per_kind.items():
            rows.append({"set": "held-out" if held_out else "tuning",
                         "kind": kind, "credential": kind in creds,
                         "blocked" if kind in creds else "false_positives": hit, "total": total})
    return rows


def _run_row(result: CorpusScore) -> dict:
    return {
        "seed": result.seed,
        "credential_kinds": result.credential_kinds,
        "benign_kinds": result.benign_kinds,
        "blocked": result.blocked,
        "blocked_pct": round(result.blocked_pct, 2),
        "fully_redacted": result.fully_redacted,
        "false_positives": result.false_positives,
        "false_positive_pct": round(result.false_positive_pct, 2),
        "missed": result.missed,
        "leaked": result.leaked,
        "flagged_benign": result.flagged_benign,
    }


def _per_doc_us(texts: list[str], repeat: int = 5) -> float:
    from lorestack.memory_layers.secret_guard import find_secrets

    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for text in texts:
            find_secrets(text)
        best = min(best, (time.perf_counter() - start) / len(texts))
    return round(best * 1e6, 1)


def _import_ms(runs: int = 5) -> float:
    """Time a fresh interpreter spends importing the guard once settings are loaded (as in
    every hook): what a hook without the resident service pays; min over runs."""
    code = (
        "import time, lorestack.core.settings; t = time.perf_counter(); "
        "import lorestack.memory_layers.secret_guard; print(time.perf_counter() - t)"
    )
    best = float("inf")
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", code], check=True, capture_output=True, text=True
        )
        best = min(best, float(out.stdout.strip()))
    return round(best * 1000, 1)


def _detect_secrets_row(seed: int) -> dict:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    skip = {"Base64 High Entropy String", "Hex High Entropy String", "Public IP (ipv4)"}
    mapping: dict[str, Any] = dict(get_mapping_from_secret_type_to_class())
    plugins = [plugin() for kind, plugin in mapping.items() if kind not in skip]

    def flagged(text: str) -> bool:
        return any(
            list(p.analyze_line(filename="note.md", line=line, line_number=n))
            for n, line in enumerate(text.splitlines(), 1)
            for p in plugins
        )

    creds, benign = generate(seed)
    blocked = sum(flagged(s.text) for s in creds)
    fps = sum(flagged(s.text) for s in benign)
    return {
        "seed": seed,
        "blocked_pct": round(100 * blocked / len(creds), 2),
        "false_positive_pct": round(100 * fps / len(benign), 2),
    }


def run_secret_bench(seeds: list[int], *, baseline: bool = False) -> SecretBenchReport:
    report = SecretBenchReport()
    for seed in seeds:
        report.runs.append(_run_row(score(seed)))
    report.blocked_pct_mean = round(statistics.mean(r["blocked_pct"] for r in report.runs), 2)
    report.false_positive_pct_mean = round(
        statistics.mean(r["false_positive_pct"] for r in report.runs), 2
    )
    creds, benign = generate(seeds[0])
    report.us_per_note = _per_doc_us([s.text for s in creds + benign])
    report.us_per_2kb_item = _per_doc_us([PROSE[:2048]] * 50)
    report.import_ms = _import_ms()
    from lorestack.memory_layers.secret_guard import find_secrets

    for name, text in adversarial_inputs().items():
        start = time.perf_counter()
        find_secrets(text)
        ms = round((time.perf_counter() - start) * 1000, 1)
        if ms > report.worst_adversarial_ms:
            report.worst_adversarial_ms, report.worst_adversarial_case = ms, name
    if baseline:
        report.baseline = [_detect_secrets_row(seed) for seed in seeds]
    report.spoken = _spoken_rows(seeds[0])
    return report
