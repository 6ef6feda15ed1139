"""Drafting: a negated relative clause of its own is no term (issue 22: drafting never turns a
function word into a term). Tuning cases, written in the thirty-fourth session."""

from __future__ import annotations

import subprocess
import sys

import pytest

from lorestack.guardrail.sentences import read_sentence

CASES = [
    # sentence, a forbidden term the draft must keep (or None: nothing the rules can look for)
    ("Do not reformat code you are not otherwise changing", None),
    ("Do not rename files you are not otherwise changing", None),
    ("Never touch generated files you did not regenerate", "changed:generated"),
    ("Don't commit code you don't understand", None),
    ("Do not add dependencies we cannot audit", "added:dependencies"),
]


@pytest.mark.parametrize(("sentence", "kept"), CASES)
def test_a_negated_clause_gives_no_term(sentence, kept):
    draft = read_sentence(sentence)
    terms = draft.forbid + draft.require + draft.keywords
    assert not [t for t in terms if {"not", "don't", "cannot", "did"} & set(t.split())], terms
    if kept is None:
        assert not draft.forbid, draft.forbid
    else:
        assert kept in draft.forbid, draft.forbid


def test_a_clause_without_negation_is_still_read():
    # "files you generated": the clause says which files; it is not cut
    assert "generated" in read_sentence("Do not commit files you generated").forbid


def test_a_proposal_that_says_the_clause_words_is_not_held_to_the_rule(repo):
    """Before: "Don't commit code you don't understand" forbade 'don't understand', so a
    proposal that says it does not understand a bug was answered 'applies, undecided'."""
    def run(*args):
        return subprocess.run([sys.executable, "-m", "lorestack.cli", *args], cwd=repo,
                              capture_output=True, text=True)

    stored = run("remember", "--type", "criterion", "Don't commit code you don't understand")
    assert stored.returncode == 0, stored.stderr
    answer = run("check", "I don't understand why the cache misses; add logging to find out")
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert answer.stdout.startswith("pass"), answer.stdout
