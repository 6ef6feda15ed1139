"""Issue 22 (twenty-fifth session, conf25): a forbidden word met only on a script's `#!` line.
"CI steps never … dump the environment (env, printenv, set -x)" forbids 'env'; once confirmed it
blocked every script that starts `#!/usr/bin/env bash` — the line names the interpreter, it runs
nothing the rule forbids. Met only there, an accepted rule's forbidden word makes it "applies,
undecided" (the review: a script that starts so and then echoes a token must not pass); met on
any other line it blocks as before. Our own sentence and scripts; real files, git and model."""

from __future__ import annotations

import pytest

from tests.conftest import confirmed_answer, confirmed_git_store
from tests.guardrail_sentence_cases import _diff

CRITERIA = {
    "envdump": ("Release scripts never run env or printenv; the job log is public", "block"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    with confirmed_git_store(tmp_path_factory.mktemp("shebang25"), CRITERIA, {"README.md": "x\n"}) as made:
        yield made


def test_the_interpreter_line_is_not_the_act(store):
    raw = _diff("scripts/release.sh", "#!/usr/bin/env bash\nset -eu\n./gradlew publish")
    assert confirmed_answer(store, "envdump", raw) == "undecided"


def test_a_script_that_starts_with_env_is_never_passed_on_that_line(store):
    raw = _diff("scripts/release.sh", "#!/usr/bin/env bash\necho \"token is $DEPLOY_TOKEN\"\nexport -p")
    assert confirmed_answer(store, "envdump", raw) in ("block", "undecided")


@pytest.mark.parametrize("body", ["env | sort", "printenv"])
def test_the_act_on_another_line_still_blocks(store, body):
    raw = _diff("scripts/release.sh", f"#!/usr/bin/env bash\nset -eu\n{body}\n./gradlew publish")
    assert confirmed_answer(store, "envdump", raw) == "block"
