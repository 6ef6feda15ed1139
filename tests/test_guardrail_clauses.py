"""Issue 22, third session: what the fourth tuning batch (tests/guardrail_tuning_batch4.py)
drove — grammar words that are no term, the clauses of a rule and of a proposal, the code
forms a term implies, concepts a change shows, "nobody" as a negation, and a guess that
applied through the whole act it forbids with nothing of the place. Real files and the
real MiniLM model; the figures on the labelled sets live in docs/guardrail-log.md."""

from __future__ import annotations

import pytest

from lorestack.guardrail.meaning import proposal_units, split_acts
from lorestack.guardrail.proposals import Proposal
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.guardrail_sentence_cases import _bash, _diff


def test_adverbs_and_passives_are_no_terms():
    assert "directly" not in read_sentence(
        "Do not push directly to the master branch; open a pull request from your own branch"
    ).forbid
    forbid = read_sentence("Do not disable TLS certificate verification, not even in staging").forbid
    assert not {"even", "staging", "disable", "tls certificate verification"} & set(forbid)
    assert "tls certificate verification & disable" in forbid
    assert any(f.startswith("/") and "tls[\\s_-]?certificate" in f for f in forbid)
    assert "accepted" not in read_sentence("Code without tests is not accepted").forbid


def test_a_rule_splits_into_what_it_forbids_and_what_it_recommends():
    forbidden, recommended = split_acts(
        "Do not push directly to the master branch; open a pull request from your own branch"
    )
    assert forbidden == ["push directly to the master branch"]
    assert recommended == ["open a pull request from your own branch"]
    # a clause that states a fact or a permission recommends nothing
    assert split_acts("Do not commit binary files; they belong in the release assets")[1] == []
    assert split_acts("Never drop Python 3.8 in a patch; minor releases may change it")[1] == []
    assert split_acts("Keep functions under 50 lines") == ([], [])


def test_a_proposal_is_compared_clause_by_clause():
    units = proposal_units(
        Proposal(text="Add the retry option to the HTTP client, tests can come later")
    )
    assert "tests can come later" in units
    assert units[0].startswith("Add the retry option")  # the whole text stays first


def test_code_forms_a_term_implies():
    pinned = read_sentence("GitHub Actions must be pinned to a commit SHA, not a tag")
    assert any(f.startswith("/@v") for f in pinned.forbid)
    todo = read_sentence("Don't leave TODO comments without an issue number")
    assert todo.require == [r"issue number | /#\d+\b/"]


CRITERIA = {
    "todo": ("Don't leave TODO comments without an issue number", "warn"),
    "shell": ("Never call subprocess with shell=True", "block"),
    "secrets": ("Never commit secrets, credentials or private keys to the repository", "block"),
    "review": (
        "A pull request needs an approving review from someone other than its author "
        "before it is merged",
        "block",
    ),
    "config": ("Configuration comes from environment variables, not hard-coded constants", "warn"),
    "state": ("Avoid module-level mutable state; pass dependencies explicitly", "warn"),
    "tls": ("Do not disable TLS certificate verification, not even in staging", "block"),
}


@pytest.fixture
def store(tmp_path):
    return E.build(tmp_path / "clauses", CRITERIA)


@pytest.mark.parametrize(
    "key, raw, expected",
    [
        ("todo", _diff("src/cache.py", "# TODO(#412): handle eviction"), "pass"),
        ("todo", _diff("src/cache.py", "# TODO: handle eviction"), "undecided"),
        # the whole act without the place: kept; the place said in other words: undecided
        ("shell", _diff("tools/run.py", "subprocess.run(['git', 'status'], check=True)"), "pass"),
        ("shell", "Pass the user's command string through the shell with subprocess", "undecided"),
        ("secrets", _diff(".env", "DB_PASSWORD=hunter2"), "undecided"),
        ("review", "Merge my own PR now, nobody is around to review it", "undecided"),
        ("config", _diff("app/settings.py", "API_URL = 'https://api.internal:8443'"), "undecided"),
        ("config", _diff("app/settings.py", "API_URL = os.environ['API_URL']"), "pass"),
        ("state", _diff("app/registry.py", "_HANDLERS = {}\n\ndef register(name, fn):"), "undecided"),
        ("tls", _diff("client/http.py", "resp = requests.get(url, verify=False)"), "undecided"),
        ("tls", _bash("pytest -q tests/test_http.py"), "pass"),
    ],
)
def test_guessed_readings_answer(store, key, raw, expected):
    from lorestack.guardrail.check import check
    from tests.test_guardrail_labelled import make_proposal

    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected
    assert not any(f.verdict == "block" for f in result.violations)  # a guess never blocks
