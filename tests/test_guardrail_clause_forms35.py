"""Drafting (thirty-fifth session, issue 22: drafting never turns a function word into a term):
a required file is the file, not the verb; a negated condition clause is the condition, not a
term ("keep X free of Y" read as "no Y in X" was removed in the thirty-sixth session). Tuning cases (tests/guardrail_tuning_batch27.py holds
more of each shape)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from lorestack.guardrail.sentences import read_sentence

_FUNCTION_VERBS = {"update", "add", "include", "change", "touch"}


@pytest.mark.parametrize(("sentence", "wanted"), [
    ("Every PR must update CHANGELOG.md", "CHANGELOG.md"),
    ("Every PR must update CHANGELOG.md under Unreleased", "CHANGELOG.md"),
    ("All pull requests must add a line to CHANGELOG.md", "CHANGELOG.md"),
    ("Breaking changes must add a section to UPGRADING.md", "UPGRADING.md"),
    ("Changes to the REST handlers must update openapi.yaml", "openapi.yaml"),
])
def test_a_required_file_is_the_file(sentence, wanted):
    """Before: "Every PR must update CHANGELOG.md" required 'update' and applied only where
    CHANGELOG.md was changed (a change that left it alone was never asked)."""
    d = read_sentence(sentence)
    assert d.require and wanted in d.require[0].split(" | "), d.require
    assert not _FUNCTION_VERBS & {w for r in d.require for w in r.split()}, d.require
    assert wanted not in d.paths, d.paths


def test_an_object_that_is_a_thing_is_still_required():
    assert read_sentence("Public API changes must update the docs").require == ["docs"]


def test_a_file_named_as_an_example_is_forbidden():
    """Before: 'platform headers' only; `#include <windows.h>` met nothing of the draft."""
    d = read_sentence("No platform headers such as windows.h in the public headers")
    assert "windows.h" in d.forbid, d.forbid


def test_free_without_of_is_no_ban():
    assert not read_sentence("Keep the free tier limits in config/limits.yaml").forbid


@pytest.mark.parametrize(("sentence", "act", "met"), [
    ("Do not merge PRs you have not reviewed", "merge & prs", "reviewed"),
    ("Never merge a pull request that has not been approved by another maintainer",
     "merge & pull request", "approved"),
    ("Don't close bug reports nobody has tried to reproduce", "close & bug reports", "reproduce"),
    ("Don't add dependencies that are not pinned to an exact version", "added:dependencies",
     "pinned"),
])
def test_a_negated_condition_is_no_term(sentence, act, met):
    """Before: "Do not merge PRs you have not reviewed" forbade 'prs' (any PR named), "…
    that has not been approved …" 'pull request not been approved maintainer'."""
    d = read_sentence(sentence)
    assert d.forbid == [act], d.forbid
    assert met in d.unless, d.unless
    assert not [t for t in d.forbid + d.keywords if {"not", "nobody", "been"} & set(t.split())]


def test_merging_a_reviewed_pr_passes_and_an_unreviewed_one_is_asked():
    """Through `check` with the real model, the draft as a guess: the condition met passes;
    the condition denied is asked about ("applies, undecided"), never blocked."""
    from lorestack.guardrail.check import check
    from tests import heldout_eval as E
    from tests.test_guardrail_labelled import make_proposal

    with tempfile.TemporaryDirectory() as tmp:
        E.scratch_home(Path(tmp))
        criteria = {"merge": ("Do not merge PRs you have not reviewed", "block")}
        mem, ids = E.build(Path(tmp), criteria)

        def answer(key, raw):
            result = check(mem, make_proposal(raw, mem.project.repo_dir), retrieval=False,
                           llm=False)
            return E.answer(result, ids[key])

        assert answer("merge", "Merge the PRs I reviewed this morning") == "pass"
        assert answer("merge", "Merge the PRs nobody has reviewed yet") == "undecided"
