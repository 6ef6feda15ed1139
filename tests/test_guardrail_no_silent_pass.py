"""Issue 22 (sixteenth session, review): three passes added this session let violations
through in silence — a removal verb read too widely (taken_away.py), a wanted spelling found
as a substring whatever was said around it (spellings.py), and emphasis read as a symbol
term (sentence_words.py). Each case answered "applies, undecided" before those commits,
then "pass". Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from tests import heldout_eval as E
from tests.guardrail_sentence_cases import _diff
from tests.test_guardrail_labelled import make_proposal

CRITERIA = {
    "worker": ("Never stop the payment worker during business hours", "warn"),
    "cron": ("Never move the billing cron job to another region", "warn"),
    "friday": ("Do not migrate the production database on a Friday", "warn"),
    "floats": ("Never use floats for money", "warn"),
    "tokens": ("Auth tokens are never kept in localStorage; the server sets a cookie", "warn"),
    "storage": (
        "Do not introduce a new storage component this quarter; object storage plus local "
        "cache covers the load", "warn",
    ),
    "index": ("Indexes on large tables are created with CREATE INDEX CONCURRENTLY", "warn"),
    "hmac": ("Signatures are compared with hmac.compare_digest", "warn"),
    "dag": ("Airflow DAGs are declared with catchup=False", "warn"),
    "creds": ("Never hardcode credentials in config files (!!)", "warn"),
    "kotlin": ("No !! in Kotlin code", "warn"),
    "digest": ("Signatures are compared with hmac.compare_digest, never with ==", "warn"),
}

CASES = [
    # taken_away.py: a prohibition of stopping, moving, migrating is no way out
    ("worker", "Stop the payment worker during business hours", "undecided"),
    ("cron", "Move the billing cron job to eu-west-2", "undecided"),
    ("friday", "Migrate the production database this afternoon (it is Friday)", "undecided"),
    ("worker", _diff("ops/deploy.py", "# stop the payment worker during business hours for "
                     "the deploy\nstop_payment_worker()"), "undecided"),
    # what is removed ends at "because", "in favour of", …; what comes after is said
    ("floats", "Stop storing prices as integer cents in favour of floats", "undecided"),
    ("floats", "Remove the Decimal conversion because floats are precise enough for prices",
     "undecided"),
    ("tokens", "Stop keeping the auth token in the cookie because localStorage survives "
     "reloads", "undecided"),
    # what replaces it is added, and judged
    ("storage", "Replace the Redis storage component with Cassandra for the event store",
     "undecided"),
    ("floats", "Replace the float price field with a double", "undecided"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    return E.build(tmp_path_factory.mktemp("nosilent"), CRITERIA)


@pytest.mark.parametrize(("key", "raw", "expected"), CASES)
def test_no_violation_passes_in_silence(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected


def test_a_replacement_keeps_the_rule_only_with_the_way_it_names():
    from lorestack.guardrail.taken_away import only_taken_away

    rule = CRITERIA["tokens"][0]
    assert only_taken_away(rule, "Replace the localStorage token with the server's cookie")
    assert only_taken_away(rule, "Replace the localStorage token with sessionStorage") is None
    assert only_taken_away(CRITERIA["floats"][0], "Replace the float price with a double") is None
