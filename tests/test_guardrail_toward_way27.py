"""Issue 22, twenty-seventh session: prose that moves something over to the rule's own way
("Move the last SQS consumer onto NATS …" under "Background work goes through NATS; we don't
run a second message broker next to it") applied through the thing it moves away from (SQS
is a broker, Elasticsearch a search engine) and, finding nothing the guess forbids, asked —
look-alikes of batches 9-11 and 19 (one_broker-p3, one_http_client-p1, yaml_safe-p1, …;
bucket B3 of tests.lookalike_buckets). It now keeps the guess (toward_way.py) where every
act moves, replaces or removes and what each brings is the rule's stated way. Moving onto
another broker, a second act ("… and set up RabbitMQ for the mailers") or a replacement that
brings what the rule applied through keep the old answer. The cases are our own. Real files,
the real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import toward_way as T
from tests import heldout_eval as E
from tests.conftest import answers_of

NATS = "Background work goes through NATS; we don't run a second message broker next to it"


def test_what_moves_to_the_way():
    forbid = ["second message broker next"]
    assert T.moved_to_way(NATS, forbid, [], ["sqs"], "Move the last SQS consumer onto NATS and "
                          "shut the old SQS queue down") == "nat"
    # a second act, another broker, or a requirement: nothing kept here
    assert T.moved_to_way(NATS, forbid, [], ["sqs"], "Move the last SQS consumer onto NATS and "
                          "set up RabbitMQ for the mailers") == ""
    assert T.moved_to_way(NATS, forbid, [], ["rabbitmq"], "Move the mailer consumers onto "
                          "RabbitMQ as the message broker for mail") == ""
    assert T.moved_to_way(NATS, forbid, ["nats"], ["sqs"], "Move the SQS consumer onto NATS") == ""
    # taking the rule's own way away is no move to it
    assert T.moved_to_way(NATS, forbid, [], ["sqs"], "Move the SQS consumer onto NATS and "
                          "retire NATS next year") == ""


CRITERIA = {
    "jobs": (NATS, "block"),
    "search": ("Catalogue search uses Typesense; please don't add another search engine", "block"),
}
CASES = [  # (id, key, proposal, answer now, answer without the reading)
    ("jobs-p", "jobs", "Move the last SQS consumer onto NATS and shut the old SQS queue down",
     "pass", "undecided"),
    ("search-p", "search", "Replace the admin page's last Elasticsearch query with Typesense "
     "and drop Elasticsearch from the requirements", "pass", "undecided"),
    ("jobs-v1", "jobs", "Move the mailer consumers onto RabbitMQ, its routing is nicer",
     "undecided", "undecided"),
    ("jobs-v2", "jobs", "Move the last SQS consumer onto NATS and set up RabbitMQ for the "
     "mailers", "undecided", "undecided"),
    ("search-v", "search", "Replace the admin page's Typesense query with Elasticsearch",
     "undecided", "undecided"),
]


def test_prose_that_moves_over_to_the_way_keeps_a_guess(tmp_path, monkeypatch):
    mem, ids = E.build(tmp_path / "way", CRITERIA)

    def answers() -> dict[str, str]:
        return answers_of((mem, ids), CASES)

    assert answers() == {case_id: now for case_id, _, _, now, _ in CASES}
    monkeypatch.setattr(T, "ENABLED", False)
    assert answers() == {case_id: before for case_id, _, _, _, before in CASES}


HEADER = "Never put API tokens in a URL or a query string; send them in a header"


def test_a_move_that_goes_on_in_its_own_clause():
    # "… out of the query string and into a request header": the second clause is where it goes
    assert T.moved_to_way(HEADER, ["api tokens"], [], [], "Move the API token out of the query "
                          "string of the billing client and into a request header") == "head"
    assert T.moved_to_way(HEADER, ["api tokens"], [], [], "Move the API token out of the header "
                          "and into the query string") == ""


CONFIRMED = {"header": (HEADER, "block")}
CONFIRMED_CASES = [  # (id, key, proposal, answer now, answer without the reading)
    ("header-p", "header", "Move the API token out of the query string of the billing client "
     "and into a request header", "undecided", "block"),
    ("header-v", "header", "Put the API token in the query string of the billing client",
     "block", "block"),
]


def test_a_confirmed_rule_asks_instead_of_blocking_a_move_to_its_way(tmp_path, monkeypatch):
    mem, ids = E.build(tmp_path / "confirmed", CONFIRMED, confirmed=True)

    def answers() -> dict[str, str]:
        return answers_of((mem, ids), CONFIRMED_CASES)

    assert answers() == {case_id: now for case_id, _, _, now, _ in CONFIRMED_CASES}
    monkeypatch.setattr(T, "ENABLED", False)
    assert answers() == {case_id: before for case_id, _, _, _, before in CONFIRMED_CASES}
