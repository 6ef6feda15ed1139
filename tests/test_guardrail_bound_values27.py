"""Issue 22 (twenty-seventh session, fix27): a bound on a time read only a plain number as a
key's value, so `timeout=None` (no limit at all), `TIMEOUT = 3 * 60` and a (connect, read)
pair `timeout=(2, 90)` were no value and the violation passed, guessed and confirmed. They
are values now: no limit is past every upper bound, a product is its result, each member of
a pair is a value. Past the bound the answer is "applies, undecided" (bounds never block: a
key's unit is a guess); within it, a pass. Our own sentence and proposals; real files, git
and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, edit_diff, isolated_env

CRITERIA = {"hook": ("Never set an HTTP request timeout above 20 seconds", "block")}


OLD = "resp = requests.post(webhook_url, json=event, timeout=5)"
PAST = [
    edit_diff("app/hooks.py", [OLD], ["resp = requests.post(webhook_url, json=event, timeout=None)"]),
    edit_diff("app/hooks.py", ["REQUEST_TIMEOUT = 5"], ["REQUEST_TIMEOUT = 3 * 60"]),
    edit_diff("app/hooks.py", [OLD], ["resp = requests.post(webhook_url, json=event, timeout=(2, 90))"]),
]
WITHIN = [
    edit_diff("app/hooks.py", [OLD], ["resp = requests.post(webhook_url, json=event, timeout=(2, 15))"]),
    edit_diff("app/hooks.py", ["REQUEST_TIMEOUT = 5"], ["REQUEST_TIMEOUT = 3 * 5"]),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("values27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize("raw", PAST)
def test_a_value_past_the_bound_asks_once_confirmed(store, raw):
    assert confirmed_answer(store, "hook", raw) == "undecided"


@pytest.mark.parametrize("raw", WITHIN)
def test_a_value_within_the_bound_passes(store, raw):
    assert confirmed_answer(store, "hook", raw) == "pass"


def test_a_guess_asks_past_the_bound_and_passes_within(tmp_path):
    from lorestack.guardrail.check import check
    from tests import heldout_eval
    from tests.test_guardrail_labelled import make_proposal

    with isolated_env(tmp_path):
        mem, ids = heldout_eval.build(tmp_path / "g", CRITERIA, confirmed=False)
        for raw, want in [(r, "undecided") for r in PAST] + [(r, "pass") for r in WITHIN]:
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
            assert heldout_eval.answer(result, ids["hook"]) == want, raw["diff"][-60:]
