"""Issue 22, twenty-sixth session: the calibrated gate wired into the check
(lorestack/guardrail/gate.py, constants in gate_weights.py from tests/gate_train.py). For a
criterion the reader lets pass, the check computes the same signals tests/gate_features.py
collected for training, and above the frozen cut answers "applies, undecided" quoting the
criterion — never a block. Real files, the real MiniLM model, the fourth tuning batch and
criteria of our own."""

from __future__ import annotations

import random

import pytest

from lorestack.guardrail import gate
from lorestack.guardrail import gate_weights as W
from tests import gate_features as G
from tests.conftest import isolated_env

STORE = {  # criteria of our own, typed as people write them (none of a tuning batch)
    "flag_docs": ("Every new feature flag must be listed in docs/flags.md", "warn"),
    "utc": ("Store every timestamp in UTC; never save local time", "block"),
    "no_print": ("Use the logging module, not print(), in library code", "warn"),
    "migrations": ("Database migrations must be reversible", "warn"),
    "i18n": ("User-facing strings go through the translation function", "warn"),
    "no_force_push": ("Never force-push to a shared branch", "block"),
    "pin_deps": ("Pin every runtime dependency to an exact version", "warn"),
    "no_sql_concat": ("Never build SQL queries by string concatenation; use bound parameters", "block"),
    "review": ("Every change to the payment service needs a second reviewer", "warn"),
    "no_sleep_tests": ("Tests must not sleep to wait for async work; poll or use events", "warn"),
    "api_versioning": ("Breaking changes to the public API need a new version prefix", "block"),
    "webhook_backoff": ("Webhook deliveries retry with exponential backoff; never resend in a tight loop", "block"),
}
PLANTED = "Add an ENABLE_BETA_SEARCH option to settings.py, we'll document it next sprint"
UNRELATED = "Fix the typo in the README's install section"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    from tests import heldout_eval

    base = tmp_path_factory.mktemp("gate26")
    with isolated_env(base):
        yield heldout_eval.build(base, STORE)


def _answers(store, raw, enabled: bool, monkeypatch):
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    monkeypatch.setattr(gate, "ENABLED", enabled)
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    return {k: heldout_eval.answer(result, ids[k]) for k in STORE}, result, ids


def test_a_pass_the_gate_scores_above_its_cut_is_asked_quoting_the_criterion(store, monkeypatch):
    off, _, _ = _answers(store, PLANTED, False, monkeypatch)
    on, result, ids = _answers(store, PLANTED, True, monkeypatch)
    assert off["flag_docs"] == "pass"
    assert on["flag_docs"] == "undecided"
    finding = next(f for f in result.undecided if f.id == ids["flag_docs"])
    assert "calibrated gate" in finding.reason and STORE["flag_docs"][0] in finding.reason
    # never a block or a warn of a rule: only passes move, and only to "undecided"
    assert all(on[k] in (off[k], "undecided") for k in STORE) and "block" not in set(on.values()) - set(off.values())
    assert on["utc"] == off["utc"] == "pass"  # an unrelated criterion stays quiet


def test_a_proposal_about_none_of_the_criteria_is_asked_about_none(store, monkeypatch):
    on, result, _ = _answers(store, UNRELATED, True, monkeypatch)
    assert set(on.values()) == {"pass"} and not result.undecided and not result.violations


def test_switched_off_the_gate_asks_nothing(store, monkeypatch):
    monkeypatch.setattr(gate, "ENABLED", False)
    assert gate.asked([(object(), object())], [], object(), lambda s: None) == []


def test_scores_below_the_relevance_cut_are_none():
    row = dict.fromkeys(W.FEATURES, 0.0)
    s = gate.score(row)
    assert s is None or isinstance(s, float)
    row["top_margin"], row["sentence"] = -5.0, -5.0  # far below every other criterion
    assert gate.score(row) is None


@pytest.fixture(scope="module")
def training_rows():
    return G.collect("batch4", others=3)


def test_the_check_computes_the_signals_it_was_trained_on(training_rows, tmp_path_factory):
    """For a sample of batch 4's (case, criterion) rows, the vector the check computes inside
    `check` (a store of batch 4's criteria, as the rows were collected) equals the row."""
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    criteria, cases = heldout_eval.tuning_set("batch4")
    raw_of = {c[0]: c[2] for c in cases}
    passing = [r for r in training_rows if r["got"] == "pass"]
    sample = random.Random(26).sample(passing, min(40, len(passing)))
    wanted = {(r["case"], r["key"]): r for r in sample}
    seen: dict = {}
    base = tmp_path_factory.mktemp("gate26rows")
    real = gate.features
    with isolated_env(base), pytest.MonkeyPatch.context() as mp:
        mem, ids = heldout_eval.build(base, criteria)
        key_of = {v: k for k, v in ids.items() if v}
        mp.setattr(gate, "ENABLED", True)
        for case in sorted({c for c, _ in wanted}):
            def capture(li, outcome, proposal, meaning, near, case=case):
                row = real(li, outcome, proposal, meaning, near)
                seen[(case, key_of[li.item.id])] = row
                return row
            mp.setattr(gate, "features", capture)
            check(mem, make_proposal(raw_of[case], mem.project.repo_dir), retrieval=False, llm=False)
    assert set(wanted) <= set(seen)
    for pair, row in wanted.items():
        assert [seen[pair][n] for n in W.FEATURES] == [row[n] for n in W.FEATURES], pair
