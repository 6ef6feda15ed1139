"""Issue 22's requests-codebase trial, finding by finding, through the CLI as a new user
would meet it: criteria typed as sentences, proposals as text, diffs and hook payloads.
Each test failed on the code before issue 22 (see the issue's "What we found")."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from lorestack.cli.main import cli

PY_SUPPORT = (
    "Never drop support for a Python version in a patch release; only minor releases may "
    "change python_requires"
)
DEPS = "Don't add new runtime dependencies without discussing it first"
NETWORK = "Tests must never hit the real network"
CRON = (
    "Never propose cron for one-off tasks; use a manual script with a completion "
    "notification or a workflow_dispatch job"
)
STORAGE = (
    "Do not introduce a new storage component this quarter; object storage plus local cache "
    "covers the load"
)


def invoke(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def remember(*args) -> dict:
    result = invoke("remember", "--json", "--type", "criterion", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def check(*args):
    return invoke("check", "--no-retrieval", "--json", *args)


def _answer(result, rule_id: str) -> str:
    data = json.loads(result.stdout)
    for f in data["violations"]:
        if f["id"] == rule_id:
            return f["verdict"]
    return "undecided" if any(f["id"] == rule_id for f in data["undecided"]) else "pass"


def _hook(command: str):
    payload = {"tool_name": "Bash", "tool_input": {"command": command}}
    return invoke("check", "--hook", "pre-tool", "--client", "claude-code",
                  input=json.dumps(payload))


@pytest.fixture
def long_deadline(monkeypatch):
    monkeypatch.setenv("LORESTACK_GUARDRAIL__HOOK_DEADLINE_MS", "120000")


def test_support_is_no_forbidden_word_and_the_patch_release_drop_surfaces(repo):
    data = remember(PY_SUPPORT, "--keyword", "python_requires", "--keyword", "drop support",
                    "--verdict", "block")
    spec, rid = data["item"]["criterion"], data["item"]["id"]
    terms = spec["forbid"] + spec["require"] + spec["unless"] + spec.get("alternatives", [])
    assert not any(t.split(":")[-1].strip() in ("support", "never") for t in terms), terms
    cidr = check("Add support for CIDR ranges in NO_PROXY")
    assert cidr.exit_code == 0 and _answer(cidr, rid) == "pass"  # was BLOCK (exit 2)
    drop = check("Drop Python 3.8 in the 2.32.4 patch release by bumping python_requires to >=3.9")
    assert drop.exit_code == 1 and _answer(drop, rid) == "undecided"  # was a silent pass


def test_a_plain_sentence_is_accepted_and_the_dependency_cases_are_right(repo, long_deadline):
    data = remember(DEPS, "--verdict", "block")  # was refused: "missing: applies-to"
    rid = data["item"]["id"]
    from lorestack.guardrail.check import check as do_check
    from lorestack.guardrail.proposals import Proposal
    from lorestack.memory_layers.memory import Memory

    mem = Memory.open()
    diff = Proposal(source="diff", text='    install_requires=["idna>=2.5,<4", "brotli>=1.1"],',
                    paths=["setup.py"])
    result = do_check(mem, diff, retrieval=False, llm=False)
    assert [f.id for f in result.undecided] == [rid]  # was a silent pass
    dev = Proposal(source="diff", text="pytest-httpbin==2.1.0", paths=["requirements-dev.txt"])
    assert not do_check(mem, dev, retrieval=False, llm=False).violations  # was BLOCKED
    hooked = _hook("pip install brotli && echo brotli >> requirements.txt")
    assert hooked.exit_code == 0
    reply = json.loads(hooked.stdout)  # was no output: the hook let it pass in silence
    context = reply["hookSpecificOutput"]["additionalContext"]
    assert DEPS in context and "permissionDecision" not in reply["hookSpecificOutput"]


def test_never_is_not_a_required_word(repo, long_deadline):
    data = remember(NETWORK, "--verdict", "warn")
    spec = data["item"]["criterion"]
    assert "never" not in " ".join(spec["require"] + spec["forbid"]).split()
    from lorestack.guardrail.check import check as do_check
    from lorestack.guardrail.proposals import Proposal
    from lorestack.memory_layers.memory import Memory

    quiet = Proposal(source="diff", text="def test_parse():\n    assert parse('a') == ['a']",
                     paths=["tests/test_utils.py"])
    result = do_check(Memory.open(), quiet, retrieval=False, llm=False)
    assert result.verdict == "pass", [f.reason for f in result.undecided]  # was a warn
    assert _hook("pytest tests/test_utils.py -q").stdout.strip() in ("", "{}")  # no nagging


def test_use_x_instead_is_an_alternative_not_an_exemption(repo):
    data = remember(CRON, "--verdict", "block")
    spec, rid = data["item"]["criterion"], data["item"]["id"]
    assert not {"job", "script"} & set(spec["unless"] + spec.get("alternatives", []))
    cron = check("Set up a cron job to run the one-off data migration tonight")
    assert _answer(cron, rid) == "undecided"  # was a pass: it says "job"
    invoke("criteria", "confirm", rid)
    assert check("Set up a cron job to run the one-off data migration tonight").exit_code == 2
    manual = check("Run the one-off migration with a manual script that notifies us when done")
    assert manual.exit_code == 0


def test_a_new_storage_component_named_by_its_product_surfaces(repo):
    rid = remember(STORAGE, "--verdict", "block")["item"]["id"]
    cassandra = check("Let's add Cassandra as a new database for the event store")
    assert _answer(cassandra, rid) == "undecided"  # was "none applied"
    assert cassandra.exit_code == 1


def test_by_meaning_alone_a_criterion_applies_and_asks(mem):
    """No word of the criterion occurs; the sentence model says the proposal is close."""
    from lorestack.guardrail.check import check as do_check
    from lorestack.guardrail.proposals import from_text
    from lorestack.memory_layers.models import CriterionSpec
    from lorestack.memory_layers.operations import remember as do_remember

    rid = do_remember(mem, "Avoid wildcard imports", "criterion",
                      criterion=CriterionSpec(verdict="warn")).item.id
    star = do_check(mem, from_text("from .fields import *"), retrieval=False, llm=False)
    assert [f.id for f in star.undecided] == [rid]
    assert "by meaning (similarity" in star.undecided[0].reason
    far = do_check(mem, from_text("Bump the copyright year in LICENSE"), retrieval=False)
    assert far.verdict == "pass"
    mem.settings.guardrail.meaning = False  # the switch is honoured
    off = do_check(mem, from_text("from .fields import *"), retrieval=False, llm=False)
    assert off.verdict == "pass"


def test_the_llm_judges_what_a_guess_cannot_and_reports_its_cost(repo, fake_llm):
    """A sentence nobody confirmed applies (Cassandra, by its product name); the configured
    LLM, through litellm's real HTTP path, decides it: a grounded quote blocks."""
    rid = remember(STORAGE, "--verdict", "block")["item"]["id"]
    reply = {"judgements": [{"id": rid, "applies": True, "violated": True,
                             "why": "Cassandra is a new database",
                             "quote": "add Cassandra as a new database"}]}
    server = fake_llm([json.dumps(reply)])
    judged = invoke("check", "--no-retrieval", "--llm",
                    "Let's add Cassandra as a new database for the event store")
    assert judged.exit_code == 2, judged.output
    assert "[llm: 1 call, 100 + " in judged.stdout  # calls and tokens per check
    assert STORAGE in server.prompts()[0]
    kept = {"judgements": [{"id": rid, "applies": True, "violated": False,
                            "why": "reads from the existing cache", "quote": ""}]}
    fake_llm([json.dumps(kept)])
    data = json.loads(check("--llm", "Serve hot reads of the event store from Redis").stdout)
    assert data["verdict"] == "pass" and data["llm"]["calls"] == 1
    assert data["satisfied"][0]["judged_by"] == "llm"


def test_a_forbidden_word_inside_a_longer_one_asks_instead_of_passing(repo):
    """The tenth session's new-user trial: `--forbid cron` with "Add a crontab entry …"
    passed in silence (exit 0). A forbidden word of the user's found only as the start of a
    longer word decides nothing (it may be another word) but is not a pass: it asks, and
    says how to make it count; `cron*` then blocks."""
    rid = remember("No cron jobs for one-off tasks", "--keyword", "one-off", "--forbid", "cron",
                   "--verdict", "block")["item"]["id"]
    near = check("Add a crontab entry to run the one-off backfill")
    assert near.exit_code == 1 and _answer(near, rid) == "undecided", near.output
    assert "begins with the forbidden 'cron'" in near.stdout and "cron*" in near.stdout
    assert check("Add a cron job to run the one-off backfill").exit_code == 2
    assert check("Run the one-off backfill by hand with a script").exit_code == 0
    negated = check("Run the one-off backfill by hand, without a crontab entry")
    assert negated.exit_code == 0, negated.output
    # a rule with no scope of its own applies everywhere: a longer word decides nothing there
    everywhere = remember("No var declarations", "--forbid", "var", "--verdict", "block")
    assert _answer(check("Rename the variable in the one-off script"),
                   everywhere["item"]["id"]) == "pass"
    edited = invoke("criteria", "edit", rid, "--forbid", "cron*")
    assert edited.exit_code == 0, edited.output
    assert check("Add a crontab entry to run the one-off backfill").exit_code == 2
