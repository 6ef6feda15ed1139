"""Issue 22 (twenty-seventh session, fix27): a time key without its unit was read as seconds
everywhere, so under "Never set an HTTP request timeout above 20 seconds" a compliant
`axios.create({ timeout: 15000 })` (milliseconds, as JavaScript's clients and test runners
count) asked "applies, undecided", guessed and confirmed. In a change to a JavaScript or
TypeScript file a unit-less time key counts milliseconds; in Python it stays seconds. Our own
sentence and proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, edit_diff

CRITERIA = {"req": ("Never set an HTTP request timeout above 20 seconds", "block")}
OLD = "const http = axios.create({ baseURL });"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("ms27"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("raw", "want"), [
    (edit_diff("web/client.ts", [OLD], ["const http = axios.create({ baseURL, timeout: 15000 });"]), "pass"),
    (edit_diff("web/client.js", [OLD], ["const http = axios.create({ baseURL, timeout: 15_000 });"]), "pass"),
    (edit_diff("web/client.ts", [OLD], ["const http = axios.create({ baseURL, timeout: 90000 });"]), "undecided"),
    (edit_diff("app/client.py", ["r = requests.get(url, timeout=5)"], ["r = requests.get(url, timeout=90)"]), "undecided"),
])
def test_a_javascript_time_key_counts_milliseconds(store, raw, want):
    assert confirmed_answer(store, "req", raw) == want
