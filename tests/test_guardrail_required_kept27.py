"""Issue 22 (twenty-seventh session, conf27): a rule said "Never/Don't A without B" is
drafted as `require: B`. A proposal that keeps B in words with "without B" — "Have the deploy
job refuse to ship any build without the SBOM scan", "Don't ship build 7 without the SBOM
scan" — had B only under "without", so B counted as missing and the confirmed rule BLOCKED
what enforces it. Such a "without B" under an act that refuses, fails on, blocks or forbids
going without B now asks (never a block, never a pass); the same act undone ("stop refusing
… without B") or "without B" in a clause of its own still blocks. Our own sentence and
proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store

CRITERIA = {"sbom": ("Never ship a build without the SBOM scan", "block")}
KEPT = [
    "Have the deploy job refuse to ship any build without the SBOM scan",
    "Make the pipeline fail on any build shipped without the SBOM scan",
    "Don't ship build 7 without the SBOM scan",
    "Don't ship release 2.4 without the SBOM scan",  # "2.4" ends no clause
]
BROKEN = [
    "Have the deploy job stop refusing to ship builds without the SBOM scan",
    "No time for checks today, ship build 7 without the SBOM scan",
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("kept27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize("raw", KEPT)
def test_without_under_an_enforcing_act_asks_instead_of_blocking(store, raw):
    assert confirmed_answer(store, "sbom", raw) == "undecided"


@pytest.mark.parametrize("raw", BROKEN)
def test_without_undone_or_on_its_own_still_blocks(store, raw):
    assert confirmed_answer(store, "sbom", raw) == "block"
