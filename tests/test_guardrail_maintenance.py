"""Issue 22 (nineteenth session): a freeze on new things (maintenance mode, a feature freeze)
does not block a fix to existing code. A confirmed "reports/ is in maintenance mode" blocked
every edit there, a one-line bug fix as much as a new feature; an edit of a file that is there
and defines nothing new (no function, class, route, table) is now a fix, while a new file, or
an edit that defines something new, is still a feature.

Real files, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.proposals import Proposal
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.guardrail_sentence_cases import _edit
from tests.guardrail_tuning_batch16 import _write
from tests.test_guardrail_labelled import make_proposal

CRITERIA = {
    "reports": ("The reports/ module is in maintenance mode", "block"),
    "mobile": ("No new features in mobile/ during the code freeze", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("maintenance")
    with isolated_env(base):
        mem, ids = E.build(base, CRITERIA, confirmed=True)
        repo = mem.project.repo_dir
        for name in ("reports/monthly.py", "mobile/cart.ts"):
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            (repo / name).write_text("x = 1\n")
        yield mem, ids


def _fix(path: str, old: str, new: str) -> dict:
    edit = {"file_path": "{repo}/" + path, "old_string": old, "new_string": new}
    return {"payload": {"tool_name": "Edit", "tool_input": edit}}


def _diff_of(path: str, hunk: str) -> Proposal:
    # as from_git_diff makes it: a path the diff does not create is there already
    text = f"--- a/{path}\n+++ b/{path}\n@@ -1,3 +1,3 @@\n{hunk}\n"
    return Proposal(source="diff", text=text, paths=[path], label="diff", existing=[path])


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        ("reports", _edit("reports/monthly.py", "    rows = [r for r in rows if r.month == month]"),
         "pass"),
        ("mobile", _edit("mobile/cart.ts", "  const total = items.reduce((s, i) => s + i.price * i.qty, 0);"),
         "pass"),
        ("reports", _edit("reports/monthly.py", "def churn_report(month):\n    return churn(month)"),
         "block"),
        ("mobile", _edit("mobile/cart.ts", "export function applyCoupon(cart, code) {\n  return cart;\n}"),
         "block"),
        ("reports", _write("reports/cohorts.py", "x = cohorts()\n"), "block"),
        # review (nineteenth session): a fix whose edit repeats the function it is in
        ("reports", _fix("reports/monthly.py", "def monthly(rows, month):\n    rows = rows",
                         "def monthly(rows, month):\n    rows = [r for r in rows if r.month == month]"),
         "pass"),
        ("reports", _diff_of("reports/monthly.py", " def monthly(rows, month):\n-    rows = rows\n"
                             "+    rows = [r for r in rows if r.month == month]\n     return rows"),
         "pass"),
        # a feature in a language whose definitions start otherwise
        ("mobile", _edit("mobile/cart.ts", "  applyCoupon(code: string): Cart {\n    return this;\n  }"),
         "block"),
        ("mobile", _edit("mobile/cart.ts", "pub fn apply_coupon(cart: &Cart) -> Cart {\n    cart.clone()\n}"),
         "block"),
        ("mobile", _edit("mobile/cart.ts", "  private applyCoupon(code) {\n    return 1;\n  }"),
         "block"),
        # a registration is a feature; a fix of one that is there, or of a signature, is not
        ("reports", _edit("reports/monthly.py", 'parser.add_argument("--csv", action="store_true")'),
         "block"),
        ("reports", _fix("reports/monthly.py", 'parser.add_argument("--csv", help="CVS")',
                         'parser.add_argument("--csv", help="write CSV")'), "pass"),
        ("reports", _fix("reports/monthly.py", "def monthly(rows, month):",
                         "def monthly(rows, month=None):"), "pass"),
    ],
)
def test_a_fix_is_no_new_feature(store, key, raw, expected):
    mem, ids = store
    proposal = raw if isinstance(raw, Proposal) else make_proposal(raw, mem.project.repo_dir)
    result = check(mem, proposal, retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected
