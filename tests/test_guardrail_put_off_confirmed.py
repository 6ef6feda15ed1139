"""Issue 22 (twenty-fourth session, the review): a confirmed rule's required thing named in
prose that puts it off or sets it aside ("the sign-off is not needed for a hotfix", "collect
the sign-off later", "kill-switch can come later", "regardless of the user opting in")
answered pass: left_out.py read such clauses for guessed rules only. Now a confirmed rule whose
requirement is met only in such a clause answers "applies, undecided" (never a pass; the
proposal may still be fine). The review's proposals, our own words; the real check, real files,
the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.left_out import judge_left_out
from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {
    "so": ("Never merge a release branch without a sign-off", "block"),
    "ks": ("Don't ship a new feature without a kill-switch", "block"),
    "tel": ("The CLI must not send telemetry without the user opting in", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("putoff"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


PUT_OFF = [
    ("so", "Merge the release branch now; the sign-off is not needed for a hotfix"),
    ("so", "Merge release/2.3 and collect the sign-off later"),
    ("ks", "Ship the new checkout feature; kill-switch can come later"),
    ("tel", "Send telemetry on every run, regardless of the user opting in"),
]
KEPT = [
    ("so", "Merge release/2.3 after the sign-off from QA"),
    ("ks", "Ship the new checkout feature behind the checkout_v2 kill-switch"),
]


@pytest.mark.parametrize(("key", "raw"), PUT_OFF)
def test_a_requirement_put_off_is_never_a_pass(store, key, raw):
    assert confirmed_answer(store, key, raw) == "undecided"


@pytest.mark.parametrize(("key", "raw"), KEPT)
def test_a_requirement_met_still_passes(store, key, raw):
    assert confirmed_answer(store, key, raw) == "pass"


def test_regardless_of_sets_the_thing_aside():
    rule = CRITERIA["tel"][0]
    assert judge_left_out(rule, "Send telemetry on every run, regardless of the user opting in")
    assert judge_left_out(rule, "Send telemetry only after the user opting in is recorded") is None
