"""Issue 22 (twenty-fourth session, conf24): what "without X" requires, met by X's head when that
head names an act ("without the user opting in", "without a recorded opt-in", "without a DBA
sign-off"): code records the act by that name (`marketing_opt_in`, `opt_in_at`) whatever
qualifies it in the sentence, and a confirmed rule blocked it as missing. A plain noun ("team",
"number") still needs the whole phrase. Beside each, the violation that still blocks. Real
files, real git, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.sentences import read_sentence
from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _diff

CRITERIA = {
    "newsletter": ("Never send marketing emails without the customer opting in", "block"),
    "push": ("Don't send promotional push notifications without a recorded opt-in", "block"),
    "schema": ("Don't merge a schema change without a DBA sign-off", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("head24"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


KEPT = [
    ("newsletter", _diff("mail/campaigns.py", "if user.marketing_opt_in:\n    send_marketing_email(user)")),
    ("push", _diff("notify/promo.py", "for d in Device.objects.filter(promo_opt_in_at__isnull=False):\n"
                                      "    push.send(d.token, PROMO)")),
    ("schema", "Merge the schema change now that the sign-off from the DBA is in the ticket"),
]

STILL_BLOCKED = [
    ("newsletter", _diff("mail/campaigns.py", "for user in User.objects.all():\n    send_marketing_email(user)")),
    ("push", _diff("notify/promo.py", "for d in Device.objects.all():\n    push.send(d.token, PROMO)")),
    ("schema", "Merge the schema change tonight, the DBA is on holiday"),
]


@pytest.mark.parametrize(("key", "raw"), KEPT)
def test_the_act_named_by_its_head_keeps_the_rule(store, key, raw):
    assert _answer(store, key, raw) == "pass"


@pytest.mark.parametrize(("key", "raw"), STILL_BLOCKED)
def test_without_the_act_it_still_blocks(store, key, raw):
    assert _answer(store, key, raw) == "block"


def test_a_plain_noun_head_is_not_enough_alone():
    required = read_sentence("Never remove a CODEOWNERS rule without handing the path to another team").require
    assert required and "team" not in [t.strip() for t in required[0].split("|")]


_answer = confirmed_answer
