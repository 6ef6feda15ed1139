"""Issue 22 (twenty-eighth session, fix28b): "… network calls …" is drafted to apply where
'http' or 'https' occurs, so a constant holding a URL (`export const X = 'https://…';`)
was asked about in both modes — it calls nothing. A drafted rule applied only by words that
occur only in a URL a constant holds does not apply; a URL fetched inside a call still asks.
Our own sentence and code; the real MiniLM model."""

from __future__ import annotations

from tests import heldout_eval as E
from tests.conftest import answers_of, new_file_diff

CRITERIA = {"ui": ("Never make network calls from the UI thread", "block")}
CASES = [  # (id, key, proposal, answer)
    ("ui-const", "ui", new_file_diff("app/src/env.ts", [
        "export const PAYMENTS_URL = 'https://pay.example.org/api';"]), "pass"),
    ("ui-setting", "ui", new_file_diff("app/config.py", [
        'STATUS_PAGE_URL = "https://status.example.org"']), "pass"),
    ("ui-call", "ui", new_file_diff("app/src/main/java/com/shop/CartActivity.kt", [
        "override fun onResume() {", "    super.onResume()",
        '    val cart = URL("https://pay.example.org/api/cart").readText()', "}"]), "undecided"),
]


def test_a_url_a_constant_holds_is_no_network_call(tmp_path):
    for confirmed in (False, True):
        mem, ids = E.build(tmp_path / f"url28-{confirmed}", CRITERIA, confirmed=confirmed)
        answers = answers_of((mem, ids), CASES)
        assert answers == {case_id: want for case_id, _, _, want in CASES}, confirmed
