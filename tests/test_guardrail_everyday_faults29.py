"""Issue 22 (twenty-ninth session, sil29): well-known faults named in everyday words and shown
in everyday forms (everyday_faults.py) — an image on the latest tag, a secret shipped in the
app, a port open to the whole internet, CORS open to every origin, a list returned unbounded,
an outside call inside a database transaction, personal data copied raw. A guess passed
them in silence (nothing applied, or the forbidden-act gate let a line of code through); now
the fault asks, and the same code without the fault stays a pass. Our own criteria and
proposals; the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import everyday_faults
from tests import heldout_eval as E
from tests.conftest import answers_of, bash_call, new_file_diff

CRITERIA = {
    "latest": ("Production manifests must never reference the latest tag", "block"),
    "token": ("Auth tokens must never be shipped in the mobile client", "block"),
    "pg": ("Postgres must not be reachable from the public internet", "block"),
    "cors": ("Don't let CORS accept every origin on the billing API", "block"),
    "page": ("Search results must be paginated", "block"),
    "txn": ("No remote calls to other services inside an open database transaction", "block"),
    "phone": ("Raw phone numbers must not be written to the analytics tables", "block"),
}
VIOLATIONS = [  # (id, key, proposal): each passed in silence before everyday_faults.py
    ("latest-yaml", "latest", new_file_diff("deploy/web.yaml", [
        "      containers:", "        - name: web", "          image: ghcr.io/shop/web:latest"])),
    ("token-ts", "token", new_file_diff("mobile/src/env.ts", [
        "export const SEGMENT_TOKEN = 'q8Xw2LrT9vKm4Zp1';"])),
    ("pg-open", "pg", new_file_diff("infra/db.tf", [
        'resource "aws_security_group_rule" "pg" {', "  from_port   = 5432",
        "  to_port     = 5432", '  cidr_blocks = ["0.0.0.0/0"]', "}"])),
    ("cors-all", "cors", new_file_diff("billing/settings.py", ["CORS_ALLOW_ALL_ORIGINS = True"])),
    ("page-none", "page", new_file_diff("search/config.py", ["DEFAULT_PAGE_SIZE = None"])),
    ("txn-post", "txn", new_file_diff("shop/invoices.py", [
        "def close(invoice):", "    with transaction.atomic():", "        invoice.save()",
        "        boto3.client('sns').publish(TopicArn=TOPIC, Message=invoice.number)"])),
    ("phone-select", "phone", new_file_diff("analytics/users.sql", [
        "insert into analytics.users select user_id, phone_number, country from app.users"])),
]
LOOKALIKES = [  # the same code without the fault: a pass before and after
    ("latest-pinned", "latest", new_file_diff("deploy/web.yaml", [
        "      containers:", "        - name: web", "          image: ghcr.io/shop/web:2.4.1"])),
    ("pg-vpc", "pg", new_file_diff("infra/db.tf", [
        'resource "aws_security_group_rule" "pg" {', "  from_port   = 5432",
        "  to_port     = 5432", '  cidr_blocks = ["10.20.0.0/16"]', "}"])),
    ("https-open", "pg", bash_call(
        "aws ec2 authorize-security-group-ingress --group-id sg-9 --protocol tcp --port 443 "
        "--cidr 0.0.0.0/0")),
    ("page-25", "page", new_file_diff("search/config.py", ["DEFAULT_PAGE_SIZE = 25"])),
    ("txn-after", "txn", new_file_diff("shop/invoices.py", [
        "def close(invoice):", "    with transaction.atomic():", "        invoice.save()",
        "    boto3.client('sns').publish(TopicArn=TOPIC, Message=invoice.number)"])),
    ("phone-hashed", "phone", new_file_diff("analytics/users.sql", [
        "insert into analytics.users select user_id, sha256(phone_number), country from app.users"])),
]


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "everyday29", CRITERIA)


def test_a_fault_in_its_everyday_form_asks(store):
    answers = answers_of(store, VIOLATIONS)
    assert answers == {case_id: "undecided" for case_id, _, _ in VIOLATIONS}


def test_the_same_code_without_the_fault_is_not_asked_by_it(store, monkeypatch):
    """The reading only asks where the fault shows: the look-alikes answer as without it (two
    are asked by meaning either way: a page size and a hashed phone column are what the
    rules are about)."""
    answers = answers_of(store, LOOKALIKES)
    monkeypatch.setattr(everyday_faults, "ON", False)
    assert answers == answers_of(store, LOOKALIKES)
    assert {c for c, a in answers.items() if a == "pass"} == {
        "latest-pinned", "pg-vpc", "https-open", "txn-after"}


def test_switched_off_the_violations_passed(store, monkeypatch):
    """Before the reading, five of the seven passed in silence (the CORS flag and the page
    size were asked by meaning already)."""
    monkeypatch.setattr(everyday_faults, "ON", False)
    answers = answers_of(store, VIOLATIONS)
    assert {c for c, a in answers.items() if a == "pass"} == {
        "latest-yaml", "token-ts", "pg-open", "txn-post", "phone-select"}
