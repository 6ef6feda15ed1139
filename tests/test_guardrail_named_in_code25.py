"""Issue 22 (twenty-fifth session, conf25): what "without X" requires, met where code records
the act under its own name. "The CLI must not send telemetry without the user opting in"
requires 'user opting'; a confirmed rule blocked `if config.telemetry_opt_in:`, `filter(
sms_opt_in_at__isnull=False)`, `if (consent.optingIn)` — the requirement's act word met only
INSIDE an identifier on a code line, never as a word. A word met in prose or a comment is no
evidence the act happened (the twenty-fourth session's review: "opting in is not required",
"# opt-in ignored for launch"), nor one the code sets false or reads negated. And a name is no
proof either (this session's review: `telemetry_opt_in = True` then a send, `skip_opt_in`,
`cli_opts`, `… or True`): where code names the act, the answer is "applies, undecided" — the
confirmed rule no longer blocks the compliant check, and no violation that holds the name passes. Our own
proposals; real files, real git, the real MiniLM model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _diff
from tests.test_guardrail_without_head24 import CRITERIA  # the same five sentences


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("named25"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


RECORDED_IN_CODE = [  # code that checks the act under its own name: complies; a person judges
    ("telemetry", _diff("cli/usage.py", "def report(cmd, settings):\n    if settings.usage_opt_in:\n"
                                        "        send_telemetry(cmd)")),
    ("sms", _diff("notify/promo.py", "for c in Customer.objects.filter(marketing_opt_in_at__isnull=False):\n"
                                     "    send_sms(c.phone, PROMO)")),
    ("cookies", _diff("web/analytics.js", "if (prefs.visitorOptingIn) {\n  document.cookie = '_track=' + id;\n}")),
    ("newsletter", _diff("mail/campaigns.py", "for user in User.objects.filter(email_opting_in=True):\n"
                                              "    send_marketing_email(user)")),
]

NOT_RECORDED = [  # the act word as a word, in a comment, set false or negated: never a pass
    ("telemetry", _diff("cli/usage.py", "# usage opt-in check removed\nsend_telemetry(cmd)")),
    ("telemetry", _diff("cli/usage.py", "settings.usage_opt_in = False\nsend_telemetry(cmd)")),
    ("sms", _diff("notify/promo.py", "for c in Customer.objects.filter(marketing_opt_in_at__isnull=True):\n"
                                     "    send_sms(c.phone, PROMO)")),
    ("cookies", _diff("web/analytics.js", "const optingIn = false;\ndocument.cookie = '_track=' + id;")),
    ("newsletter", _diff("mail/campaigns.py", "for user in User.objects.all():\n    send_marketing_email(user)")),
]


@pytest.mark.parametrize(("key", "raw"), RECORDED_IN_CODE)
def test_the_act_recorded_under_its_own_name_in_code_asks_instead_of_blocking(store, key, raw):
    # `visitorOptingIn` holds the whole phrase 'visitor opting': a name all the same, asked since
    # the twenty-sixth session (named_in_code.phrase_in_a_name; it passed before)
    assert confirmed_answer(store, key, raw) == "undecided"


NAMED_AND_BROKEN = [  # the name occurs, and the rule is broken anyway (this session's review)
    ("telemetry", _diff("cli/usage.py", "config.telemetry_opt_in = True\nsend_telemetry(collect())")),
    ("telemetry", _diff("cli/usage.py", "if config.telemetry_opt_in or True:\n    send_telemetry(cmd)")),
    ("telemetry", _diff("cli/usage.py", "skip_opt_in = True\nsend_telemetry(cmd)")),
    ("telemetry", _diff("cli/usage.py", "cli_opts = parse_args(argv)\nsend_telemetry(collect(cli_opts))")),
    ("sms", _diff("notify/promo.py", "Customer.objects.update(sms_opt_in=True)\n"
                                     "for c in Customer.objects.all():\n    send_sms(c.phone, PROMO)")),
    ("cookies", _diff("web/analytics.js", "if (consent.optingIn || true) {\n  document.cookie = '_track=' + id;\n}")),
]


@pytest.mark.parametrize(("key", "raw"), NAMED_AND_BROKEN)
def test_a_name_that_holds_the_act_never_makes_a_violation_pass(store, key, raw):
    assert confirmed_answer(store, key, raw) in ("block", "undecided")


@pytest.mark.parametrize(("key", "raw"), NOT_RECORDED)
def test_the_act_word_outside_a_code_name_does_not_meet_it(store, key, raw):
    assert confirmed_answer(store, key, raw) in ("block", "undecided")
