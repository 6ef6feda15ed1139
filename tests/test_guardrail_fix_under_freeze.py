"""Issue 22, twenty-third session: under a freeze on new things ("No new features in the cli/
package during the code freeze", "search/ is in maintenance mode"), prose that only fixes
("Fix the crash in search when the query is empty") applied through the folder's name and
answered "applies, undecided" as if it might be a feature — three look-alikes of batches 17
and 19 (tests.lookalike_buckets, bucket B3). A sentence whose act is a fix and that adds
nothing (no add, new, support, teach, build, …) now keeps such a guess; a fix that adds ("…
by adding a new caching layer") or a feature is asked as before. The cases are our own. Real
files, the real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import freeze, rule_paths
from tests import heldout_eval as E
from tests.conftest import answers_of


def test_a_fix_that_adds_nothing():
    assert freeze.fix_only("Fix the crash in the reports when the date range is empty")
    assert freeze.fix_only("Please repair the broken totals in the invoices module")
    assert not freeze.fix_only("Fix the reports by adding a new caching layer")
    assert not freeze.fix_only("Add a PDF export to the reports")
    assert not freeze.fix_only("Explain the fix for the reports crash")
    # review of the twenty-third session: a feature worded as a fix names what it adds
    assert not freeze.fix_only("Fix the missing CSV export in reports")
    assert not freeze.fix_only("Fix the reports so they also include a per-region breakdown")
    assert not freeze.fix_only("Fix the reports so they also produce a PDF download")
    assert not freeze.fix_only("Fix the reports: support for Excel files")
    assert not freeze.fix_only("Fix the reports page so it shows totals per region")
    assert freeze.fix_only("Fix the reports so they no longer crash on an empty range")


CRITERIA = {"reports": ("No new features in the reports/ package until the rewrite ships", "block")}
CASES = [  # (id, proposal, answer now, answer without the reading)
    ("fix", "Fix the crash in the reports when the date range is empty", "pass", "undecided"),
    ("fix-that-adds", "Fix the reports by adding a new caching layer", "undecided", "undecided"),
    ("feature", "Add a PDF export to the reports", "undecided", "undecided"),
    ("missing", "Fix the missing CSV export in reports", "undecided", "undecided"),
    ("also", "Fix the reports so they also include a per-region breakdown", "undecided",
     "undecided"),
]


def test_a_fix_keeps_a_freeze_on_new_things(tmp_path, monkeypatch):

    mem, ids = E.build(tmp_path / "freeze_fix", CRITERIA)

    def answers() -> dict[str, str]:
        return answers_of((mem, ids), CASES, "reports")

    assert answers() == {case_id: now for case_id, _, now, _ in CASES}
    monkeypatch.setattr(rule_paths, "FIXES_UNDER_FREEZE", False)
    assert answers() == {case_id: before for case_id, _, _, before in CASES}
