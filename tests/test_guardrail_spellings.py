"""Issue 22 (sixteenth session): a guessed rule that applies by meaning only keeps a proposal
that spells every code form the rule wants ("… created with CREATE INDEX CONCURRENTLY", "…
compared with hmac.compare_digest"); a product name, an acronym, or a spelling in the
prohibition's clause is no evidence. Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.spellings import spells_wanted, wanted_spellings
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.guardrail_sentence_cases import _diff
from tests.test_guardrail_labelled import make_proposal

WORKERS = "Celery workers are started with --max-tasks-per-child=100 so leaks stay bounded"


def test_what_counts_as_a_wanted_spelling():
    assert wanted_spellings("Indexes are built with CREATE INDEX CONCURRENTLY") == (
        ("and", ("CREATE", "INDEX", "CONCURRENTLY")),
    )
    assert wanted_spellings("Load related rows with select_related or prefetch_related") == (
        ("or", ("select_related", "prefetch_related")),
    )
    # a product the rule chose, an acronym, a prohibition's clause: nothing wanted
    assert wanted_spellings("Documentation is built with MkDocs") == ()
    assert wanted_spellings("Every container declares CPU requests") == ()
    assert wanted_spellings("Never compare tokens with ==") == ()
    # every wanted spelling must be there
    rule = 'Links with target="_blank" carry rel="noopener"'
    assert spells_wanted(rule, '<a target="_blank" rel="noopener">')
    assert not spells_wanted(rule, '<a target="_blank">')


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("spellings")
    with isolated_env(base):
        return E.build(base, {"workers": (WORKERS, "warn")})


@pytest.mark.parametrize(
    ("key", "raw", "expected"),
    [
        # it spells what the rule wants: kept (before: applies, undecided by meaning)
        ("workers", _diff("deploy/worker.yaml",
                          "command: celery -A shop worker --max-tasks-per-child=100"), "pass"),
        # the same subject without it: still asked
        ("workers", _diff("deploy/worker.yaml", "command: celery -A shop worker --concurrency=8"),
         "undecided"),
    ],
)
def test_a_proposal_that_spells_what_the_rule_wants(store, key, raw, expected):
    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected
