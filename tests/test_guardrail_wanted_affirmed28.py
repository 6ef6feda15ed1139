"""Issue 22 (twenty-eighth session, fix28b): a guess close to a "X needs Y" rule by meaning
was kept as having what the rule wants when the proposal named the wanted thing only as
what it removes ("Remove the rate limiter from …") — a mention the guess's own reading had
just marked as negated. Such a mention is not the wanted thing: the guess asks. Our own
sentences and proposals; the real MiniLM model."""

from __future__ import annotations

from tests import heldout_eval as E
from tests.conftest import answers_of

CRITERIA = {
    "rl": ("All admin endpoints need rate limiting", "block"),
    "dr": ("Migrations on tables over a million rows need a dry run first", "block"),
}
CASES = [  # (id, key, proposal, answer)
    ("rl-remove", "rl",
     "Remove the rate limiter from the /admin/export endpoint so the nightly script runs faster",
     "undecided"),
    ("rl-drop", "rl", "Drop the rate limiting on /admin/users, our support team keeps hitting it",
     "undecided"),
    ("rl-add", "rl", "Add rate limiting to the /admin/export endpoint, 10 requests a minute", "pass"),
    ("dr-skip", "dr",
     "Run the events table migration tonight and skip the dry run, the window is short",
     "undecided"),
]


def test_a_wanted_thing_named_only_as_taken_away_is_not_had(tmp_path):
    mem, ids = E.build(tmp_path / "wanted28", CRITERIA)
    answers = answers_of((mem, ids), CASES)
    assert answers == {case_id: want for case_id, _, _, want in CASES}
