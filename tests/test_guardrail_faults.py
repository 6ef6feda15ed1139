"""Issue 22, sixth session: faults that are a DETAIL of code or a command (faults.py: a bare
`except:`, a mutable default, an unsigned tag, a floating image tag …) and prose that LEAVES
OUT what a rule wants (left_out.py: "tests next sprint"), and the seventh tuning batch's
figures as floors. Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import faults, left_out
from lorestack.guardrail.faults import judge_fault
from lorestack.guardrail.left_out import judge_left_out
from tests import guardrail_tuning_batch7 as B7
from tests import heldout_eval as E
from tests.guardrail_sentence_cases import _bash, _diff


def test_a_fault_shows_or_only_its_subject_shows_or_nothing_does():
    rule = "Catch specific exceptions; never a bare except"
    shown = judge_fault(rule, "try:\n    run()\nexcept:\n    pass")
    assert shown is not None and shown.shown and shown.line == "except:"
    # said in a sentence, mid-line, it is the same fault
    said = judge_fault(rule, "Add a fallback: except: pass around the cache read")
    assert said is not None and said.shown
    kept = judge_fault(rule, "try:\n    run()\nexcept (OSError, ValueError):\n    log.warning('x')")
    assert kept is not None and not kept.shown
    assert judge_fault(rule, "x = compute(y)") is None  # no except at all: it says nothing
    # a sentence naming none of the faults: nothing, whatever the proposal shows
    assert judge_fault("Keep functions short", "try:\n    run()\nexcept:\n    pass") is None


@pytest.mark.parametrize(
    "rule, fault, fine",
    [
        ("Tags for releases are GPG-signed", "git tag v1.2.0", "git tag -a -s v1.2.0 -m 'v1.2.0'"),
        ("No mutable default values in function signatures", "def f(a, seen={}):",
         "def f(a, seen=None):"),
        ("Base images are pinned by digest", "FROM node:22-alpine",
         "FROM node:22-alpine@sha256:" + "ab" * 32),
        ("Always set a timeout on HTTP requests", "r = requests.post(URL, json=body)",
         "r = requests.post(URL, json=body, timeout=5)"),
        ("Queries take bound parameters, never string formatting",
         "db.execute('DELETE FROM t WHERE id = %s' % (row_id,))",
         "db.execute('DELETE FROM t WHERE id = %s', (row_id,))"),
        ("Never force-push to shared branches", "git push --force origin main",
         "git push --force-with-lease origin my-branch"),
    ],
)
def test_each_fault_against_a_line_that_has_it_and_one_that_does_not(rule, fault, fine):
    bad, ok = judge_fault(rule, fault), judge_fault(rule, fine)
    assert bad is not None and bad.shown, (rule, fault)
    assert ok is not None and not ok.shown, (rule, fine)


def test_a_datastore_the_rule_itself_names_is_no_new_one():
    rule = "No new database this year: Postgres and Redis are what we run"
    assert judge_fault(rule, "cache = redis.Redis(host=REDIS_HOST)") is None
    found = judge_fault(rule, "Add Cassandra as the event store")
    assert found is not None and found.shown


def test_left_out_needs_what_the_rule_wants_near_a_cue_that_puts_it_off():
    rule = "Every new endpoint needs an OpenAPI description"
    assert judge_left_out(rule, "Add GET /invoices now; the OpenAPI description can wait for a follow-up")
    assert judge_left_out(rule, "Add GET /invoices with its OpenAPI description") is None
    # a cue about something else the rule does not want
    assert judge_left_out(rule, "Add GET /invoices and tidy the router later") is None
    # a rule that wants nothing names nothing to leave out
    assert judge_left_out("Never deploy on Fridays", "Deploy the hotfix now, the notes later") is None


CRITERIA = {
    "except": ("Catch specific exceptions; a bare except hides real bugs", "warn"),
    "tags": ("Release tags must be signed", "block"),
    "tests": ("New endpoints must come with tests", "warn"),
}
CASES = [
    ("bare", "except", _diff("src/a.py", "try:\n    run()\nexcept:\n    retry()"), "undecided"),
    ("narrow", "except", _diff("src/a.py", "try:\n    run()\nexcept KeyError:\n    retry()"), "pass"),
    ("unsigned", "tags", _bash("git tag v3.0.0 && git push origin v3.0.0"), "undecided"),
    ("signed", "tags", _bash("git tag -s v3.0.0 -m 'v3.0.0'"), "pass"),
    ("later", "tests", "Ship the /v2/orders endpoint today and write its tests next week", "undecided"),
]  # fmt: skip


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "faults", CRITERIA)


@pytest.mark.parametrize("on", [True, False])
def test_through_check_a_guess_answers_undecided_or_pass_never_block(store, monkeypatch, on):
    mem, ids = store
    monkeypatch.setattr(faults, "ENABLED", on)
    monkeypatch.setattr(left_out, "ENABLED", on)
    answers = E.answers_through_check(mem, ids, CASES, expect=on)  # a guess never blocks
    if not on:  # switched off, at least one of these answers differently
        assert any(answers[c[0]] != c[3] for c in CASES), answers


def test_batch7_is_as_the_brief_asks():
    assert len(B7.CRITERIA) >= 25 and len(B7.CASES) >= 70
    for key in B7.CRITERIA:
        cases = [c for c in B7.CASES if c[1] == key]
        assert {c[3] for c in cases} == {"violation", "pass"}, key
        assert any(isinstance(c[2], dict) for c in cases), key  # a diff or a tool call


def test_batch7_figures_do_not_regress(tmp_path):
    mem, ids = E.build(tmp_path / "b7", B7.CRITERIA)
    s = E.score(mem, ids, B7.CRITERIA, B7.CASES)
    assert s["refused"] == 0 and s["wrong_blocks"] == 0
    assert s["violation_answers"]["block"] == 0  # a guess never blocks
    first = B7.FIRST_RUN  # better than before the session's changes
    assert s["silent_passes"] < first["silent_passes"] and s["exact"] > first["exact"], E.summary(s)
    assert s["lookalike_pass"] > first["lookalike_pass"], E.summary(s)
