"""The LLM judge through litellm's real HTTP path against the scripted local server."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli


def _criterion(mem, text, **spec):
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec
    from lorestack.memory_layers.operations import remember

    applies = AppliesTo(keywords=spec.pop("keywords", []), paths=spec.pop("paths", []))
    return remember(
        mem, text, "criterion", criterion=CriterionSpec(applies_to=applies, **spec)
    ).item.id


def _reply(*judgements) -> str:
    return json.dumps({"judgements": [dict(j) for j in judgements]})


def _open():
    from lorestack.memory_layers.memory import Memory

    return Memory.open()


def _check(text, **kw):
    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import from_text

    return check(_open(), from_text(text), retrieval=False, llm=True, **kw)


@pytest.fixture
def api_rule(mem):
    return _criterion(
        mem,
        "Public API changes must stay backwards compatible",
        keywords=["api", "endpoint"],
        verdict="block",
        rationale="mobile clients update slowly",
    )


def test_grounded_violation_becomes_the_criterion_verdict(api_rule, fake_llm):
    server = fake_llm(
        [
            _reply(
                {
                    "id": api_rule,
                    "applies": True,
                    "violated": True,
                    "why": "removes a field clients read",
                    "quote": "remove the email field",
                }
            )
        ]
    )
    result = _check("In the /users API endpoint, remove the email field from the response")
    assert result.verdict == "block"
    finding = result.violations[0]
    assert (finding.id, finding.judged_by, finding.quote) == (
        api_rule,
        "llm",
        "remove the email field",
    )
    assert result.llm["calls"] == 1 and result.llm["prompt_tokens"] == 100
    prompt = server.prompts()[0]
    assert api_rule in prompt and "mobile clients update slowly" in prompt
    assert "remove the email field" in prompt
    assert server.requests[0]["response_format"] == {"type": "json_object"}


def test_an_ungrounded_quote_stays_undecided(api_rule, fake_llm):
    fake_llm(
        [
            _reply(
                {
                    "id": api_rule,
                    "applies": True,
                    "violated": True,
                    "why": "breaks clients",
                    "quote": "drop version 1 of the API",
                }
            )
        ]
    )
    result = _check("Add a new optional field to the /users API endpoint")
    # an obligation the rules cannot decide stays "applies, undecided": a warn, never a pass
    assert result.verdict == "warn" and not result.violations
    assert [n.id for n in result.undecided] == [api_rule]
    assert "not in the proposal" in result.undecided[0].reason


def test_applies_but_not_violated_is_satisfied(api_rule, fake_llm):
    fake_llm(
        [_reply({"id": api_rule, "applies": True, "violated": False, "why": "additive change"})]
    )
    result = _check("Add a new optional field to the /users API endpoint")
    assert result.verdict == "pass" and not result.notes
    assert (
        result.satisfied[0].judged_by == "llm" and result.satisfied[0].reason == "additive change"
    )


def test_rule_verdicts_never_reach_the_llm(mem, api_rule, fake_llm):
    cron = _criterion(
        mem, "No cron for one-off tasks", keywords=["one-off"], forbid=["cron"], verdict="block"
    )
    server = fake_llm([_reply({"id": api_rule, "applies": False, "violated": False})])
    result = _check("one-off API backfill via cron")
    assert [f.id for f in result.violations] == [cron]
    assert cron not in server.prompts()[0] and api_rule in server.prompts()[0]


def test_llm_failure_leaves_the_criterion_undecided(api_rule, fake_llm):
    fake_llm([{"status": 500}] * 3)
    result = _check("Rename the /users API endpoint")
    assert result.verdict == "warn" and [n.id for n in result.undecided] == [api_rule]
    assert any("LLM judge unavailable" in w for w in result.warnings)


def test_malformed_reply_is_retried_then_validated(api_rule, fake_llm):
    fake_llm(
        [
            "sure! here you go",
            _reply(
                {
                    "id": api_rule,
                    "applies": True,
                    "violated": True,
                    "why": "w",
                    "quote": "rename the /users API",
                }
            ),
        ]
    )
    result = _check("Rename the /users API endpoint")
    assert result.verdict == "block"


def test_secrets_in_the_proposal_never_reach_the_llm(api_rule, fake_llm):
    server = fake_llm([_reply()])
    _check("Call the API endpoint with token ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    assert "ghp_abcdef" not in server.prompts()[0]


def test_cli_llm_flag_and_criteria_test(api_rule, fake_llm):
    reply = _reply(
        {
            "id": api_rule,
            "applies": True,
            "violated": True,
            "why": "breaking",
            "quote": "remove the email field",
        }
    )
    fake_llm([reply, reply])
    runner = CliRunner()
    checked = runner.invoke(
        cli, ["check", "--llm", "--no-retrieval", "API: remove the email field from /users"]
    )
    assert checked.exit_code == 2 and "llm: breaking" in checked.stdout
    traced = runner.invoke(
        cli, ["criteria", "test", api_rule, "--llm", "API: remove the email field from /users"]
    )
    assert "would answer: block" in traced.stdout


def test_retrieved_decision_is_judged_by_the_llm(mem, fake_llm):
    """Hybrid retrieval (real tantivy + Chroma + ONNX) finds a decision no keyword names."""
    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import from_text
    from lorestack.memory_layers.operations import remember

    decision = remember(
        mem,
        "We chose PostgreSQL for all persistent data; MongoDB was rejected "
        "because we cannot operate a second database",
        "decision",
    ).item.id
    remember(mem, "The office plants are watered on Mondays", "fact")
    proposal = from_text("Move the product catalog from PostgreSQL into MongoDB collections")
    plain = check(mem, proposal, retrieval=True, llm=False)
    assert plain.verdict == "pass" and [n.id for n in plain.notes] == [decision]
    assert plain.notes[0].judged_by == "retrieval"
    fake_llm(
        [
            _reply(
                {
                    "id": decision,
                    "applies": True,
                    "violated": True,
                    "why": "MongoDB was rejected",
                    "quote": "into MongoDB collections",
                }
            )
        ]
    )
    judged = check(_open(), proposal, retrieval=True, llm=True)
    assert judged.verdict == "warn"  # decisions and caveats warn; only criteria block
    assert judged.violations[0].id == decision and judged.violations[0].judged_by == "llm"
