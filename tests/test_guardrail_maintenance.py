"""Issue 22 (nineteenth session): a freeze on new things (maintenance mode, a feature freeze)
does not block a fix to existing code. A confirmed "reports/ is in maintenance mode" blocked
every edit there, a one-line bug fix as much as a new feature; an edit of a file that is there
and defines nothing new (no function, class, route, table) is now a fix, while a new file, or
an edit that defines something new, is still a feature.

Real files, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
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
    ],
)
def test_a_fix_is_no_new_feature(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected
