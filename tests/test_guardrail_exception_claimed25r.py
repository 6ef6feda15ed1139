"""Issue 22 (twenty-fifth session, fix25): the review of act_scope.exception_named. A confirmed
violation was made "applies, undecided" wherever the exception's word was merely MENTIONED: the
PR opened after the push to main, "it's not a P0", "80% migration" read as port 80, an allowed
443 rule in the same file as a port-22 rule open to the world. The exception counts only where
it is claimed for the act: the word as written (case of a name in capitals, a whole token), in
the same clause (prose) or block (a change) as the forbidden thing, not negated. The reviewer's
sentences and proposals (/tmp/s25/review c2, c4); real files, git and model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _diff

CRITERIA = {
    "main": ("Never push to main except through a PR", "block"),
    "fri": ("Never deploy on Fridays except for P0 incidents", "block"),
    "sg": ("Security groups never allow ingress from 0.0.0.0/0 except on ports 80 and 443 of the "
           "public load balancer", "block"),
}

_RULE = 'resource "aws_security_group_rule" "{name}" {{\n  type = "ingress"\n  from_port = {port}\n' \
        '  to_port = {port}\n  cidr_blocks = ["0.0.0.0/0"]\n{extra}}}\n'


def _rule(name: str, port: int, extra: str = "") -> str:
    return _RULE.format(name=name, port=port, extra=extra)


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("exc26"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


MENTIONED_NOT_CLAIMED = [  # violations: they block
    ("main", "Push the hotfix straight to main and open a PR afterwards"),
    ("fri", "Deploy the new pricing page on Friday afternoon; it's not a P0 but marketing wants it"),
    ("sg", _diff("infra/sg.tf", _rule("db", 5432, '  description = "temp, remove after 80% migration"\n'))),
    ("sg", _diff("infra/sg.tf", _rule("https", 443) + "\n" + _rule("ssh", 22))),
]

CLAIMED = [  # the exception claimed for the act: a person judges it
    ("sg", _diff("infra/sg.tf", _rule("https", 443))),
    ("fri", "Deploy the fix for the P0 checkout outage on Friday"),
]


@pytest.mark.parametrize(("key", "raw"), MENTIONED_NOT_CLAIMED)
def test_an_exception_mentioned_not_claimed_blocks(store, key, raw):
    assert confirmed_answer(store, key, raw) == "block"


@pytest.mark.parametrize(("key", "raw"), CLAIMED)
def test_an_exception_claimed_never_blocks(store, key, raw):
    assert confirmed_answer(store, key, raw) in ("undecided", "pass")
