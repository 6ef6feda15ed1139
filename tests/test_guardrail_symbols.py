"""Issue 22 (sixteenth session): a rule whose forbidden thing is a symbol spelling ("No !! in
Kotlin code", "don't use !important", "never with ==") reads it as a term, and the marks
inside such spellings (`!!`, `?:`, `#!/usr/bin/env`) no longer split the sentence into
clauses, which made "in Kotlin code" a recommended way that let violations pass. Real
files and the real MiniLM model."""

from __future__ import annotations

import re

import pytest

from lorestack.guardrail.check import check
from lorestack.guardrail.meaning import split_acts
from lorestack.guardrail.sentence_words import symbol_term
from lorestack.guardrail.sentences import read_sentence
from tests import heldout_eval as E
from tests.conftest import isolated_env
from tests.guardrail_sentence_cases import _diff
from tests.test_guardrail_labelled import make_proposal

BANG = "No !! in Swift-interop Kotlin modules; unwrap with ?. or ?: instead"


def test_a_symbol_spelling_is_a_term_that_does_not_match_a_longer_one():
    assert read_sentence(BANG).forbid
    term = symbol_term("==")
    pattern = re.compile(term.strip("/"))
    assert pattern.search("if a == b:") and not pattern.search("if (a === b)")
    assert not pattern.search("if (a !== b)") and not pattern.search("a <== b")
    assert symbol_term("retry") == "retry"


def test_marks_inside_code_do_not_end_a_clause():
    acts, recommended = split_acts(BANG)
    assert recommended == [] or all("kotlin" not in r.lower() for r in recommended)
    assert any("!!" in a for a in acts)
    # a sentence-closing mark still ends it
    assert len(split_acts("Never ship on Fridays! Ship on Monday instead")[0]) == 1


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    base = tmp_path_factory.mktemp("symbols")
    with isolated_env(base):
        return E.build(base, {"bang": (BANG, "warn")})


def test_a_forbidden_symbol_in_a_diff_is_flagged(store):
    # before: passed, as taking the "recommended way" 'in Swift-interop Kotlin modules'
    mem, ids = store
    raw = _diff("app/src/main/kotlin/Profile.kt", "val name = session.user!!.displayName")
    result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False, llm=False)
    assert E.answer(result, ids["bang"]) == "undecided"


def test_a_semicolon_after_a_call_still_ends_the_clause():
    # `getLogger(__name__);` — the parenthesised part is held aside as a placeholder, and the
    # ';' after it must still end the obligation's clause, or its prohibition is lost
    rule = "Modules get their logger with logging.getLogger(__name__); no hard-coded logger names"
    assert read_sentence(rule).forbid
