"""Issue 22 (twenty-fifth session, fix25): the review of act_scope.secret_file. Under "Don't bake
secrets into container images through ENV or ARG" (confirmed), an env file with a suffix or a
prefix (`.env.production`, `prod.env`), the AWS credentials file and a service-account key
still passed; and `load_dotenv('.env')` under "Never commit secrets to the repository" became
"applies, undecided" — a file only READ by code is not a file put into the image or the repo.
The reviewer's proposals (/tmp/s25/review c1, c3); real files, git and model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, new_file_diff
from tests.guardrail_sentence_cases import _diff

CRITERIA = {
    "image": ("Don't bake secrets into container images through ENV or ARG", "block"),
    "repo": ("Never commit secrets to the repository", "block"),
}




@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("secretfiles25r"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


SECRET_FILES = [
    _diff("Dockerfile", "FROM python:3.12\nCOPY .env.production /app/.env.production"),
    _diff("Dockerfile", "FROM python:3.12\nCOPY prod.env /app/"),
    _diff("Dockerfile", "FROM node:20\nCOPY .aws/credentials /root/.aws/credentials"),
    _diff("Dockerfile", "FROM python:3.12\nCOPY gcp-service-account.json /app/"),
]

KEPT = [
    ("image", _diff("Dockerfile", "FROM node:20\nCOPY .env.sample /srv/app/.env.sample")),
    pytest.param("image", _diff("web/app.js", "const key = process.env.API_KEY;\nconst env = process.env;"),
                 marks=pytest.mark.xfail(strict=True, reason=(
                     "known cost of df72d1c (drafted_words.py, twenty-eighth session): a "
                     "confirmed draft applied only through a word its reading added (API_KEY, "
                     "a secrets spelling) with nothing forbidden found asks as its guess does; "
                     "reading the env in app code is no image build, so this asks for no reason"))),
    ("repo", new_file_diff("app/config.py", ["from dotenv import load_dotenv", "load_dotenv('.env')",
                                         "API_KEY = os.environ['API_KEY']"])),
]


@pytest.mark.parametrize("raw", SECRET_FILES)
def test_a_secret_file_with_another_name_asks(store, raw):
    assert confirmed_answer(store, "image", raw) == "undecided"


@pytest.mark.parametrize(("key", "raw"), KEPT)
def test_a_file_read_or_a_sample_is_no_question(store, key, raw):
    assert confirmed_answer(store, key, raw) == "pass"
