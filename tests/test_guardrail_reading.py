"""Issue 22, second session: how sentences typed in the words of CONTRIBUTING files are
read, and when a guess that applies by meaning only passes (it reads far from what the
rule forbids). Real files, the real MiniLM model; no figure is asserted on the labelled
sets here (tests/test_guardrail_heldout.py holds those)."""

from __future__ import annotations

import pytest

from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.guardrail_sentence_cases import _bash, _diff


def test_needs_names_what_is_required_where_its_subject_occurs():
    d = read_sentence("Every outgoing HTTP call needs an explicit timeout")
    assert d.require == ["timeout"]
    assert "requests.post" in d.keywords  # an HTTP call, as code spells it
    d = read_sentence("Every user-visible change gets an entry in CHANGELOG.md")
    assert d.require == ["changelog.md"]


def test_a_drafted_path_keeps_the_case_it_was_written_in(tmp_path):
    """Ninth session: the reader lowercases words, but a touched path keeps its case, so a
    rule about `CHANGELOG.md` must name `CHANGELOG.md`, not `changelog.md`."""
    text = "Do not edit CHANGELOG.md directly; towncrier builds it at release time"
    d = read_sentence(text)
    assert d.paths == ["CHANGELOG.md"] and d.forbid == ["changed:path:CHANGELOG.md"]
    assert read_sentence("Do not edit files under vendor/ by hand").paths == ["vendor/**"]
    # a name that only contains another (DOMAIN.PY holds "main.py") keeps its own spelling
    assert read_sentence("Do not edit DOMAIN.PY or main.py by hand").paths == ["DOMAIN.PY",
                                                                                "main.py"]
    criteria = {"frag": (text, "warn")}
    mem, ids = E.build(tmp_path / "case", criteria)
    cases = [
        ("frag-v", "frag", _diff("CHANGELOG.md", "## Unreleased\n- Exports keep the column order."), "violation"),
        ("frag-p", "frag", _diff("changes/1432.bugfix.md", "Exports keep the column order."), "pass"),
    ]  # fmt: skip
    got = E.answers_through_check(mem, ids, cases, expect=False)
    assert got == {"frag-v": "undecided", "frag-p": "pass"}


def test_a_scope_the_rule_leaves_out_exempts(tmp_path):
    """Ninth session: "outside the cli/ package" and "except in tests" were dropped by the
    reader, so code in the exempted place was flagged (by print debugging) like any other."""
    text = "No print() outside the cli/ package; every other module logs through the logger"
    assert read_sentence(text).unless == ["path:cli/**"]
    assert any("path:tests/**" in u for u in read_sentence("Avoid print except in tests").unless)
    assert read_sentence("Tests must never hit the real network").unless == []
    js = read_sentence("Avoid console.log except in tests").unless[-1]  # JS test layouts too
    assert "path:*.test.*" in js and "path:__tests__/**" in js
    mem, ids = E.build(tmp_path / "case", {"cli": (text, "warn")})
    cases = [
        ("cli-v", "cli", _diff("src/pkg/sync/worker.py", "    print(f'synced {n} records')"), "violation"),
        ("cli-p", "cli", _diff("src/pkg/cli/main.py", "    print(f'synced {n} records')"), "pass"),
    ]  # fmt: skip
    got = E.answers_through_check(mem, ids, cases, expect=False)
    assert got == {"cli-v": "undecided", "cli-p": "pass"}


def test_a_passive_prohibition_forbids_its_subject():
    """Ninth session: "X is never edited by hand" forbids editing X (the subject), not the
    word "hand"; "X will not be accepted" (a participle that is grammar) reads as before."""
    d = read_sentence("Generated code under gen/ is never edited by hand; change the .proto")
    assert d.forbid == ["changed:path:gen/**"] and d.paths == ["gen/**"]
    d = read_sentence("Focused tests such as it.only or fdescribe must not be committed")
    assert "fdescribe" in d.forbid and "committed" not in d.forbid
    d = read_sentence("Resources at another cloud provider will not be accepted")
    assert "resources" not in d.forbid
    # a passive inside a relative clause is not the subject's prohibition (review finding)
    assert read_sentence("Never deploy code that is not tested").forbid != ["never deploy"]
    d = read_sentence("Do not merge a pull request that is not reviewed")
    assert not any(t.startswith("do not") for t in d.forbid)
    # "X is not required" permits going without X; it never forbids X
    assert "changelog entry" not in read_sentence(
        "A changelog entry is not required for docs-only changes").forbid


def test_a_such_as_list_names_its_items():
    """Ninth session: "such as A or B" is read like "(A, B)", and a dotted name is code."""
    d = read_sentence("Focused tests such as it.only or fdescribe must not be committed")
    assert {"focused tests", "it.only", "fdescribe"} <= set(d.forbid)
    d = read_sentence("Never run destructive SQL such as DROP or TRUNCATE against production")
    assert {"drop", "truncate"} <= set(d.forbid)
    d = read_sentence("Use the secrets module, not random, for tokens such as reset codes or keys")
    assert "reset" not in d.forbid  # a multi-word item is left as written
    d = read_sentence("Never call dangerous functions such as eval() or exec()")
    assert {"/(?<![\\w.])eval\\b/", "/(?<![\\w.])exec\\b/"} <= set(d.forbid)  # both calls


def test_a_phrasal_verb_keeps_its_particle():
    """Ninth session: "switch off X" forbids X, never the particle "off"; twenty-second: it
    forbids switching X off (X set to false, `--no-X`, prose turning it off), not X itself."""
    forbid = read_sentence("Never switch off CSRF protection on a form").forbid
    assert "off" not in forbid and "csrf protection" not in forbid
    assert "csrf protection & switch off" in forbid
    assert any(f.startswith("/") and "csrf[\\s_-]?protection" in f for f in forbid)
    assert "out" not in read_sentence("Never roll out to all hosts at once").forbid
    assert read_sentence("Do not write over existing files").forbid != ["existing"]  # not a particle


def test_force_push_to_either_place():
    d = read_sentence("Never force-push to main or a release branch")
    assert "force push & main" in d.forbid
    assert "force push & release branch" in d.forbid
    assert "force push & main release branch" not in d.forbid


def test_terms_lose_scope_words_and_generic_nouns():
    assert read_sentence(
        "Use the logging module instead of print statements in library code"
    ).forbid == ["print"]
    d = read_sentence("No blocking I/O inside async handlers")
    assert d.paths == [] and d.forbid == ["blocking i/o"]


def test_the_recommended_way_brings_no_concept_spellings():
    d = read_sentence("Do not edit files under vendor/ by hand; update the dependency instead")
    assert d.forbid == ["changed:path:vendor/**"]
    assert "go get" not in d.keywords and "pip install" not in d.keywords


CRITERIA = {
    "force": ("Never force-push to main or a release branch", "block"),
    "root": ("Containers must not run as root", "block"),
    "timeouts": ("Every outgoing HTTP call needs an explicit timeout", "warn"),
    "eval": ("Never use eval() on anything a user can send", "block"),
    "sql": ("Don't write raw SQL strings in views; use the ORM query builder", "warn"),
}


@pytest.fixture
def store(tmp_path):  # per test: the isolated environment (and its model) is set up first
    return E.build(tmp_path / "reading", CRITERIA)


@pytest.mark.parametrize(
    "key, raw, expected",
    [
        ("force", _bash("git push --force origin main"), "undecided"),
        ("force", _bash("git push --force-with-lease origin feature/login"), "pass"),
        # applies by meaning only (no word of the rule), far from running as root: kept
        ("root", _diff("Dockerfile", "RUN useradd -m app\nUSER app"), "pass"),
        ("root", "Run the worker container as root so it can bind port 80", "undecided"),
        ("timeouts", _diff("billing/client.py", "resp = requests.post(url, json=payload)"), "undecided"),
        ("timeouts", _diff("billing/client.py", "resp = requests.post(url, json=payload, timeout=10)"), "pass"),
        # a name written as a call is that function: not literal_eval, not model.eval()
        ("eval", _diff("api/calc.py", "result = eval(request.json['expression'])"), "undecided"),
        ("eval", _diff("api/calc.py", "result = ast.literal_eval(CONFIG_DEFAULTS)"), "pass"),
        # what raw SQL looks like in code makes the rule apply, not only the words "raw SQL"
        ("sql", _diff("shop/views.py", 'cursor.execute("SELECT * FROM orders WHERE id = %s", [i])'), "undecided"),
        ("sql", _diff("shop/views.py", "orders = Order.objects.filter(user_id=uid)"), "pass"),
    ],
)
def test_guessed_readings_answer(store, key, raw, expected):
    from lorestack.guardrail.check import check
    from tests.test_guardrail_labelled import make_proposal

    mem, ids = store
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids[key]) == expected
    if expected == "pass":
        assert not any(f.verdict == "block" for f in result.violations)


def test_a_guess_close_by_meaning_but_far_from_what_it_forbids_is_kept(store):
    from lorestack.guardrail.check import check
    from tests.test_guardrail_labelled import make_proposal

    mem, ids = store
    raw = _diff("Dockerfile", "RUN useradd -m app\nUSER app")
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    kept = [f for f in result.satisfied if f.id == ids["root"]]
    assert kept and "far from what it forbids" in kept[0].reason  # applied, judged, kept
    assert not [f for f in result.undecided if f.id == ids["root"]]
