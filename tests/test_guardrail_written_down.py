"""Issue 22, twenty-third session: prose that only writes a rule down or adds a check that
enforces it ("Explain in the deploy guide why production never runs the latest tag",
"Document in SECURITY.md that certificate verification is never turned off", "Add a lint
rule that fails on .only( in test files") named what the rule is about and answered
"applies, undecided" — five look-alikes of batches 9, 19 and 20 (tests.lookalike_buckets).
It now keeps a guessed rule; a confirmed rule whose forbidden word it names asks instead of
blocking. A proposal that does more than that one act is read as before. The cases are our
own. Real files, the real MiniLM model."""

from __future__ import annotations

from lorestack.guardrail import written_down as W
from tests import heldout_eval as E
from tests.conftest import answers_of


def test_what_writes_a_rule_down():
    assert W.written_down("Explain in CONTRIBUTING.md why nobody pushes to main directly") == (
        "Explain in CONTRIBUTING.md why")
    assert W.written_down("Document in the runbook that the staging database is never "
                          "restored from production") == "Document in the runbook that"
    assert W.written_down("Add a CI check that fails on console.log in src/").startswith(
        "Add a CI check that fails")
    # a statement that states no rule, or a second act, is not only writing it down
    assert W.written_down("Document the new retry schedule on the webhooks page") == ""
    assert W.written_down("Explain in the README why we push to main; then push the fix to "
                          "main") == ""
    assert W.written_down("Document that staging skips the checks and turn them off there") == ""


CRITERIA = {
    "main": ("Never push directly to main; open a pull request", "block"),
    "console": ("No console.log calls in committed frontend code", "block"),
}
CASES = [  # (id, key, proposal, answer now, answer without the reading)
    ("main-p", "main", "Explain in CONTRIBUTING.md why nobody pushes directly to main",
     "pass", "undecided"),
    ("console-p", "console", "Add a lint rule that fails on console.log in the frontend code",
     "pass", "undecided"),
    ("main-v", "main", "Push the typo fix directly to main, it is one line", "undecided",
     "undecided"),
]


def test_prose_that_writes_the_rule_down_keeps_it(tmp_path, monkeypatch):

    mem, ids = E.build(tmp_path / "written", CRITERIA)

    def answers() -> dict[str, str]:
        return answers_of((mem, ids), CASES)

    assert answers() == {case_id: now for case_id, _, _, now, _ in CASES}
    monkeypatch.setattr(W, "ENABLED", False)
    assert answers() == {case_id: before for case_id, _, _, _, before in CASES}


def test_writing_down_the_opposite_of_a_rule_is_not_keeping_it():
    # review of the twenty-third session: the clause states the forbidden act, or says it is
    # allowed; a rule word in a clause hung on it ("when nobody else…", "since … not valid")
    # does not make it a rule
    assert W.written_down("Document in CONTRIBUTING.md that force-pushing to main is fine "
                          "when nobody else is working on it") == ""
    assert W.written_down("Note in the runbook that we disable TLS certificate verification "
                          "for the staging proxy since its cert is not valid") == ""
    assert W.written_down("Document how to disable TLS certificate verification when the "
                          "corporate proxy is not trusted") == ""
    assert W.written_down("Document in CONTRIBUTING.md that small pull requests no longer "
                          "need an approving review") == ""
    assert W.written_down("Note in CONTRIBUTING.md that force-pushing to main is ok") == ""
    # "nobody has to", "never need to", "not required": a requirement lifted, not a rule
    assert W.written_down("Document that nobody has to sign their commits any more") == ""
    assert W.written_down("Note in the README that contributors never need to run the "
                          "integration tests") == ""
    assert W.written_down("Document that a changelog entry is not required for docs "
                          "changes") == ""
    assert W.written_down("Document that every commit must be signed") == "Document that"
    # a rule stays a rule, also when it says what is not allowed
    assert W.written_down("Document in CONTRIBUTING.md that force-pushing to main is not "
                          "allowed") == "Document in CONTRIBUTING.md that"
    assert W.written_down("Explain in the deploy guide why production never runs the latest "
                          "tag, even when the release is urgent") == "Explain in the deploy guide why"


OPPOSITE = {
    "force": ("Never force-push to main", "block"),
    "tls": ("Never disable TLS certificate verification", "block"),
}
OPPOSITE_CASES = [  # (id, key, proposal, guessed answer, confirmed answer)
    ("force-fine", "force", "Document in CONTRIBUTING.md that force-pushing to main is fine "
     "when nobody else is working on it", "undecided", "block"),
    ("tls-note", "tls", "Note in the runbook that we disable TLS certificate verification for "
     "the staging proxy since its cert is not valid", "undecided", "block"),
    ("tls-how", "tls", "Document how to disable TLS certificate verification when the "
     "corporate proxy is not trusted", "undecided", "block"),
]


def test_the_opposite_written_down_is_asked_or_blocked(tmp_path):
    from lorestack.guardrail.check import check
    from tests.test_guardrail_labelled import make_proposal

    for confirmed in (False, True):
        mem, ids = E.build(tmp_path / f"opposite{int(confirmed)}", OPPOSITE, confirmed=confirmed)
        got = {case_id: E.answer(check(mem, make_proposal(text, mem.project.repo_dir),
                                       retrieval=False, llm=False), ids[key])
               for case_id, key, text, _, _ in OPPOSITE_CASES}
        want = {case_id: (sure if confirmed else guess)
                for case_id, _, _, guess, sure in OPPOSITE_CASES}
        assert got == want, confirmed
