"""Issue 22, twenty-fourth session: a bound a criterion sets on a quantity ("within 12 hours",
"above 20 workers", "over 50 MB", "at least ten minutes", "purged after 14 days") and a proposal that states a
quantity on the far side of it (lorestack/guardrail/bounds.py): at least "applies,
undecided", never a block, while a quantity on the near side opens nothing. Our own criteria
and proposals; real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import bounds as bounds_module
from lorestack.guardrail.bounds import beyond, bounds
from tests import heldout_eval as E
from tests.conftest import confirmed_answer
from tests.guardrail_sentence_cases import _diff


def test_the_bounds_a_sentence_sets():
    got = {(b.said, b.kind, b.value, b.above) for b in bounds(
        "Maintenance windows last at most two hours and need a notice at least 48 hours ahead")}
    assert got == {("at most two hours", "time", 7200.0, True),
                   ("at least 48 hours", "time", 172800.0, False)}
    assert [(b.kind, b.value) for b in bounds("Uploads over 25 MB are rejected")] == [("size", 25e6)]
    assert [(b.kind, b.above) for b in bounds("A pool above 20 workers needs a review")] == [("worker", True)]
    assert bounds("Refunds above 500 EUR need a second approver") == []  # a currency code
    assert bounds("Reviews start after 2 days") == []  # "after": which side is not said
    # unless it is how long a thing is kept: at most that long, or "only after" at least
    assert [(b.value, b.above) for b in bounds("Build caches are purged after 14 days")] == [(14 * 86400, True)]
    assert [(b.value, b.above) for b in bounds("Guest carts are deleted 7 days after the last visit")] == [(7 * 86400, True)]
    assert [(b.value, b.above) for b in bounds("A flag is removed only after two releases")] == []  # no time
    assert [(b.value, b.above) for b in bounds("A field is dropped only after 60 days of notice")] == [(60 * 86400, False)]
    assert bounds("Keep the retry budget small") == []


def test_a_quantity_beyond_the_bound_and_one_within_it():
    rule = "Feature branches are merged within 14 days; nothing lives longer"
    assert beyond(rule, "Keep the search-rewrite branch open for another 3 weeks", applied=True)[0] == "3 weeks"
    assert beyond(rule, "Keep the search-rewrite branch open for another 5 days", applied=True) is None
    assert beyond(rule, "Keep the search-rewrite branch around indefinitely", applied=True)[0] == "indefinitely"
    floor = "Canary stages run for at least ten minutes before promotion"
    assert beyond(floor, "    pause: 90s", applied=True)[0] == "90s"
    assert beyond(floor, "    pause: 15m", applied=True) is None
    caches = "Build caches are purged after 14 days; nothing keeps them longer"
    assert beyond(caches, "  cache_ttl_days = 90", applied=True)[0] == "cache_ttl_days = 90"
    assert beyond(caches, "  cache_ttl_days = 7", applied=True) is None
    assert beyond(caches, "Keep the build cache forever, restores are slow", applied=False)[0] == "forever"
    workers = "A pool above 20 workers needs a capacity review"
    assert beyond(workers, "  max_workers = 64", applied=False)[0] == "max_workers = 64"
    assert beyond(workers, "  max_workers = 8", applied=False) is None
    # a quantity of the same kind on a line that shares nothing with the rule is not its
    # business unless the rule applied already: every "48 hours" is not about every time limit
    assert beyond(rule, "CACHE_TTL = '30d'", applied=False) is None
    assert beyond(rule, "CACHE_TTL = '30d'", applied=True)[0] == "30d"
    assert beyond("Uploads over 25 MB are rejected", "alertname=DiskFull4GB", applied=True) is None


CRITERIA = {
    "pool_size": ("A worker pool above 20 workers needs a capacity review first", "warn"),
    "upload_cap": ("Attachments over 50 MB go to object storage, never into the database", "warn"),
    "canary": ("Canary stages run for at least ten minutes before promotion", "warn"),
}
# (case, criterion, proposal, a violation?)
CASES = [
    ("pool-p1", "pool_size", _diff("deploy/worker.toml", "max_workers = 12"), False),
    ("upload-v1", "upload_cap", "Save the 300 MB scans our customers upload as a bytea column", True),
    ("canary-v1", "canary", _diff("deploy/rollout.yaml", "stage_pause: 90s"), True),
    ("canary-p1", "canary", _diff("deploy/rollout.yaml", "stage_pause: 15m"), False),
]


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "bounds", CRITERIA)


def test_a_proposal_past_the_bound_is_not_passed_in_silence(store, monkeypatch):
    for case, key, raw, violation in CASES:
        monkeypatch.setattr(bounds_module, "ON", False)
        without = confirmed_answer(store, key, raw)
        monkeypatch.setattr(bounds_module, "ON", True)
        got = confirmed_answer(store, key, raw)
        if violation:  # silent without the reading; "applies, undecided" with it, not a block
            assert (without, got) == ("pass", "undecided"), case
        else:  # a quantity within the bound, or a recommended way taken: as without it
            assert got == without, case
