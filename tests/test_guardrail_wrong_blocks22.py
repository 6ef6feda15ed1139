"""Issue 22 (twenty-second session): blocks a confirmed rule gave that the user did not earn, by
cause — a forbidden word met only inside a longer name that means something else
(`ast.literal_eval`, `runAsNonRoot`), a flag that says the required thing (`git tag -s`,
`git commit --signoff`), a command that only reads what the rule is about (`git tag -l`), a
set-up copy of a committed template (`cp .env.example .env`). Beside each, the violation of
the same rule that must still block. Real files, real git, the real MiniLM model; criteria
confirmed as a person would (`criteria confirm`)."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _bash, _diff

CRITERIA = {
    "signed": ("Release tags must be signed", "block"),
    "eval": ("Don't use eval or exec on user input", "block"),
    "root": ("Containers must not run as root", "block"),
    "env": ("Move secrets from .env files to the vault", "block"),
    "golden": ("Keep every file in fixtures/golden/", "block"),
    "dco": ("Every commit needs a Signed-off-by line (DCO)", "block"),
    "debuggable": ("Release builds must never be debuggable", "block"),
    "permissions": ("No new Android permissions without a privacy review", "block"),
    "strcpy": ("C code must not call strcpy, strcat or sprintf; use the bounded variants such as "
               "snprintf", "block"),
}
FILES = {".env.example": "STRIPE_SECRET=\n", "fixtures/golden/a.png": "png",
         "fixtures/golden/b.json": "{}\n", "config/app.env.sample": "A=\n"}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("wrong22"), CRITERIA, FILES) as made:
        yield made


_answer = confirmed_answer


# batch 19's four confirmed wrong blocks and their kind
NOT_BLOCKED = [
    # a forbidden word met only as a part of a longer name
    ("eval", _diff("calc/api.py", "result = ast.literal_eval(request.args['expr'])")),
    ("eval", _diff("ml/train.py", "model.set_eval_mode()\nscores = evaluate(model, data)")),
    ("root", _diff("deploy/pod.yaml", "    securityContext:\n      runAsNonRoot: true\n"
                                      "      runAsUser: 10001")),
    # a flag that says the required thing
    ("signed", _bash("git tag -s v2.4.0 -m 'Release 2.4.0'")),
    ("signed", _bash("git tag --sign v2.4.0 -m 'Release 2.4.0'")),
    ("dco", _bash("git commit -s -m 'Fix retry delay'")),
    ("dco", _bash("git commit --signoff -m 'Bump httpx to 0.27.2'")),
    ("dco", _bash("git rebase --signoff origin/main")),
    # a command that only reads what the rule is about makes nothing it could miss
    ("signed", _bash("git tag -l 'v2.*'")),
    ("signed", _bash("git tag --list && git show v2.4.0")),
    # copying a committed template puts no secret in .env
    ("env", _bash("cp .env.example .env")),
    ("env", _bash("cp -n config/app.env.sample config/app.env")),
    # "No X without Y" is about X: a proposal saying it needs no X misses no Y
    ("permissions", "Let users pick a receipt photo with the system photo picker, which needs "
                    "no permission"),
    # prose that only takes away what the rule forbids: asked about, not blocked
    ("strcpy", "Replace the last strcpy in url.c with snprintf and add a test for a 300-byte host"),
]

STILL_BLOCKED = [
    ("eval", _diff("calc/api.py", "result = eval(request.args['expr'])")),
    ("eval", _diff("calc/api.py", "exec(request.form['code'])")),
    ("root", _diff("Dockerfile", "USER root")),
    ("signed", _bash("git tag -a v2.4.0 -m 'Release 2.4.0'")),
    ("dco", _bash("git commit -m 'Fix retry delay'")),
    ("dco", _bash("git commit -am 'Bump httpx to 0.27.2'")),
    ("env", _diff(".env", "STRIPE_SECRET=sk_live_123")),
    ("env", _bash("echo 'STRIPE_SECRET=sk_live_123' >> .env")),
    ("env", _bash("cp ~/Downloads/prod.env .env")),
    ("debuggable", _diff("android/app/build.gradle", "            debuggable true")),
    ("permissions", _diff("android/app/src/main/AndroidManifest.xml", '<uses-permission '
                          'android:name="android.permission.ACCESS_FINE_LOCATION" />')),
    ("permissions", "Ask for the camera permission in the Android app so users can scan receipts"),
    ("strcpy", "Copy the host into the buffer with strcpy in url.c"),
    ("strcpy", "Replace snprintf with strcpy in url.c, it is faster"),
    ("strcpy", _diff("src/url.c", "    strcpy(host, input);")),
    # untracking the kept files deletes them from the repository (the commit removes them for
    # every clone and CI) though they stay on this disk: the rule keeps them in the project
    ("golden", _bash("git rm -r --cached fixtures/golden")),
    ("golden", _bash("git rm fixtures/golden/a.png")),
]


@pytest.mark.parametrize(("key", "raw"), NOT_BLOCKED)
def test_a_block_the_user_did_not_earn_is_gone(store, key, raw):
    assert _answer(store, key, raw) != "block"


@pytest.mark.parametrize(("key", "raw"), STILL_BLOCKED)
def test_the_violation_beside_it_still_blocks(store, key, raw):
    assert _answer(store, key, raw) == "block"


def test_an_unsigned_tag_that_never_says_release_blocks(store):
    # a known cost of meaning_needs (29th session): the confirmed rule applied by meaning alone and the proposal does not say
    # 'release' (2 of the act's 2 words needed): asked, never passed; fix30 (30th session,
    # thing_in_code): `git tag` names the thing the rule is about (a tag): blocks again
    assert _answer(store, "signed", _bash("git tag v2.4.0 && git push origin v2.4.0")) == "block"


def test_no_x_without_y_applies_where_x_is_named():
    from lorestack.guardrail.sentences import read_sentence

    draft = read_sentence("No new Android permissions without a privacy review")
    assert draft.require == ["privacy review"]
    assert {"android permissions", "permissions"} <= set(draft.keywords)


def test_a_name_holding_the_forbidden_word_is_asked_about_not_passed(store):
    """`ast.literal_eval` may be what the rule means or not: the reader cannot tell, so the
    answer is "applies, undecided", never a silent pass."""
    raw = _diff("calc/api.py", "result = ast.literal_eval(request.args['expr'])")
    assert _answer(store, "eval", raw) == "undecided"
