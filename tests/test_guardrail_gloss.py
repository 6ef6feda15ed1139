"""Issue 22, fourth session: code said in words (lorestack/guardrail/gloss.py) as one more
proposal unit for the by-meaning test, and the fifth tuning batch's figures as floors.
Real files and the real MiniLM model."""

from __future__ import annotations

import pytest

from lorestack.guardrail import meaning
from lorestack.guardrail.gloss import gloss
from lorestack.guardrail.meaning import proposal_units
from lorestack.guardrail.proposals import Proposal
from tests import guardrail_tuning_batch5 as B5
from tests import heldout_eval as E
from tests.conftest import confirmed_answer
from tests.guardrail_sentence_cases import _bash, _diff


def test_common_code_forms_are_said_in_words():
    assert gloss("def add_edges(node, edges=None):") == "new function add edges (node, edges=None):"
    assert gloss("FROM python:3.12-slim") == "container base image python:3.12-slim"
    assert gloss("git commit -m 'Fix the pager'") == "commit message: Fix the pager"
    assert gloss("npm install moment --save") == "add JavaScript dependency moment --save"
    assert gloss("msg = 'rows: %d' % n") == "string formatting with % or str.format"
    assert gloss("logger.info('signup %s', user_id)").startswith("write to the logs")
    # a gloss says what a line is, never whether it breaks a rule
    assert gloss("x = load(p)  # type: ignore") == "type checker ignore comment"
    assert gloss("x = load(p)  # type: ignore[attr-defined]") == "type checker ignore comment [attr-defined]"
    assert gloss("Add the CSV exporter to the reports page") is None
    assert gloss("rename the settings module") is None


def test_a_gloss_is_one_more_unit_after_the_lines():
    units = proposal_units(Proposal(text="FROM python:3.12\nCOPY . /app", paths=["Dockerfile"]))
    assert units[0].startswith("FROM python:3.12")
    assert "container base image python:3.12" in units
    assert "COPY . /app" in units  # the lines stay


CRITERIA = {
    "fstrings": ("Use f-strings for formatting, not % formatting or str.format()", "warn"),
    "bundle": (
        "The JavaScript bundle must stay under 200 kB gzipped; don't pull in heavy libraries "
        "such as moment.js",
        "warn",
    ),
}
CASES = [
    ("fmt", "fstrings", _diff("src/report.py", "msg = 'Processed %d rows' % n"), "undecided"),
    ("npm", "bundle", _bash("npm install moment --save"), "undecided"),
]


@pytest.fixture
def store(tmp_path):  # per test: the settings read at build time name the test model
    return E.build(tmp_path / "gloss", CRITERIA)


@pytest.mark.parametrize("gloss_on", [True, False])
def test_the_gloss_makes_code_apply_by_meaning(store, monkeypatch, gloss_on):
    monkeypatch.setattr(meaning, "GLOSS", gloss_on)
    for _, key, raw, expected in CASES:
        # with the gloss the rule applies (a guess: undecided); without it nothing applies
        assert confirmed_answer(store, key, raw) == (expected if gloss_on else "pass"), key


def test_batch5_is_as_the_brief_asks():
    assert len(B5.CRITERIA) >= 25
    for key in B5.CRITERIA:
        cases = [c for c in B5.CASES if c[1] == key]
        assert {c[3] for c in cases} == {"violation", "pass"}, key
        assert any(isinstance(c[2], dict) for c in cases), key


def test_batch5_figures_do_not_regress(tmp_path):
    mem, ids = E.build(tmp_path / "b5", B5.CRITERIA)
    s = E.score(mem, ids, B5.CRITERIA, B5.CASES)
    assert s["refused"] == 0 and s["wrong_blocks"] == 0
    assert s["violation_answers"]["block"] == 0  # a guess never blocks
    # end of the fourth session: exact 40/73, silent passes 22/44, look-alikes 18/29
    assert s["exact"] >= 40 and s["silent_passes"] <= 22, E.summary(s)
    assert s["lookalike_pass"] >= 18, E.summary(s)
    # seventh session: the forbidden-act gate keeps open what reads clearly nearer the
    # forbidden act than what the rule states (judging.POSITIVE_MARGIN; 11 silent with it off)
    assert s["silent_passes"] <= 8 and s["exact"] >= 58, E.summary(s)
    first = B5.FIRST_RUN  # and better than before the session's changes
    assert s["silent_passes"] < first["silent_passes"] and s["exact"] > first["exact"]


def test_commands_imports_and_file_kinds_are_said_in_words():
    """Fifteenth session: forms the tuning batches' silent passes showed (tool calls, imports,
    DDL, file kinds), and a Python `from x import y` line is no container base image."""
    from lorestack.guardrail.gloss import path_gloss

    assert gloss("from openai import OpenAI") == "import Python library openai"
    assert gloss("FROM python:3.12-slim AS build") == "container base image python:3.12-slim"
    assert gloss("cd infra/prod && terraform apply -auto-approve").startswith("terraform apply of")
    assert gloss("git checkout -b fix-login-redirect") == "new git branch named fix-login-redirect"
    # deleting or listing branches makes none (an option is no branch name)
    assert gloss("git branch -d old-feature") is None and gloss("git branch --list") is None
    assert gloss("python -m build && twine upload dist/*").startswith("publish the package")
    assert gloss("CREATE TABLE refunds (") == "new database table refunds"
    assert gloss("    import pdb; pdb.set_trace()") == "debugger breakpoint left in the code"
    assert path_gloss("services/ledger/pom.xml") == "Maven build file: services ledger pom xml"
    assert path_gloss("legacy/billing/invoice.py") is None
    units = proposal_units(Proposal(text="<project/>", paths=["services/ledger/pom.xml"]))
    assert "Maven build file: services ledger pom xml" in units


def test_more_code_forms_are_said_in_words():
    """Twenty-first session: code forms behind silent passes of batches 1-18 (a lint rule off
    on a line, a 777 chmod, a stack trace, a naive clock, an index key, a blank identifier,
    commented-out code, …) said as what each form does; prose naming the form is no code."""
    assert gloss("def load(path):  # noqa: C901").startswith("switch a lint rule off inline")
    assert gloss("// eslint-disable-next-line no-console").startswith("switch a lint rule off inline")
    assert gloss("Remove the eslint-disable comments from api.ts") is None
    assert gloss("chmod -R 777 /srv/app/uploads") == "make files world-writable for everyone (777)"
    assert gloss("    os.chmod(upload_dir, 0o777)") == "make files world-writable for everyone (777)"
    assert gloss("chmod 755 bin/run") == "change file permissions 755 bin/run"
    assert gloss("return jsonify(error=traceback.format_exc()), 500") == "the exception's stack trace"
    assert gloss("created = datetime.now()") == "naive local time from the server clock"
    assert gloss("created = datetime.now(timezone.utc)") is None  # an aware clock
    assert gloss("<Row key={i} row={row} />") == "array index as the React list key"
    assert gloss("body, _ := io.ReadAll(resp.Body)").startswith("discard a result or error")
    assert gloss("    # for item in cart.items:") == "commented-out code"
    assert gloss("# the totals are rounded once, at the end") is None
    assert gloss("#main-header {") == "CSS ID selector"
    assert gloss("git filter-repo --path config/stripe.env --invert-paths") == "rewrite the git history"
    assert gloss("aws iam deactivate-mfa-device --user-name ops") == "turn off multi-factor authentication"


def test_a_statement_ending_in_a_semicolon_keeps_its_gloss():
    """`debugger;` in a diff: the proposal's lines are split at `;` (shell steps), which left
    "debugger" alone and the form (`^debugger;`) unmatched: a silent pass of "Never leave a
    debugger breakpoint in committed code" (batch 13's no_breakpoints-v2)."""
    units = proposal_units(
        Proposal(source="diff", text="  debugger;\n  updateTotals(cart);", paths=["web/src/cart.js"])
    )
    assert "debugger breakpoint left in the code" in units
