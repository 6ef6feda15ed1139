"""Issue 22 (twenty-fifth session, conf25): a file that holds secrets, under a confirmed rule
that forbids secrets. "Don't bake secrets into container images through ENV or ARG" names the
means (ENV, ARG) and the thing it protects (secrets in the image); once confirmed, `COPY .env
/app/.env` answered pass — no word 'secrets', no ENV. A person expects at least "applies,
undecided": the file is a secret store (`.env`, `id_rsa`, `*.pem`, `credentials.json`) put
where the rule forbids secrets by another instruction than the ones it names. Never a block
(the means differ), never a pass. Our own proposals; real files, git and model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _diff

CRITERIA = {
    "image": ("Don't bake secrets into container images through ENV or ARG", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("secretfiles25"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


SECRET_FILES = [
    _diff("Dockerfile", "FROM node:20\nCOPY .env /srv/app/.env\nRUN npm ci"),
    _diff("Dockerfile", "FROM alpine:3.19\nADD id_ed25519 /root/.ssh/id_ed25519\nRUN apk add git"),
    _diff("docker/api.Dockerfile", "FROM python:3.12-slim\nCOPY deploy/credentials.json /etc/app/credentials.json"),
    _diff("Dockerfile", "FROM nginx:1.25\nCOPY certs/server.key /etc/nginx/server.key"),
]

KEPT = [
    _diff("Dockerfile", "FROM node:20\nCOPY .env.example /srv/app/.env.example\nRUN npm ci"),
    _diff("Dockerfile", "FROM node:20\nCOPY package.json server.js /srv/app/\nRUN npm ci"),
]


@pytest.mark.parametrize("raw", SECRET_FILES)
def test_a_secret_file_baked_in_by_another_instruction_asks(store, raw):
    assert confirmed_answer(store, "image", raw) == "undecided"


@pytest.mark.parametrize("raw", KEPT)
def test_no_secret_file_no_question(store, raw):
    assert confirmed_answer(store, "image", raw) == "pass"


def test_the_means_it_names_never_passes(store):
    raw = _diff("Dockerfile", "FROM python:3.12\nENV STRIPE_SECRET_KEY=sk_live_51Hxyz")
    assert confirmed_answer(store, "image", raw) in ("block", "undecided")
