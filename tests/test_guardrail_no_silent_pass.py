"""Issue 22 (sixteenth session, review): three passes added this session let violations
through in silence — a removal verb read too widely (taken_away.py), a wanted spelling found
as a substring whatever was said around it (spellings.py), and emphasis read as a symbol
term (sentence_words.py). Each case answered "applies, undecided" before those commits,
then "pass". Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from tests import heldout_eval as E
from tests.conftest import isolated_env
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
    # spellings.py: a wanted spelling taken away or said without is not present
    ("index", "Create the orders index without CONCURRENTLY so the migration runs inside a "
     "transaction", "undecided"),
    ("index", _diff("migrations/0042_orders.sql", "-- inside the transaction, so not "
                    "concurrently\nCREATE INDEX orders_created_idx ON orders (created_at);"),
     "undecided"),
    ("hmac", "Replace hmac.compare_digest with == in the webhook signature check", "undecided"),
    ("hmac", "Stop using hmac.compare_digest for webhook signatures and compare them with a "
     "plain string equality", "undecided"),
    ("dag", "Declare the new billing DAG with catchup=True instead of catchup=False",
     "undecided"),
    # sentence_words.py: emphasis is no term, and a symbol counts only in code
    ("creds", "Fix the flaky login test!! It keeps failing on CI", "pass"),
    ("kotlin", "Wow!! the build is green again", "pass"),
    ("digest", _diff("src/pager.py", "if x == 0:\n    return None"), "pass"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("nosilent")
    with isolated_env(base):
        return E.build(base, CRITERIA)


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


def test_a_wanted_spelling_counts_whole_and_not_when_taken_away():
    from lorestack.guardrail.spellings import spells_wanted

    index = CRITERIA["index"][0]
    assert spells_wanted(index, "CREATE INDEX CONCURRENTLY orders_idx ON orders (id);", True)
    assert not spells_wanted(index, "CREATE INDEX orders_idx ON orders (id); -- CONCURRENTLY", True)
    assert not spells_wanted(index, "create index concurrently orders_idx on orders (id);", True)
    hmac = CRITERIA["hmac"][0]
    assert spells_wanted(hmac, "Compare the webhook signature with hmac.compare_digest")
    assert not spells_wanted(hmac, "Drop hmac.compare_digest from the webhook check")
    assert not spells_wanted(hmac, "# hmac.compare_digest is slow\nok = sig == expected", True)
    assert not spells_wanted(hmac, "ok = my_hmac.compare_digest_fast(a, b)", True)
    dag = CRITERIA["dag"][0]
    assert spells_wanted(dag, "Declare the billing DAG with catchup = False and a daily schedule")
    assert not spells_wanted(dag, "Use catchup=True, not catchup=False, for the backfill DAG")


@pytest.mark.parametrize(
    ("key", "raw"),
    [
        # still flagged: a symbol written as code, in prose or in a diff, where the rule says
        ("kotlin", "The user is logged in there, so force-unwrap currentUser with !! there"),
        ("kotlin", "Read the name with `user!!.name` in the profile screen"),
        ("digest", _diff("webhooks/verify.py", "if signature == expected:\n    return True")),
    ],
)
def test_a_symbol_written_as_code_is_still_flagged(store, key, raw):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == "undecided"


def test_remember_shows_the_symbol_not_its_regex():
    from lorestack.guardrail.rules import sentence_spec
    from lorestack.guardrail.understood import understand
    from lorestack.memory_layers.models import CriterionSpec

    spec = CriterionSpec(drafted="rules")
    shown = "\n".join(understand(spec, CRITERIA["digest"][0], "crit-x").lines())
    assert "'== & signatures'" in shown and "(?<!" not in shown, shown
    assert sentence_spec(spec, CRITERIA["creds"][0])[0].forbid == ["credentials"]


def test_a_wanted_comment_counts_in_a_comment():
    from lorestack.guardrail.spellings import spells_wanted

    rule = "every unsafe block carries a // SAFETY: comment saying why it is sound"
    assert spells_wanted(rule, "// SAFETY: p came from Box::into_raw\nunsafe { drop(p) }", True)
    assert not spells_wanted(rule, "unsafe { drop(p) }", True)
