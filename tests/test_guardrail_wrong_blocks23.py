"""Issue 22 (twenty-third session, conf23): a confirmed rule that forbids a state with a copula
("Release builds must never be debuggable", "S3 buckets must never be public") blocked the
change that sets that state to false (`debuggable false`, `android:debuggable="false"`,
`public = false`): the state switched off is what the rule asks for. Beside each, the
violation that must still block: the state set true, or said in prose. Real files, real git,
the real MiniLM model; criteria confirmed as a person would (`criteria confirm`)."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _diff

CRITERIA = {
    "debuggable": ("Release builds must never be debuggable", "block"),
    "public": ("S3 buckets must never be public", "block"),
    "ci_strict": ("TypeScript must always be strict; don't turn off strict", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("wrong23"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


NOT_BLOCKED = [
    ("debuggable", _diff("android/app/build.gradle", "            debuggable false")),
    ("debuggable", _diff("android/app/src/main/AndroidManifest.xml",
                         '    <application android:label="@string/app_name" '
                         'android:debuggable="false">')),
    ("public", _diff("infra/s3.tf", '  bucket = "exports"\n  public = false')),
]

STILL_BLOCKED = [
    ("debuggable", _diff("android/app/build.gradle", "            debuggable true")),
    ("debuggable", _diff("android/app/src/main/AndroidManifest.xml",
                         '    <application android:debuggable="true">')),
    ("debuggable", "Make the Play Store build debuggable so we can attach to it"),
    # one occurrence set false does not hide another set true
    ("debuggable", _diff("android/app/build.gradle", "  debuggable false\n  debuggable true")),
    ("public", _diff("infra/s3.tf", '  bucket = "exports"\n  public = true')),
    # a ban on switching a good thing off: the name set to false stays the violation
    ("ci_strict", _diff("tsconfig.json", '    "strict": false,')),
]


@pytest.mark.parametrize(("key", "raw"), NOT_BLOCKED)
def test_a_forbidden_state_set_false_is_not_blocked(store, key, raw):
    assert _answer(store, key, raw) != "block"


@pytest.mark.parametrize(("key", "raw"), STILL_BLOCKED)
def test_the_state_set_true_still_blocks(store, key, raw):
    assert _answer(store, key, raw) == "block"


_answer = confirmed_answer
