"""Criteria written as sentences: read, drafted, decided or 'applies, undecided', and sent
back to the agent to judge; term matching people expect; the hook deadline."""

from __future__ import annotations

import json
import re
import shlex
import threading

import anyio
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from lorestack.cli.main import cli
from tests import guardrail_sentence_cases as C
from tests import sentence_eval as E

ASYNC = "Don't introduce async APIs, click is synchronous"
STORAGE = (
    "Do not introduce a new storage component (database, queue, cache) this quarter; "
    "object storage plus the local cache covers the load"
)


def invoke(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def remember(*args) -> dict:
    result = invoke("remember", "--json", *args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# ---- the labelled sets ------------------------------------------------------------------
@pytest.fixture(scope="module", params=[False, True], ids=["sentence", "drafted"])
def built(request, tmp_path_factory):
    base = tmp_path_factory.mktemp("sentences")
    mp = pytest.MonkeyPatch()
    mp.setenv("HOME", str(base / "home"))
    mp.setenv("LORESTACK_HOME", str(base / "home"))
    try:
        yield request.param, *E.build(base, drafted=request.param)
    finally:
        mp.undo()


def test_the_set_is_as_the_issue_asks():
    assert len(C.CASES) >= 60
    assert sum(c[3] == "pass" for c in C.CASES) * 2 == len(C.CASES)  # half look-alikes
    assert len(C.split("held")) * 3 == len(C.CASES)
    for raw in C.CRITERIA.values():  # a sentence plus at most one keyword or path
        assert not (raw.get("keyword") and raw.get("path"))


@pytest.mark.parametrize("part", ["tune", "held"])
def test_accuracy_on_sentence_criteria(built, part):
    drafted, mem, ids = built
    s = E.score(mem, ids, C.split(part))
    if drafted:  # the drafted decidable form, accepted as is
        assert s["exact"] >= 0.95, s["wrong"]
    else:  # sentence only, no LLM
        assert s["violations_flagged"] >= 0.9, s["wrong"]
        assert s["lookalikes_flagged"] <= 0.1, s["wrong"]


def test_former_fresh_sentences_now_tuning_cases(tmp_path, monkeypatch):
    """The 18 former "fresh" cases: reader rules were fitted to them, so they are tuning
    cases (issue 22); the held-out set is tests/guardrail_heldout_cases.py."""
    monkeypatch.setattr(E, "CRITERIA", C.FRESH_CRITERIA)
    mem, ids = E.build(tmp_path / "fresh", drafted=False)
    s = E.score(mem, ids, C.FRESH_CASES)
    assert s["violations_flagged"] >= 0.85 and s["lookalikes_flagged"] <= 0.3, s["wrong"]


# ---- reading sentences ------------------------------------------------------------------
def test_reading_the_issue_examples():
    from lorestack.guardrail.sentences import read_sentence

    d = read_sentence(ASYNC)
    assert d.kind == "prohibition" and d.forbid == ["added:async"]
    d = read_sentence(STORAGE)
    assert {"added:database", "added:queue", "added:cache"} <= set(d.forbid)
    assert {"object storage", "local cache"} <= set(d.alternatives)  # named, not exempting
    d = read_sentence("Nothing under infra/ changes without a review note")
    assert d.kind == "obligation" and d.paths == ["infra/**"] and d.require == ["review note"]
    d = read_sentence("Keep the public API backwards compatible")
    assert d.kind == "" and not d.decidable  # no cue: only an LLM or a person can judge


def _sentence_rule(mem, text, **applies):
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec
    from lorestack.memory_layers.operations import remember as do_remember

    spec = CriterionSpec(applies_to=AppliesTo(**applies), verdict="block", rationale="ops")
    return do_remember(mem, text, "criterion", criterion=spec).item.id


def _check(mem, text):
    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import from_text

    return check(mem, from_text(text), retrieval=False, llm=False)


def test_the_issue_cases_are_decided(mem):
    _sentence_rule(mem, ASYNC, keywords=["async"])
    storage = _sentence_rule(mem, STORAGE, keywords=["database", "storage", "cassandra"])
    # read from the sentence, nobody confirmed it: a guess, which never blocks
    guessed = _check(mem, "Let's add Cassandra as a new database for the event store")
    assert guessed.verdict == "warn" and guessed.undecided[0].id == storage
    assert "applies, undecided" in guessed.undecided[0].reason and not guessed.violations
    from lorestack.guardrail.authoring import confirm_criterion

    for loaded in mem.load_items(types=("criterion",)).items:
        confirm_criterion(mem, loaded.item.id)
    assert _check(mem, "Add async def invoke_async to Command").verdict == "block"
    blocked = _check(mem, "Let's add Cassandra as a new database for the event store")
    assert blocked.verdict == "block" and blocked.violations[0].id == storage
    alternative = "Store the events in object storage and serve hot reads from the local cache"
    assert _check(mem, alternative).verdict == "pass"
    assert _check(mem, "No new database: the events fit in object storage").verdict == "pass"


def test_undecided_is_a_warn_counted_in_the_summary_never_pass(mem):
    from lorestack.guardrail.replies import verdict_line

    rule = _sentence_rule(mem, "Handlers must not use raw SQL", paths=["app/handlers/**"])
    result = _check(mem, "Speed up app/handlers/orders.py with a cached lookup table")
    assert result.verdict == "warn" and [f.id for f in result.undecided] == [rule]
    assert result.undecided[0].outcome == "undecided" and result.undecided[0].verdict == "warn"
    line = verdict_line(result)
    assert "1 applies, undecided" in line and "0 applied" not in line
    cli_run = invoke("check", "--no-retrieval", "--strict", "Speed up app/handlers/orders.py")
    assert cli_run.exit_code == 2 and "1 applies, undecided" in cli_run.stdout
    assert "Handlers must not use raw SQL" in cli_run.stdout  # the criterion quoted
    assert invoke("check", "--no-retrieval", "Speed up app/handlers/x.py").exit_code == 1
    assert invoke("check", "--no-retrieval", "Rename the docs page").exit_code == 0


def test_the_summary_never_says_0_applied_while_a_criterion_applies(mem):
    from lorestack.guardrail.replies import verdict_line

    _sentence_rule(mem, ASYNC, keywords=["async"])
    for text in ("no async here", "Add async def f", "rename the docs page"):
        result = _check(mem, text)
        applied = result.violations + result.undecided + result.satisfied + result.notes
        line = verdict_line(result)
        assert ("0 applied" not in line) and (("none applied" in line) == (not applied))


# ---- the agent as judge in each client's form --------------------------------------------
PAYLOADS = {
    "claude-code": {"tool_name": "Bash", "tool_input": {"command": "vim app/handlers/a.py"}},
    "codex": {"tool_name": "Bash", "tool_input": {"command": "vim app/handlers/a.py"}},
    "gemini": {
        "tool_name": "run_shell_command",
        "tool_input": {"command": "vim app/handlers/a.py"},
    },
    "cursor": {"hook_event_name": "beforeShellExecution", "command": "vim app/handlers/a.py"},
}


def _hook(client: str, payload: dict, *extra):
    return invoke(
        "check", "--hook", "pre-tool", "--client", client, *extra, input=json.dumps(payload)
    )


@pytest.mark.parametrize("client", sorted(PAYLOADS))
@pytest.mark.usefixtures("long_hook_deadlines")  # about the reply, not the deadline
def test_undecided_goes_back_to_the_agent_in_its_clients_form(mem, client):
    rule = _sentence_rule(mem, "Handlers must not use raw SQL", paths=["app/handlers/**"])
    first = _hook(client, PAYLOADS[client])
    assert first.exit_code == 0
    out = json.loads(first.stdout)
    text = json.dumps(out)
    assert rule in text and "Handlers must not use raw SQL" in text and "Rationale: ops" in text
    assert "according to the criterion set on" in text
    if client in ("claude-code", "codex"):  # context the model reads; the call is not refused
        hso = out["hookSpecificOutput"]
        assert (
            "permissionDecision" not in hso and "Review your proposal" in hso["additionalContext"]
        )
        assert _hook(client, PAYLOADS[client]).stdout == first.stdout  # every time
    else:  # refused once with the criterion; the agent's retry goes through
        assert out.get("permission") == "deny" or out.get("decision") == "deny"
        assert json.loads(_hook(client, PAYLOADS[client]).stdout) == {}
        assert json.loads(_hook(client, PAYLOADS[client]).stdout) == out  # asked again later


@pytest.mark.parametrize("client", sorted(PAYLOADS))
@pytest.mark.usefixtures("long_hook_deadlines")  # about the reply, not the deadline
def test_a_blocking_decided_criterion_still_denies(mem, client):
    from lorestack.guardrail.authoring import confirm_criterion

    _sentence_rule(mem, "Handlers must not use raw SQL", paths=["app/handlers/**"])
    push = _sentence_rule(mem, "Never force-push to main", keywords=["push"])
    payload = json.loads(
        json.dumps(PAYLOADS[client]).replace(
            "vim app/handlers/a.py", "git push --force origin main"
        )
    )
    confirm_criterion(mem, push)  # the person accepted the reading: now it decides
    out = json.loads(_hook(client, payload).stdout)
    denied = (
        out.get("hookSpecificOutput", {}).get("permissionDecision")
        or out.get("permission")
        or out.get("decision")
    )
    assert denied == "deny" and "Never force-push to main" in json.dumps(out)


def test_mcp_check_hands_the_undecided_criterion_to_the_agent(repo, monkeypatch):
    from mcp import Client

    from lorestack.integrations.mcp_server import build_server
    from lorestack.memory_layers.memory import Memory

    monkeypatch.setenv("LORESTACK_GUARDRAIL__RETRIEVAL", "false")
    rule = _sentence_rule(
        Memory.open(repo), "Handlers must not use raw SQL", paths=["app/handlers/**"]
    )

    async def main():
        async with Client(build_server(str(repo))) as client:
            got = await client.call_tool(
                "check", {"proposal": "cache lookups", "paths": ["app/handlers/a.py"]}
            )
            data = json.loads(got.content[0].text)
            assert data["verdict"] == "warn" and data["undecided"][0]["id"] == rule
            assert "Handlers must not use raw SQL" in data["judge_request"]
            drafted = await client.call_tool(
                "remember", {"text": "Never commit .env files", "type": "criterion"}
            )
            draft = json.loads(drafted.content[0].text)["draft"]
            assert draft["forbid"] == ["path:.env"] and draft["drafted_by"] == "rules"

    anyio.run(main)


# ---- drafting at write time --------------------------------------------------------------
def test_remember_drafts_prints_and_stores_the_decidable_form(repo):
    shown = invoke("remember", "--type", "criterion", STORAGE, "--keyword", "database")
    assert "understood:" in shown.stdout and "storage (added) present" in shown.stdout
    assert "answers 'applies, undecided'" in shown.stdout  # a guess: it never blocks
    assert "confirm: lorestack criteria confirm crit-" in shown.stdout
    assert "recommended instead (taking it passes): object storage" in shown.stdout
    data = remember("--type", "criterion", ASYNC, "--keyword", "async")
    spec = data["item"]["criterion"]
    assert spec["forbid"] == ["added:async"] and data["draft"]["drafted_by"] == "rules"
    # the same sentence again: --force stores a second item (else it reinforces the first)
    bare = remember("--type", "criterion", ASYNC, "--keyword", "async", "--no-draft", "--force")
    assert bare["item"]["criterion"]["forbid"] == [] and "draft" not in bare
    own = remember("--type", "criterion", ASYNC, "--keyword", "async", "--forbid", "asyncio",
                   "--force")
    assert own["item"]["criterion"]["forbid"] == ["asyncio"]  # the user's terms win


def test_criteria_edit_and_test_show_the_decision_path(repo):
    rid = remember("--type", "criterion", ASYNC, "--keyword", "async", "--no-draft")["item"]["id"]
    traced = invoke("criteria", "test", rid, "Add async def invoke_async")
    assert "read from the sentence" in traced.stdout and "forbid: added:async" in traced.stdout
    assert "judged by: sentence" in traced.stdout and "would answer: warn" in traced.stdout
    edited = invoke("criteria", "edit", rid, "--forbid", "await", "--verdict", "block")
    assert edited.exit_code == 0 and "blocks on: await present" in edited.stdout
    traced = invoke("criteria", "test", rid, "Add async def invoke_async")
    assert "judged by: rules" in traced.stdout and "would answer: pass" in traced.stdout
    redrafted = invoke("criteria", "edit", rid, "--redraft")
    assert "async (added) present" in redrafted.stdout and "a guess" in redrafted.stdout
    confirmed = invoke("criteria", "confirm", rid)
    assert confirmed.exit_code == 0 and "blocks on: async (added) present" in confirmed.stdout
    assert invoke("check", "--no-retrieval", "Add async def invoke_async").exit_code == 2
    cleared = invoke("criteria", "edit", rid, "--clear-terms")
    assert "answers 'applies, undecided'" in cleared.stdout  # the sentence alone: a guess


def test_the_llm_draft_is_grounded_in_the_sentence(repo, fake_llm):
    server = fake_llm(
        [
            json.dumps(
                {
                    "applies_keywords": ["async"],
                    "forbid": ["added:async", "threading", "/async def|await/"],
                    "unless": ["synchronous"],
                }
            )
        ]
    )
    data = remember("--type", "criterion", ASYNC, "--keyword", "async")
    spec = data["item"]["criterion"]
    assert data["draft"]["drafted_by"] == "llm"
    assert spec["forbid"] == ["added:async", "/async def|await/"]  # 'threading' is not in it
    assert any("threading" in n for n in data["draft"]["notes"])
    assert ASYNC in server.prompts()[0]


def test_an_llm_that_fails_leaves_the_rules_draft(repo, fake_llm):
    fake_llm([{"status": 500}] * 4)
    data = remember("--type", "criterion", ASYNC, "--keyword", "async")
    assert data["draft"]["drafted_by"] == "rules"
    assert data["item"]["criterion"]["forbid"] == ["added:async"]


# ---- term matching ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "term,text,found",
    [
        ("deprecat*", "the deprecation warning", True),
        ("deprecate", "it was deprecated in 2.3", True),
        ("deprecate", "add a deprecation notice", True),
        ("remove", "removal is planned", True),
        ("user", "call getUserById(42)", True),
        ("user", "get_user_by_id", True),
        ("getUserById", "def get_user_by_id(uid):", True),
        ("typescript", "port it to TypeScript", True),
        ("new storage component", "a new Redis storage component", True),
        ("async", "asynchronous jobs", False),
        ("force push & main", "git push --force origin feature", False),
        ("push force & main", "git push --force origin main", True),
    ],
)
def test_terms_match_as_people_expect(term, text, found):
    from lorestack.guardrail.terms import PreparedText, term_hits

    assert bool(list(term_hits(PreparedText.of(text), term))) is found


@pytest.mark.parametrize(
    "path,fires", [("infra/main.tf", True), ("docs/infra.md", False), ("src/infra_x.py", False)]
)
def test_infra_glob_does_not_fire_on_look_alike_paths(mem, path, fires):
    _sentence_rule(mem, "Nothing under infra/ changes without a review note", paths=["infra/**"])
    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import Proposal

    result = check(mem, Proposal(source="diff", text="x = 1", paths=[path]), retrieval=False)
    assert (result.verdict == "warn") is fires  # a sentence nobody confirmed: undecided
    assert not result.violations


def test_gates_need_an_adding_verb_in_prose_but_not_in_a_change():
    from lorestack.guardrail.terms import PreparedText, first_affirmed

    prose = PreparedText.of("Rename the database column")
    assert first_affirmed(prose, ["added:database"])[0] is None
    assert first_affirmed(PreparedText.of("Spin up a Postgres database"), ["added:database"])[0]
    change = PreparedText.of("DATABASE_URL = env('DB')", change=True)
    assert first_affirmed(change, ["added:database"])[0] is not None


# ---- the hook deadline ----------------------------------------------------------------------
@pytest.mark.parametrize("fail_closed", [False, True])
def test_a_missed_hook_deadline_fails_open_or_closed(mem, monkeypatch, fail_closed):
    """A check that cannot finish (held on an event, released at the end) meets the deadline
    of the shared guarded run (lorestack.core.guarded)."""
    import subprocess

    import lorestack.guardrail.check as check_module

    subprocess.run(["git", "init", "-q", str(mem.project.repo_dir)], check=True)
    monkeypatch.setenv("LORESTACK_GUARDRAIL__HOOK_DEADLINE_MS", "50")
    release = threading.Event()
    monkeypatch.setattr(check_module, "check", lambda *a, **k: release.wait(30))
    payload = {"tool_name": "Bash", "tool_input": {"command": "git push --force origin main"}}
    extra = ["--fail-closed"] if fail_closed else []
    try:
        result = _hook("claude-code", payload, *extra)
        commit = invoke("check", "--hook", "pre-commit", *extra)
    finally:
        release.set()
    assert result.exit_code == 0 and "deadline" in result.stderr, (result.stdout, result.stderr)
    if fail_closed:
        assert json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    else:
        assert result.stdout == ""
    assert commit.exit_code == (1 if fail_closed else 0) and "deadline" in commit.stderr


# ---- the README's example is what lorestack prints -----------------------------------------
def _readme_sessions() -> list[list[tuple[str, list[str]]]]:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[1] / "docs" / "guardrail.md").read_text("utf-8")
    section = doc.split("## Criteria as people write them", 1)[1].split("\n## ", 1)[0]
    sessions = []
    for block in re.findall(r"```console\n(.*?)```", section, re.S):
        steps: list[tuple[str, list[str]]] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        sessions.append(steps)
    return sessions


def test_the_guardrail_doc_example_runs_as_shown(repo):
    from tests.conftest import run_cli

    sessions = [step for session in _readme_sessions() for step in session]
    assert len(sessions) >= 5
    for command, shown in sessions:
        args = shlex.split(command)
        assert args[0] == "lorestack"
        done = run_cli(*args[1:], cwd=repo, env={"LORESTACK_GUARDRAIL__RETRIEVAL": "false"})
        printed = done.stdout + done.stderr
        assert "Traceback" not in printed
        for line in shown:  # "…" stands for ids, dates and paths
            for piece in filter(None, (p.strip() for p in line.split("…"))):
                assert piece in printed, (command, piece, printed)
        if "block (" in printed:
            assert done.returncode == 2
        if "applies, undecided)" in printed or "warn (" in printed:
            assert done.returncode == 1


# ---- never a crash on what people type ------------------------------------------------------
_VOCAB = (
    "do not don't never no not nothing avoid must always use only go through without unless "
    "instead of rather than new add introduce edit to in from the a ( ) , ; : . infra/ *.tf "
    ".env poetry.lock database cache be documented before removing it X-y"
).split(" ")
_RULE_LIKE = st.lists(st.sampled_from(_VOCAB), max_size=25).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(
    sentence=st.one_of(st.text(max_size=160), _RULE_LIKE),
    proposal=st.one_of(st.text(max_size=160), _RULE_LIKE),
)
def test_reading_and_judging_any_sentence_never_raises(sentence, proposal):
    from lorestack.guardrail.rules import PreparedText, evaluate_sentence
    from lorestack.guardrail.sentences import read_sentence
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec

    read_sentence(sentence)
    spec = CriterionSpec(applies_to=AppliesTo(keywords=["x"], paths=["**"]))
    out = evaluate_sentence(spec, sentence, PreparedText.of(proposal), ["a/b.py"])
    assert out is None or out.status in (
        "not_applicable",
        "possibly_relevant",
        "undecided",
        "satisfied",
        "violated",
    )


@pytest.mark.parametrize(
    "sentence,forbid,alternatives",
    [
        ("Prefer httpx over requests", ["requests"], ["httpx"]),
        ("Use pathlib instead of os.path", ["os.path"], ["pathlib"]),
        ("Global state is not allowed in the parser", ["global state"], []),
        ("Mutable default arguments are forbidden", ["mutable default arguments"], []),
        (
            "Never use time.sleep in tests, use the fake clock",
            ["time.sleep"],
            ["fake clock", "clock"],
        ),
    ],
)
def test_more_ways_people_say_it(sentence, forbid, alternatives):
    from lorestack.guardrail.sentences import read_sentence

    d = read_sentence(sentence)
    assert d.kind == "prohibition" and d.forbid == forbid and d.alternatives == alternatives
    assert d.keywords  # it applies where the forbidden thing is named


def test_the_sentence_verb_gates_the_users_own_forbid_words(mem):
    from lorestack.memory_layers.models import AppliesTo, CriterionSpec
    from lorestack.memory_layers.operations import remember as do_remember

    spec = CriterionSpec(
        applies_to=AppliesTo(keywords=["cache"]), forbid=["cache | queue"], verdict="block"
    )
    do_remember(mem, STORAGE, "criterion", criterion=spec)
    assert _check(mem, "Sessions already live in the local cache; tune its TTL").verdict == "pass"
    assert _check(mem, "Add a Redis cache in front of the API").verdict == "block"


def test_a_commit_that_records_the_rule_is_not_judged_by_its_own_words(mem):
    """The commit holds the criterion file (which names the alternative) and a violation."""
    import subprocess

    from lorestack.guardrail.check import check
    from lorestack.guardrail.proposals import from_git_diff

    repo = mem.project.repo_dir

    def git(*args):
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)

    git("init", "-q")
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "0")
    _sentence_rule(
        mem, "Handlers must not use raw SQL; go through the repository layer", paths=["app/**"]
    )
    (repo / "app").mkdir()
    (repo / "app" / "orders.py").write_text('db.execute("SELECT * FROM orders WHERE id = 1")\n')
    git("add", "-A")
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "-m", "orders")
    proposal = from_git_diff(repo, "HEAD")
    assert proposal.paths == ["app/orders.py"]
    result = check(mem, proposal, retrieval=False)
    assert result.verdict == "warn" and "SELECT" in result.undecided[0].quote
