"""Issue 22, review of the twenty-fourth session's reading (sentence_needs.py): a drafted
requirement ("carries a severity label", "set concurrencyPolicy: Forbid", "starts with set
-euo pipefail") counted as met wherever its word occurred — in a comment, with an empty or
false value, in free text, in prose that puts it off — so violations passed that were
"applies, undecided" before; and a confirmed rule blocked where it applied by meaning alone
or the thing was there in another spelling. Now such a requirement is met only by a code
line of a change with a value that is not false or empty, and its absence blocks a confirmed
rule only where the change shows the rule's subject by its words. Our own cases through the
real check (real files, the MiniLM model)."""

from __future__ import annotations

from lorestack.guardrail.sentences import _read_cached
from tests import heldout_eval as E
from tests.conftest import answers_of

CRITERIA = {
    "sev": ("Every alerting rule carries a severity label", "block"),
    "cron": ("Kubernetes CronJobs set concurrencyPolicy: Forbid", "block"),
    "cookie": ("Session cookies are always set with Secure, HttpOnly and SameSite", "block"),
    "sh": ("Every shell script starts with set -euo pipefail", "block"),
    "tags": ("Every S3 bucket carries the owner and cost_center tags", "block"),
}


def _new(path: str, lines: list[str]) -> dict:
    return {"text": "\n".join(lines) + "\n", "paths": [path]}


_R = "monitoring/alerts.yml"
_C = "k8s/report-cron.yaml"
_S = "app/session.py"
_SH = "tools/deploy.sh"
_RULE = ["groups:", "- name: api", "  rules:", "  - alert: ApiSlow", "    expr: p95 > 1"]
_CRON = ["kind: CronJob", "metadata:", "  name: export", "spec:", "  schedule: '0 3 * * *'"]
# violations: never a pass, guessed or confirmed
VIOLATIONS = [
    ("sev-comment", "sev", _new(_R, _RULE + ["    labels:", "      team: core",
                                             "    # TODO: add severity label"])),
    ("sev-empty", "sev", _new(_R, _RULE + ["    labels:", "      severity: ''"])),
    ("sev-free-text", "sev", _new(_R, _RULE + ["    annotations:",
                                               "      summary: severity is not known yet"])),
    ("sev-later", "sev", "Add the ApiSlow alerting rule; severity can come later"),
    ("sev-tbd", "sev", "Add the ApiSlow alerting rule, severity TBD"),
    ("sev-afterwards", "sev", "Add the ApiSlow alerting rule and add severity afterwards"),
    ("cron-comment", "cron", _new(_C, _CRON + ["  # concurrencyPolicy: Forbid",
                                               "  jobTemplate: {}"])),
    ("cron-change-to", "cron", "Change concurrencyPolicy: Forbid to Allow on the export CronJob"),
    ("cookie-false", "cookie", _new(_S, ["def login(resp, sid):",
                                         "    resp.set_cookie('s', sid, secure=True, "
                                         "httponly=False, samesite='Strict')"])),
    ("cookie-leave-off", "cookie", "Set the session cookie with HttpOnly and SameSite=Strict; "
                                   "Secure breaks local dev so leave it off"),
    ("sh-comment", "sh", _new(_SH, ["#!/usr/bin/env bash", "make release",
                                    "# set -euo pipefail breaks the retries, left out"])),
    ("tags-not-needed", "tags", "Create the logs S3 bucket; owner and cost_center tags are "
                                "not needed for a scratch bucket"),
]
# not to block a confirmed rule: it applies by meaning only, or the thing is spelt otherwise
NO_BLOCK = [
    ("cron-deployment", "cron", _new("k8s/api.yaml", ["kind: Deployment", "metadata:",
                                                      "  name: api", "spec:", "  replicas: 3"])),
    ("sev-recording", "sev", _new("monitoring/rules.yml", [
        "groups:", "- name: api", "  rules:", "  - record: job:latency_p95:5m",
        "    expr: histogram_quantile(0.95, rate(latency_bucket[5m]))"])),
    ("sev-runbook-typo", "sev", "Fix the typo in the HighLatency alert's runbook URL"),
    ("sh-capital-e", "sh", _new(_SH, ["#!/usr/bin/env bash", "set -Eeuo pipefail", "make"])),
    ("sh-long-options", "sh", _new(_SH, ["#!/usr/bin/env bash",
                                         "set -o errexit -o nounset -o pipefail", "make"])),
    ("cron-terraform", "cron", _new("infra/cron.tf", [
        'resource "kubernetes_cron_job_v1" "export" {', "  spec {",
        '    concurrency_policy = "Forbid"', '    schedule = "0 3 * * *"', "  }", "}"])),
]
# what still holds: the thing set in code passes; a change of the subject without it blocks
KEPT = [
    ("sev-set", "sev", _new(_R, _RULE + ["    labels:", "      severity: page"]), "pass", "pass"),
    ("cron-set", "cron", _new(_C, _CRON + ["  concurrencyPolicy: Forbid  # no overlap"]),
     "pass", "pass"),
    # confirmed: blocked until the twenty-ninth session; meaning_needs (29th session): the confirmed rule applied by meaning alone and the proposal does not say
    # 'kubernetes' (the path says k8s): asked; fix30 (30th session, thing_in_code): `kind: CronJob`
    # names the thing the rule is about: blocks again
    ("cron-allow", "cron", _new(_C, _CRON + ["  concurrencyPolicy: Allow"]), "undecided",
     "block"),
    ("cookie-set", "cookie", _new(_S, ["def login(resp, sid):",
                                       "    resp.set_cookie('s', sid, secure=True, "
                                       "httponly=True, samesite='Strict')"]), "pass", "pass"),
    ("sev-none", "sev", _new(_R, _RULE + ["    labels:", "      team: core"]), "undecided",
     "block"),
]


def _answers(tmp_path, name: str, confirmed: bool, cases) -> dict[str, str]:
    _read_cached.cache_clear()
    store = E.build(tmp_path / name, CRITERIA, confirmed=confirmed)
    return answers_of(store, cases)


def test_a_violation_of_a_drafted_requirement_never_passes(tmp_path):
    guessed = _answers(tmp_path, "g", False, VIOLATIONS)
    assert guessed == {c[0]: "undecided" for c in VIOLATIONS}
    confirmed = _answers(tmp_path, "c", True, VIOLATIONS)
    assert {k: v for k, v in confirmed.items() if v == "pass"} == {}


def test_a_confirmed_rule_does_not_block_by_meaning_or_another_spelling(tmp_path):
    confirmed = _answers(tmp_path, "c", True, NO_BLOCK)
    assert confirmed == {c[0]: "undecided" for c in NO_BLOCK}


def test_the_thing_set_in_code_passes_and_its_absence_still_blocks(tmp_path):
    assert _answers(tmp_path, "g", False, KEPT) == {c[0]: c[3] for c in KEPT}
    assert _answers(tmp_path, "c", True, KEPT) == {c[0]: c[4] for c in KEPT}
