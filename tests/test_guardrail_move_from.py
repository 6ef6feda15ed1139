"""Issue 22 (twenty-first session): three ways of naming Y beside X drafted nothing, so a
confirmed rule could never decide: "Move secrets from .env files to the vault" (a thing
moved from a place to another: adding to the place it leaves is forbidden), "… rather than
calling basicConfig directly" (an act with its thing, the thing spelled as code) and "…
rather than with from module import *" (a star import). Real files and the real MiniLM
model; criteria confirmed as a person would."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.guardrail_sentence_cases import _diff
from tests.test_guardrail_labelled import make_proposal


@pytest.mark.parametrize(
    ("sentence", "forbid"),
    [
        ("Move secrets from .env files to the vault", ["added:path:.env"]),
        ("Move scheduled jobs from crontab to the Airflow DAGs", ["crontab"]),
        ("Configure logging with logging.config.dictConfig rather than calling basicConfig "
         "directly", ["basicconfig"]),
        ("Read settings through config.get rather than calling os.environ directly",
         ["os.environ"]),
        ("Import names explicitly rather than with from module import *", [r"/\bimport\s+\*/"]),
        # an act on a plain noun still names no thing
        ("Retry failed jobs with backoff instead of queueing traffic", []),
    ],
)
def test_the_sentence_names_what_it_forbids(sentence, forbid):
    assert read_sentence(sentence).forbid == forbid


CRITERIA = {
    "basic": ("Configure logging with logging.config.dictConfig rather than calling basicConfig "
              "directly", "warn"),
    "star": ("Import names explicitly rather than with from module import *", "warn"),
    "env": ("Move secrets from .env files to the vault", "warn"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("move_from")
    with isolated_env(base):
        yield E.build(base, CRITERIA, confirmed=True)


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        ("basic", _diff("app/main.py", "logging.basicConfig(level=logging.INFO)"), "warn"),
        ("basic", _diff("app/main.py", "logging.config.dictConfig(settings.LOGGING)"), "pass"),
        ("star", _diff("reports/views.py", "from reports.helpers import *"), "warn"),
        ("star", _diff("reports/views.py", "from reports.helpers import month_range"), "pass"),
        ("env", _diff(".env", "STRIPE_SECRET=sk_live_123"), "warn"),
        ("env", _diff("deploy/vault.hcl", "path \"secret/stripe\" {}"), "no warn"),
    ],
)
def test_a_confirmed_rule_decides(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    got = E.answer(result, ids[key])
    assert got != "warn" if expected == "no warn" else got == expected
