"""Issue 22, twenty-eighth session: prose that argues for a shortcut (shortcut.py) asks at
whatever similarity it applied by meaning, not only at the forbidden-act gate's 0.45; and
"until" after a verb in the past in its own clause tells of a past state, not a put-off.
Our own criteria and sentences; real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import shortcut
from tests import heldout_eval as E
from tests.conftest import confirmed_answer

COOKIE = ("Session cookies are marked Secure and HttpOnly; never set them readable from "
          "JavaScript")
CRITERIA = {"cookie": (COOKIE, "warn")}
# applied by meaning below 0.45, passed by the gate (far from "set them readable from
# JavaScript"), and argues for a shortcut ("don't have to")
VIOLATION = ("Have the React app pick the login token out of the browser's cookie jar so we "
             "don't have to add an endpoint")
# a past state: the cookie was readable until a release, and is HttpOnly since
LOOKALIKE = ("The admin panel kept its cookie readable by scripts until the 2.3 release; since "
             "then it is HttpOnly")


def test_until_after_a_past_verb_is_no_put_off():
    assert shortcut.shortcut("Use my GitHub token in the release workflow until the bot "
                             "account is set up") == "until"
    assert shortcut.shortcut("Keep the old endpoint until the mobile app ships; then drop it") == "until"
    assert shortcut.shortcut("The release job used Bob's token until March; it signs in as the "
                             "bot now") == ""
    assert shortcut.shortcut("Backups were plain until 2024. Leave them as they are for now") == "for now"


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "shortcut28", CRITERIA)


def test_a_shortcut_asks_wherever_it_applied_by_meaning(store, monkeypatch):
    monkeypatch.setattr(shortcut, "SHORTCUT_BAR", shortcut.GATE_BAR)  # the gate's bar, as before
    assert confirmed_answer(store, "cookie", VIOLATION) == "pass"
    monkeypatch.setattr(shortcut, "SHORTCUT_BAR", 0.0)
    assert confirmed_answer(store, "cookie", VIOLATION) == "undecided"  # never a block


def test_praise_of_the_rules_own_way_keeps_the_gates_bar():
    rule = "Keep signing keys in the HSM, never in files on disk"
    assert shortcut.own_names(rule) == {"hsm"}
    # "simpler" said of the HSM the rule chooses: a reason for keeping the rule
    assert shortcut.shortcut_bar(rule, "Move the release signing key into the HSM, it's "
                                 "simpler to audit there") == shortcut.GATE_BAR
    # a complaint about the rule's way, or praise of something else, stays open below it
    assert shortcut.shortcut_bar(rule, "Sign the build with the key file on my laptop, the "
                                 "HSM is slow today") == shortcut.SHORTCUT_BAR
    assert shortcut.shortcut_bar(rule, "Copy the signing key to the build box, it's simpler") == (
        shortcut.SHORTCUT_BAR)


def test_a_past_state_until_passes(store, monkeypatch):
    monkeypatch.setattr(shortcut, "PAST_UNTIL", False)
    assert confirmed_answer(store, "cookie", LOOKALIKE) == "undecided"
    monkeypatch.setattr(shortcut, "PAST_UNTIL", True)
    assert confirmed_answer(store, "cookie", LOOKALIKE) == "pass"
