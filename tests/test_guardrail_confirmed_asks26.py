"""Issue 22 (twenty-sixth session, fix26): confirming a draft stopped the questions its guess
asked. "Deployed images are pinned to a digest, never to a moving tag" is drafted `forbid:
moving tag`; as a guess, `FROM node:20-alpine` answered "applies, undecided" (an image not
pinned, faults.py), once confirmed it passed — the confirmed words found nothing, and the
readings a guess is held to (a fault that shows, a property of the change, what a change leaves
out) ran for guesses only. Now a confirmed draft whose words let a proposal pass still asks where
those readings find what the rule is about; never a block, and the look-alike still passes. Our
own sentences and proposals; real files, git and the model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store, new_file_diff

CRITERIA = {
    "pin": ("Deployed images are pinned to a digest, never to a moving tag", "block"),
    "tags": ("Release tags are always signed with the release key", "block"),
}




@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("asks26"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


@pytest.mark.parametrize(("key", "raw", "want"), [
    ("pin", new_file_diff("deploy/Dockerfile", ["FROM node:20-alpine", "COPY . /app"]), "undecided"),
    ("pin", new_file_diff("deploy/Dockerfile", ["FROM node:20-alpine@sha256:" + "a" * 64, "COPY . /app"]), "pass"),
    # blocked until the twenty-ninth session; meaning_needs (29th session): the confirmed rule applied by meaning alone and the proposal does not say 'release': asked
    # fix30 (30th session, thing_in_code) does not reach it: a proposal in words, not a tool call
    ("tags", "git tag v3.1.0 && git push origin v3.1.0", "undecided"),
    ("tags", "git tag -s v3.1.0 -m 'v3.1.0' && git push origin v3.1.0", "pass"),
])
def test_a_confirmed_draft_still_asks_what_its_guess_asked(store, key, raw, want):
    assert confirmed_answer(store, key, raw) == want


def test_a_fixed_version_is_pinned_where_the_rule_allows_a_version():
    # "pin a version or digest": a fixed version keeps it (it read as "not pinned by digest")
    from lorestack.guardrail.faults import judge_fault

    rule = "Never ship containers tagged latest; pin a version or digest"
    assert not judge_fault(rule, "    image: registry.example/shop/web:3.2.0").shown
    assert judge_fault(rule, "    image: registry.example/shop/web:latest").shown
