"""Review of the twenty-second session: everyday proposals under confirmed rules that the
session's readings answered wrongly. Real files, real git, the real MiniLM model; criteria
confirmed as a person would (`criteria confirm`)."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _bash

CRITERIA = {
    "eval": ("Do not use eval.", "block"),
    "strcpy": ("C code must not call strcpy.", "block"),
    "signed": ("Release tags must be signed.", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("review22"), CRITERIA, {}) as made:
        yield made


_answer = confirmed_answer


# prose that names the forbidden thing only as what it replaces, with a thing the rule does not
# name: the forbidden word is what goes away, so it is asked about, never blocked
@pytest.mark.parametrize("key,raw", [
    ("eval", "Replace eval(user_input) with ast.literal_eval(user_input) in the calculator"),
    ("strcpy", "Replace strcpy with memcpy and an explicit length check in url.c"),
])
def test_replacing_the_forbidden_thing_is_not_blocked(store, key, raw):
    assert _answer(store, key, raw) != "block"


@pytest.mark.parametrize("key,raw", [
    ("eval", "Replace ast.literal_eval with eval in the config loader"),
    ("eval", "Use eval to read the config expressions"),
    ("strcpy", "Replace memcpy with strcpy in url.c"),
])
def test_bringing_the_forbidden_thing_in_still_blocks(store, key, raw):
    assert _answer(store, key, raw) == "block"


# `git tag` that lists (with a count of annotation lines, or filtered by a commit) or deletes
# makes no tag a rule on what a release tag needs could miss
@pytest.mark.parametrize("raw", [
    "git tag -n5", "git tag -n", "git tag --contains 3f2a9c1", "git tag --points-at HEAD",
    "git tag --merged main --sort=-creatordate", "git tag -d v1.2.0-rc1",
    "git tag --delete v1.2.0-rc1", "git branch -n3 --contains 3f2a9c1",
])
def test_a_tag_command_that_makes_no_tag_is_not_blocked(store, raw):
    assert _answer(store, "signed", _bash(raw)) != "block"


@pytest.mark.parametrize("raw", [
    "git tag v1.2.0", "git tag -a v1.2.0 -m 'v1.2.0'", "git tag -d v1.2.0 && git tag v1.2.0",
    "git tag -f v1.2.0",
])
def test_a_tag_command_that_makes_an_unsigned_tag_still_blocks(store, raw):
    # blocked until the twenty-ninth session; since meaning_needs (29th session): the confirmed rule applied by meaning alone and the proposal does not say
    # 'release' ("Release tags must be signed": 2 of the act's 2 words needed): asked, never passed;
    # fix30 (30th session, thing_in_code): `git tag` names the thing the rule is about: blocks again
    assert _answer(store, "signed", _bash(raw)) == "block"
