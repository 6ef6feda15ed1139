"""Issue 22 (twenty-ninth session, sil29): a rule's clause "X instead of Y" was read whole as
the recommended way, so the forbidden-act gate never compared a proposal with Y, the thing
the rule rules out, and let one that does Y in other words pass. instead_of.py cuts the
clause: X is the way, Y one more act the gate compares. Our own criterion and sentences; the
real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import instead_of
from lorestack.guardrail.meaning import replaced_acts, split_acts
from tests import heldout_eval as E
from tests.conftest import answers_of

RULE = "Publish domain events on the bus instead of calling the other services' endpoints directly"
CRITERIA = {"ev": (RULE, "block")}
CASES = [
    ("ev-v", "ev", "Have the order service call the invoicing service's REST endpoint directly after checkout"),
    ("ev-p", "ev", "Publish an OrderPlaced event on the bus and let invoicing subscribe to it"),
]


def test_the_clause_is_cut_at_instead_of():
    assert replaced_acts(RULE) == ["calling the other services' endpoints directly"]
    rule = "Never edit generated files; change the schema instead of patching the output by hand"
    assert split_acts(rule) == (
        ["edit generated files", "patching the output by hand"], ["change the schema"])


def test_a_proposal_doing_what_is_replaced_asks(tmp_path, monkeypatch):
    store = E.build(tmp_path / "instead29", CRITERIA)
    assert answers_of(store, CASES) == {"ev-v": "undecided", "ev-p": "pass"}
    monkeypatch.setattr(instead_of, "ON", False)
    assert answers_of(store, CASES) == {"ev-v": "pass", "ev-p": "pass"}
