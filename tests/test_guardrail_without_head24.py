"""Issue 22 (twenty-fourth session): what "without X" requires is the whole phrase X. conf24
let X's head word alone meet it when the head names an act ("without the user opting in" met
by 'opting', "without a recorded opt-in" by 'opt-in'), to keep code that records the act
(`marketing_opt_in`) from a confirmed block; the session's review then found violations that
only mention the head answered pass, guessed and confirmed ("opting in is not required",
"opt-in or not", a comment "# opt-in ignored for launch"). The head reading was removed; these
are the review's proposals (our own words). Real files, real git, the real MiniLM model;
criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.sentences import read_sentence
from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _diff

CRITERIA = {
    "telemetry": ("The CLI must not send telemetry without the user opting in", "block"),
    "cookies": ("No tracking cookies are set without the visitor opting in", "block"),
    "sms": ("Don't send promotional text messages without a recorded opt-in", "block"),
    "newsletter": ("Never send marketing emails without the customer opting in", "block"),
    "schema": ("Don't merge a schema change without a DBA sign-off", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("head24"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


MENTION_ONLY = [  # the head word occurs, the act does not happen: never a pass
    ("telemetry", "Send telemetry on startup; opting in is not required"),
    ("telemetry", "Send usage telemetry; opting in will be added in v2"),
    ("telemetry", _diff("cli/telemetry.py", "# opting in no longer checked\nsend_telemetry(collect())")),
    ("cookies", "Set the tracking cookie on the first page view, before opting in is even asked"),
    ("sms", "Send the promotional text message to every customer, opt-in or not"),
    ("sms", _diff("notify/sms.py", "for c in Customer.objects.all():  # opt-in ignored for launch\n"
                                   "    send_sms(c.phone, PROMO)")),
]

STILL_BLOCKED = [
    ("newsletter", _diff("mail/campaigns.py", "for user in User.objects.all():\n    send_marketing_email(user)")),
    ("schema", "Merge the schema change tonight, the DBA is on holiday"),
]


@pytest.mark.parametrize(("key", "raw"), MENTION_ONLY)
def test_a_mention_of_the_head_word_does_not_meet_the_requirement(store, key, raw):
    assert confirmed_answer(store, key, raw) in ("block", "undecided")


@pytest.mark.parametrize(("key", "raw"), STILL_BLOCKED)
def test_without_the_act_it_blocks(store, key, raw):
    assert confirmed_answer(store, key, raw) == "block"


def test_the_whole_phrase_is_required_not_its_head():
    for sentence, head in (("Don't send promotional text messages without a recorded opt-in", "opt-in"),
                           ("Never send marketing emails without the customer opting in", "opting")):
        required = [t.strip() for entry in read_sentence(sentence).require for t in entry.split("|")]
        assert required and head not in required, (sentence, required)
