"""Issue 22 (twenty-seventh session, fix27b): after "a JavaScript time key counts
milliseconds" every unit-less time key in a .ts/.js file was read as ms, also where the API
counts seconds (`new NodeCache({ stdTTL: 3600 * 48 })`, `{ expires: 172800 }`) and where a
comment on the line says seconds — a value two days long read as three minutes and the
violation passed. A unit comment on the line wins; ms only for a timeout, delay or interval,
or a value multiplied by 1000; a key whose unit varies by library stays seconds. Our own
sentences and proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, new_file_diff

CRITERIA = {
    "img": ("Cached thumbnails never live longer than 2 hours", "block"),
    "tok": ("Password reset links never live longer than 1 hour", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("unit27b"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw", "want"), [
    ("img", new_file_diff("web/thumbs.ts", ["export const thumbnails = new NodeCache({ stdTTL: 3600 * 48 });"]), "undecided"),
    ("img", new_file_diff("web/thumbs.js", ["module.exports = { thumbnailTtl: 172800 }; // seconds, for the cache"]), "undecided"),
    ("tok", new_file_diff("web/reset.ts", ["const resetLink = signResetLink(user, { expires: 172800 });"]), "undecided"),
    ("img", new_file_diff("web/thumbs.ts", ["export const thumbnails = new LRUCache({ ttl: 1000 * 60 * 45 });"]), "pass"),
    ("img", new_file_diff("web/thumbs.ts", ["export const THUMBNAIL_TTL = 5400000; // ms, for the cache"]), "pass"),
])
def test_a_javascript_time_key_counts_what_its_api_counts(store, key, raw, want):
    assert confirmed_answer(store, key, raw) == want
