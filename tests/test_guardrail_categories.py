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


# fourteenth session: client modules, a member match as a guess, the FROM line of an image

IMAGES = "Container images build on our hardened base images, never on images pulled from Docker Hub"
DB = "Relational data lives in our one Postgres cluster; no other SQL database next to it"


def test_client_modules_of_members_but_not_of_the_chosen_product():
    kw = read_sentence(BROKER).keywords
    assert {"pika", "aio_pika", "kombu", "zmq"} <= set(kw)
    assert "confluent_kafka" not in kw and "aiokafka" not in kw  # Kafka is the rule's choice
    kw = read_sentence(DB).keywords
    assert "pymongo" in kw and "asyncpg" not in kw and "psycopg2" not in kw


def test_the_image_is_the_from_line_not_the_word_from():
    kw = read_sentence(IMAGES).keywords
    assert "from" not in kw and any(k.startswith("/") and "from" in k for k in kw)


@pytest.fixture
def confirmed(tmp_path):
    mem, ids = E.build(
        tmp_path / "confirmed", {"broker": (BROKER, "block"), "images": (IMAGES, "block")},
        confirmed=True,
    )
    return mem, ids


def test_a_member_match_is_a_guess_even_under_a_confirmed_rule(confirmed):
    mem, ids = confirmed
    raw = {"text": "import pika\n\nchannel = pika.BlockingConnection(params).channel()",
           "paths": ["svc/fanout.py"]}
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids["broker"]) == "undecided"
    found = next(f for f in result.undecided if f.id == ids["broker"])
    assert found.guessed and "pika" in found.reason
    assert result.verdict != "block"


@pytest.mark.parametrize(
    "raw, applies",
    [
        ("Move the retry helper from utils into the client module", False),
        ({"text": "# copy the wheels from the build stage\nCOPY --from=build /w /w",
          "paths": ["svc/app.py"]}, False),
        ({"text": "FROM python:3.12-slim\nCOPY . /app", "paths": ["svc/app.py"]}, True),
    ],
)
def test_from_in_prose_is_no_image(confirmed, raw, applies):
    mem, ids = confirmed
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    found = [f for f in result.violations + result.undecided + result.satisfied + result.notes
             if f.id == ids["images"]]
    triggers = [t for f in found for t in f.triggers]
    assert any("from" in t for t in triggers) == applies, triggers


def test_category_members_do_not_switch_meaning_off(tmp_path):
    """Lead's check of the fourteenth session's merge: "Use the logging module rather than
    print()" gained the logging category's members (loguru, pino, …) as keywords, a scope the
    user never chose, and that turned off applicability by meaning: a debug print, flagged
    "applies, undecided" before, passed (batch 7: 2 violations passed silently)."""
    sentence = ("Use the logging module rather than print() in library code, and remove debug "
                "prints before you push")
    assert "loguru" in read_sentence(sentence).keywords
    mem, ids = E.build(tmp_path / "logging", {"prints": (sentence, "warn")})
    raw = "Leave a few prints in the sync loop so we can see what it does in production"
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids["prints"]) == "undecided"


# fifteenth session: a product the rule names only to forbid it is not the one it chose

ONE_PG = "We run one Postgres cluster for everything; please don't add MySQL"


def test_a_product_named_to_forbid_it_is_not_the_chosen_one(tmp_path):
    """Every product a sentence named counted as the rule's choice, so the clients of MySQL
    (pymysql, …) were never added under "please don't add MySQL" and a diff importing
    pymysql answered "nothing applied"."""
    kw = read_sentence(ONE_PG).keywords
    assert "pymysql" in kw and "aiomysql" in kw  # MySQL is forbidden, its clients count
    assert "psycopg2" not in kw and "asyncpg" not in kw  # Postgres is the choice
    mem, ids = E.build(tmp_path / "one_pg", {"pg": (ONE_PG, "warn")})
    raw = {"text": "import pymysql\n\nconn = pymysql.connect(host=DB_HOST, user='app')",
           "paths": ["svc/reports/db.py"]}
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids["pg"]) == "undecided"
