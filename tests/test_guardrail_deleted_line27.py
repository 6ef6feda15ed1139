"""Issue 22, twenty-seventh session: a line deleted outright that held what the rule asks for
(lorestack/guardrail/given_up.py `deleted_outright`). given_up.py needs two words of four
letters or more gone, or one swapped out of a line edited in place; a diff that simply deletes
`clamav.scan_file(path)` or `response.headers.update(CSP)` names the rule's thing in one word, often a
name written in mixed case in the rule (`ClamAV`) or an acronym of three letters (`CSP`) that
the four-letter stems never see. Such a deletion is "applies, undecided" (never a block) where
the change is also about something else the rule names (its file's path or the removed code);
what is said in a comment is not code. Our own criteria and diffs; real files and the real
MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import given_up as given_up_module
from lorestack.guardrail.given_up import deleted_outright
from lorestack.memory_layers.models import CriterionSpec
from tests import heldout_eval as E
from tests.conftest import confirmed_answer
from tests.guardrail_tuning_batch20 import _gd, _hunk

SCAN = "Every upload is scanned by ClamAV before anyone can download it"
CSP = "Every HTML page is served with our CSP"


def test_a_name_or_an_acronym_of_the_rule_on_a_deleted_line():
    spec = CriterionSpec()
    line = deleted_outright(SCAN, spec, "    clamav.scan_file(tmp_path)", "", ["uploads/handlers.py"])
    assert line == "clamav.scan_file(tmp_path)"
    assert deleted_outright(CSP, spec, "    response.headers.update(CSP)", "",
                            ["web/pages.py"]) == "response.headers.update(CSP)"
    # the same call deleted from a file the rule says nothing of, with nothing else it names
    assert deleted_outright(SCAN, spec, "    clamav.scan_file(sample)", "    pass",
                            ["tools/bench_scanner.py"]) == ""
    # a comment deleted is no code taken away
    assert deleted_outright(CSP, spec, "    # every page is served with our CSP", "", ["web/pages.py"]) == ""
    # the line is edited in place, not deleted: given_up.py's `_swapped` reads that
    assert deleted_outright(CSP, spec, "    response.headers.update(CSP)",
                            "    response.headers.update(CSP, report_only=False)", ["web/pages.py"]) == ""
    # still there in the new text
    assert deleted_outright(SCAN, spec, "    clamav.scan_file(tmp_path)",
                            "    clamav.scan_file(tmp_path, timeout=30)", ["uploads/handlers.py"]) == ""


CRITERIA = {"scan": (SCAN, "warn"), "csp": (CSP, "warn")}
_UPLOAD_CTX = "def receive(request):\n    tmp_path = save_tmp(request.FILES[\"file\"])"
_PAGE_CTX = "def render_page(request, html):\n    response = HttpResponse(html)"
# (case, criterion, proposal, a violation?)
CASES = [
    ("scan-v1", "scan", _gd(_hunk("uploads/handlers.py", "", removed="    clamav.scan_file(tmp_path)", context=_UPLOAD_CTX, at=12)), True),
    ("csp-v1", "csp", _gd(_hunk("web/pages.py", "", removed="    response.headers.update(CSP)", context=_PAGE_CTX, at=4)), True),
    ("scan-p1", "scan", _gd(_hunk("tools/bench_scanner.py", "    pass", removed="    clamav.scan_file(sample)", context="def time_one(sample):", at=3)), False),
    ("csp-p1", "csp", _gd(_hunk("web/pages.py", "", removed="    # every page is served with our CSP", context=_PAGE_CTX + "\n    response.headers.update(CSP)", at=4)), False),
]


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "deleted_line", CRITERIA)


def test_a_line_deleted_outright_is_not_passed_in_silence(store, monkeypatch):
    for case, key, raw, violation in CASES:
        monkeypatch.setattr(given_up_module, "PURE_REMOVAL", False)
        without = confirmed_answer(store, key, raw)
        monkeypatch.setattr(given_up_module, "PURE_REMOVAL", True)
        got = confirmed_answer(store, key, raw)
        if violation:  # silent without the reading; "applies, undecided" with it, not a block
            assert (without, got) == ("pass", "undecided"), case
        else:  # a look-alike keeps the answer it had (scan-p1 a pass)
            assert got == without, case
            assert case != "scan-p1" or got == "pass"
