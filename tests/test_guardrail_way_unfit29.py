"""Issue 22 (twenty-ninth session, sil29): prose that names the rule's recommended way only to
call it absent or unfit ("…, the task queue is too slow for this", "…, the icon set isn't
ready yet") argues for a shortcut (alternative_denied.py, read by shortcut.py): it stays
"applies, undecided" where the forbidden-act gate or the recommended way read by word or by
meaning let it pass. Prose that takes the way stays a pass. Our own criteria and sentences;
the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import alternative_denied
from tests import heldout_eval as E
from tests.conftest import answers_of

CRITERIA = {
    "queue": ("Jobs must not run inside web requests; hand them to the task queue", "block"),
    "icons": ("Don't paste SVG markup into components; use the shared icon set", "block"),
    "flags": ("No long-lived feature branches; put unfinished work behind a feature flag", "block"),
}
VIOLATIONS = [
    ("queue-v", "queue", "Generate the PDF report right in the request handler, the task queue is too slow for this"),
    ("icons-v", "icons", "Inline the new trash can SVG in the toolbar component, the icon set isn't ready yet"),
    ("flags-v", "flags", "Keep the checkout redesign on its own branch for the quarter, the flag system is too fiddly"),
]
LOOKALIKES = [
    ("queue-p", "queue", "Move the PDF report generation into a task and email the link when it is ready"),
    ("icons-p", "icons", "Add the trash can to the shared icon set and use it in the toolbar"),
    ("flags-p", "flags", "Put the checkout redesign behind the new_checkout flag and merge it to main today"),
]


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "unfit29", CRITERIA)


def test_the_way_called_unfit_asks(store):
    assert answers_of(store, VIOLATIONS) == {c: "undecided" for c, _, _ in VIOLATIONS}


def test_the_way_taken_passes(store):
    assert answers_of(store, LOOKALIKES) == {c: "pass" for c, _, _ in LOOKALIKES}


def test_switched_off_the_violations_passed(store, monkeypatch):
    monkeypatch.setattr(alternative_denied, "ON", False)
    assert answers_of(store, VIOLATIONS) == {c: "pass" for c, _, _ in VIOLATIONS}
