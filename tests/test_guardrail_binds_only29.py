"""Issue 22 (twenty-ninth session, sil29; the review's key-p3): a change that only binds names
to literals (`export const STATUS_URL = 'https://…'`) calls nothing; a guessed rule about calls
or requests that applied by a network word (`https`) no longer asks about it
(binds_only.py). The same address fetched still asks. Our own criterion and code; the real
MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import binds_only
from tests import heldout_eval as E
from tests.conftest import answers_of, new_file_diff

CRITERIA = {"net": ("No network requests while a frame is being drawn", "block")}
CASES = [
    ("net-const", "net", new_file_diff("src/net/endpoints.ts", [
        "export const STATUS_URL = 'https://status.shop.io/api';", "export const RETRIES = 3;"])),
    ("net-fetch", "net", new_file_diff("src/ui/StatusBadge.tsx", [
        "export function StatusBadge() {",
        "  const status = useSyncFetch('https://status.shop.io/api');",
        "  return <span>{status}</span>;", "}"])),
]


def test_a_constant_holding_an_address_calls_nothing(tmp_path, monkeypatch):
    store = E.build(tmp_path / "binds29", CRITERIA)
    assert answers_of(store, CASES) == {"net-const": "pass", "net-fetch": "undecided"}
    monkeypatch.setattr(binds_only, "ON", False)
    assert answers_of(store, CASES) == {"net-const": "undecided", "net-fetch": "undecided"}


def test_only_bindings_of_literals_under_a_rule_about_calls():
    rule = "Don't do blocking calls in request handlers"
    assert binds_only.binds_only(rule, "TIMEOUT_S = 10\nBASE = 'https://x.io'", True)
    assert not binds_only.binds_only(rule, "BASE = os.environ['BASE']", True)
    assert not binds_only.binds_only("Never commit URLs of staging hosts", "BASE = 'https://x'", True)
