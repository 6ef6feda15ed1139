"""Issue 22, twenty-second session: prose that trades a rule for convenience ("…, that is
good enough", "… until the bot account is set up", "it is faster") applied by meaning and
then passed the forbidden-act gate in silence — the largest bucket of silent passes (batches
5-14: assert_validation-v2, money_decimal-v2, bot_credentials_ci-v1, iso_dates-v2,
defused_xml-v2, …). Such prose now stays "applies, undecided" (lorestack/guardrail/shortcut.py).
The cases below are our own. Real files, the real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import shortcut as S
from tests import heldout_eval as E
from tests.conftest import answers_of


def test_the_phrases_that_argue_for_a_shortcut():
    assert S.shortcut("Hold the total in a double for now") == "for now"
    assert S.shortcut("Call Stripe from the job until the billing API has a batch endpoint") == "until"
    assert S.shortcut("Parse it with lxml, it is faster") == "faster"
    assert S.shortcut("round it at the end, that is good enough") == "good enough"
    assert S.shortcut("so we don't have to pass the clock around") == "don't have to"
    # a purpose or a plan without a shortcut argues for nothing
    assert S.shortcut("Route the job through the billing service so retries live in one place") == ""
    assert S.shortcut("Hash the passwords with argon2 before they are stored") == ""


CRITERIA = {
    "money": ("Money amounts are never held in floating-point variables", "warn"),
    "billing": ("Background jobs never call the payment provider directly; they go through the "
                "billing service", "block"),
}
CASES = [  # (id, key, proposal, answer with the shortcut reading, answer without it)
    ("money-v", "money", "Keep the money amounts in plain doubles, rounding at the end is good enough",
     "undecided", "pass"),
    ("billing-v", "billing", "Let the nightly renewal job charge cards with the Stripe SDK itself "
     "until the batch endpoint exists", "undecided", "pass"),
    ("billing-p", "billing", "Have the nightly renewal job ask the billing service to charge "
     "the cards so retries are handled in one place", "pass", "pass"),
]


def test_a_shortcut_keeps_the_rule_open_where_the_gate_let_it_pass(tmp_path, monkeypatch):

    mem, ids = E.build(tmp_path / "shortcut", CRITERIA)

    def answers() -> dict[str, str]:
        return answers_of((mem, ids), CASES)

    assert answers() == {case_id: on for case_id, _, _, on, _ in CASES}
    monkeypatch.setattr(S, "ENABLED", False)
    assert answers() == {case_id: off for case_id, _, _, _, off in CASES}
