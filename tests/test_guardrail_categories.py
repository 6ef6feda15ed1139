"""Issue 22 (twelfth session): a rule that names a category ("a second queueing system",
"another date library", "no other ORM") applies where a proposal names a well-known member
of it (RabbitMQ, dayjs, Peewee), as "applies, undecided"; the member the rule itself chose
(Kafka, date-fns, SQLAlchemy) never makes it apply. Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.test_guardrail_labelled import make_proposal

BROKER = "Kafka is our one message broker; we don't run a second queueing system next to it"
ORM = "The data layer uses SQLAlchemy; no other ORM is added to the backend"


def test_category_members_apply_but_not_the_one_the_rule_chose():
    kw = read_sentence(BROKER).keywords
    assert "rabbitmq" in kw and "sqs" in kw and "kafka" not in kw
    kw = read_sentence(ORM).keywords
    assert "peewee" in kw and "sqlalchemy" not in kw


def test_a_whole_word_category_is_not_a_prefix():
    # 'orm$' is the word ORM; "format" and "formal" name no ORM
    kw = read_sentence("Use f-strings for formatting, not % formatting or str.format()").keywords
    assert "peewee" not in kw and "prisma" not in kw


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "categories", {"broker": (BROKER, "warn"), "orm": (ORM, "warn")})


@pytest.mark.parametrize(
    "key, raw, expected",
    [
        ("broker", "Stand up RabbitMQ for the notification fan-out", "undecided"),
        ("broker", "Add a notifications.fanout Kafka topic with 12 partitions", "pass"),
        ("orm", "Model the reporting tables with Peewee", "undecided"),
        ("orm", "Write the reporting queries as SQLAlchemy select() statements", "pass"),
    ],
)
def test_named_member_of_the_category(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected
