"""Issue 22 (twenty-eighth session, fix28): a confirmed draft answers as its guess where the
answer comes from what the reader guessed, not from terms the user read.

- Quieter: a draft that applied only through a word its reading added to the scope (a
  concept's spelling: `verify=False` for "TLS certificate checks", Cassandra for "storage
  system") and found none of what it forbids asked as a guess and passed once confirmed. It
  asks now (never a block), unless what the guess is then held to keeps it.
- Louder: a confirmed draft that asks only because it applied by meaning asked where the guess
  passed (a recommended way taken, the rule only written down). What the guess is held to
  keeps it now.

Our own sentences and proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, new_file_diff

CRITERIA = {
    "tls": ("Never switch off TLS certificate checks on outbound calls", "block"),
    "store": ("Do not bring in another storage system for the metrics service", "block"),
    "logs": ("Never log session cookies; log the session id hash instead", "block"),
    "tmp": ("Tests never write into the fixtures folder; write temporary files under tmp_path",
            "block"),
}
ASKS = [
    ("tls", new_file_diff("svc/pull.py", ["def pull(u, b):",
                                          "    return requests.post(u, data=b, verify=False)"])),
    ("tls", new_file_diff("svc/agent.ts", [
        "export const agent = new https.Agent({ rejectUnauthorized: false });"])),
    ("store", "Introduce Cassandra to hold the metrics rollups"),
    ("store", "Stand up MongoDB for the metrics rollups"),
    ("tmp", new_file_diff("tests/test_export.py", [
        "def test_export():", "    out = Path('tests/fixtures/export.csv')", "    export(out)"])),
]
KEPT = [
    ("tls", new_file_diff("svc/pull.py", ["def pull(u, b):",
                                          "    return requests.post(u, data=b, timeout=5)"])),
    ("store", "Fix the typo in the metrics README"),
    ("tls", "Document in SECURITY.md that outbound TLS checks are never switched off"),
    ("tls", "Explain in the security guide why outbound certificate checks always stay on"),
    ("logs", "Write the hash of the session id to the access log"),
    ("tmp", new_file_diff("tests/test_export.py", [
        "def test_export(tmp_path):", "    out = tmp_path / 'export.csv'", "    export(out)",
        "    assert out.exists()"])),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("asguess28"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw"), ASKS)
def test_confirmed_draft_through_added_words_asks_as_the_guess(store, key, raw):
    assert confirmed_answer(store, key, raw) == "undecided"


@pytest.mark.parametrize(("key", "raw"), KEPT)
def test_confirmed_draft_keeps_what_the_guess_keeps(store, key, raw):
    assert confirmed_answer(store, key, raw) == "pass"
